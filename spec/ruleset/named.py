"""The named rulesets: the official rules, one per rule text, one per single reading, and the two
printed variants (``sushigo rules`` lists them)."""

from __future__ import annotations

from sushigo.spec.ruleset.readings import PARAMETERS
from sushigo.spec.ruleset.value import Ruleset

OFFICIAL = Ruleset()

#: Named rulesets: the official rules, one per rule text, one per single reading,
#: and the two printed variants.
RULESETS: dict[str, Ruleset] = {
    "official": OFFICIAL,
    "english": OFFICIAL.replace(name="english", source="English text (follows the rulebook)"),
    "slovenian": OFFICIAL.replace(
        name="slovenian",
        pudding_penalty_rounding="toward-minus-infinity",
        wasabi_placement="optional",
        source="Slovenian text, contested points read literally",
    ),
    "french": OFFICIAL.replace(
        name="french", maki_first_tie="each", maki_second_tie="each", source="French text"
    ),
    "dutch": OFFICIAL.replace(
        name="dutch",
        maki_first_tie="half",
        pudding_all_tied="both",
        wasabi_placement="optional",
        source="Dutch text, contested points read literally",
    ),
    # single-reading variants of official
    "maki-first-each": OFFICIAL.replace(name="maki-first-each", maki_first_tie="each"),
    "maki-first-half": OFFICIAL.replace(name="maki-first-half", maki_first_tie="half"),
    "maki-second-each": OFFICIAL.replace(name="maki-second-each", maki_second_tie="each"),
    "pudding-floor": OFFICIAL.replace(
        name="pudding-floor", pudding_penalty_rounding="toward-minus-infinity"
    ),
    "pudding-all-tied-both": OFFICIAL.replace(name="pudding-all-tied-both", pudding_all_tied="both"),
    "pudding-penalty-2p": OFFICIAL.replace(name="pudding-penalty-2p", pudding_penalty_2p=True),
    "wasabi-optional": OFFICIAL.replace(name="wasabi-optional", wasabi_placement="optional"),
    "wasabi-strict": OFFICIAL.replace(name="wasabi-strict", wasabi_same_turn=False),
    "winner-tie-none": OFFICIAL.replace(name="winner-tie-none", winner_tie="none"),
    # the printed variants
    "pass-both-ways": OFFICIAL.replace(name="pass-both-ways", passing="both-ways"),
    "dummy-2p": OFFICIAL.replace(name="dummy-2p", dummy_2p=True),
}

#: The single-reading variants of official (each differs in exactly one parameter), in RULESETS order.
SINGLE_READING_VARIANTS: tuple[str, ...] = tuple(
    name for name, rules in RULESETS.items()
    if sum(getattr(rules, p.name) != getattr(OFFICIAL, p.name) for p in PARAMETERS) == 1
)
