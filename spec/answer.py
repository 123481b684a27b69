"""One kind of answer: every question the toolkit asks is proved, impossible or unknown.

Every result class is an :class:`Answer`: frozen, its ``status`` one of the words of its
question's ``Literal`` below (each solver keeps its own words in its JSON, renaming nothing),
its :attr:`Answer.verdict` the :class:`Verdict` that word means (:data:`STATUS_WORDS`), and its
JSON (``as_json``/``to_json``) its serialisation. Every solving command's ``--json`` carries the
verdict as ``"outcome"``. An ``unknown`` is never read as yes or no (CrossHair's rule): it
carries the reason and the budget spent. Plain standard library: no z3 here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, Generic, Literal, TypeVar

from sushigo.spec.errors import RulesError


class Verdict(StrEnum):
    """The three answers a question can have."""

    PROVED = "proved"  # with the witness, or the optimum and its certificate
    IMPOSSIBLE = "impossible"  # with the explanation (a core of rule ids) where there is one
    UNKNOWN = "unknown"  # with the reason and the budget spent

    def __str__(self) -> str:
        return self.value


#: The status words of each question (its result class's ``status``), each mapped in
#: :data:`STATUS_WORDS`. Z3's own answer; a model's explanation (core) and its facts' check too.
Z3Status = Literal["sat", "unsat", "unknown"]
#: best (one deal, hindsight, all deals): the optimum with its proof, or the best found so far.
BestStatus = Literal["optimal", "unknown"]
#: endgame: the exact value of the position, or unknown when its node or time budget ran out.
EndgameStatus = Literal["solved", "unknown"]
#: endgame --certify: one first pick's guarantee proved by Z3, refuted, or left unknown.
CertificateStatus = Literal["proved", "refuted", "unknown"]
#: scoresheet, table: a legal game exists (witness), or not (a core of rule ids), or unknown.
PossibleStatus = Literal["possible", "impossible", "unknown"]
#: diff: a witness where two rulesets differ, the proof they agree within the bound, unknown, or
#: rulesets that cannot be compared; a witness's extension to a whole game is "found".
DiffStatus = Literal["differ", "equivalent", "unknown", "not-applicable"]
ExtensionStatus = Literal["found"]
#: conform: the target agreed on every case, or faults were found.
ConformStatus = Literal["conforms", "faults"]

S = TypeVar("S", bound=str)


class Answer(Generic[S]):
    """The one result type: what every solver and check returns derives from it (a frozen
    dataclass of its question's fields: the witness, the score, the core...). ``status`` is a
    word of the question's ``Literal`` (``Answer[BestStatus]``: "optimal" or "unknown"); the
    verdict is what that word means, never read otherwise."""

    __slots__ = ()
    status: S

    @property
    def verdict(self) -> Verdict:
        """proved, impossible or unknown: what ``status`` means (:data:`STATUS_WORDS`)."""
        return verdict_of(self.status)


#: Every ``status`` word a solver writes, and the verdict it means. A word not listed here is
#: refused (:func:`verdict_of`), so a new word cannot silently become an answer.
STATUS_WORDS: Mapping[str, Verdict] = {
    # Z3 itself (spec.model.budget.Z3Answer)
    "sat": Verdict.PROVED,
    "unsat": Verdict.IMPOSSIBLE,
    "unknown": Verdict.UNKNOWN,
    # best: the optimum with its proof that one point more is unreachable
    "optimal": Verdict.PROVED,
    # endgame: the exact value of the position; --certify: each guarantee checked by Z3
    "solved": Verdict.PROVED,
    "proved": Verdict.PROVED,
    "refuted": Verdict.IMPOSSIBLE,
    # scoresheet, table: a legal game exists (witness) or not (core of rule ids)
    "possible": Verdict.PROVED,
    "impossible": Verdict.IMPOSSIBLE,
    # diff: a witness where the rulesets differ, or the proof they agree within the bound
    "differ": Verdict.PROVED,
    "equivalent": Verdict.PROVED,
    "found": Verdict.PROVED,
    # diff: the two rulesets cannot be compared (another player count, another deck)
    "not-applicable": Verdict.IMPOSSIBLE,
    # conform: the target agreed on every case, or a fault was found (a witness either way)
    "conforms": Verdict.PROVED,
    "faults": Verdict.PROVED,
}


def verdict_of(status: str) -> Verdict:
    """The verdict a solver's ``status`` word means; an unlisted word is a :class:`RulesError`."""
    try:
        return STATUS_WORDS[status]
    except KeyError:
        raise RulesError(f"status {status!r} has no verdict; known: {', '.join(STATUS_WORDS)}") from None


def combine(verdicts: Iterable[Verdict]) -> Verdict:
    """The verdict of several answers given together: unknown if any is unknown, else impossible
    if any is impossible, else proved (no answers at all: proved, nothing was left open)."""
    seen = set(verdicts)
    for v in (Verdict.UNKNOWN, Verdict.IMPOSSIBLE):
        if v in seen:
            return v
    return Verdict.PROVED


def with_outcome(data: Mapping[str, Any], verdict: Verdict) -> dict[str, Any]:
    """``data`` with ``"outcome"`` added right after ``"format"`` (first if there is no format)."""
    out: dict[str, Any] = {}
    if "format" in data:
        out["format"] = data["format"]
    out["outcome"] = verdict.value
    out.update((k, v) for k, v in data.items() if k not in ("format", "outcome"))
    return out


__all__ = [
    "STATUS_WORDS",
    "Answer",
    "BestStatus",
    "CertificateStatus",
    "ConformStatus",
    "DiffStatus",
    "EndgameStatus",
    "ExtensionStatus",
    "PossibleStatus",
    "Verdict",
    "Z3Status",
    "combine",
    "verdict_of",
    "with_outcome",
]
