"""Where Hypothesis keeps its files (its constants cache; the example database is off, see
``runner._settings``): the user's cache directory, never the working directory.

``SUSHIGO_HYPOTHESIS_DIR`` chooses: a directory, or ``off`` for a temporary directory removed at
exit. Without it, ``HYPOTHESIS_STORAGE_DIRECTORY`` (Hypothesis' own variable) is honoured, else
``$XDG_CACHE_HOME/sushigo/hypothesis`` (``~/.cache/sushigo/hypothesis``).

Hypothesis also mixes into its draws the literal constants of "local" modules: every imported
module outside site-packages. Which modules those are depends on how the toolkit was installed
(an editable checkout is local, a wheel is not) and on what the user imported (a conform adapter),
so the cases of a derandomized or seeded run would differ between installs of the same version.
:func:`use_hypothesis_home` turns that source off; the generated cases then depend only on the
strategies, the seed and the Hypothesis version (pinned in pyproject.toml)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

ENV = "SUSHIGO_HYPOTHESIS_DIR"


def hypothesis_home() -> Path:
    """The directory Hypothesis should write to, as the environment chooses."""
    chosen = os.environ.get(ENV, "").strip()
    if chosen.lower() == "off":
        temp = tempfile.mkdtemp(prefix="sushigo-hypothesis-")
        atexit.register(shutil.rmtree, temp, True)
        return Path(temp)
    if chosen:
        return Path(chosen).expanduser()
    if own := os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return Path(own)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "sushigo" / "hypothesis"


def use_hypothesis_home() -> None:
    """Point Hypothesis at :func:`hypothesis_home` and stop it drawing the constants of local
    modules (called when the checks are imported)."""
    from hypothesis.configuration import set_hypothesis_home_dir
    from hypothesis.internal.conjecture import providers
    from hypothesis.internal.constants_ast import Constants

    set_hypothesis_home_dir(hypothesis_home())
    # Private hook of the pinned Hypothesis (6.170): the provider looks the function up in its
    # module on every draw. tests/test_options.py fails loudly if the hook moves.
    empty = Constants()  # the class providers imports (it does not re-export it)
    providers._get_local_constants = lambda: empty
    providers.CONSTANTS_CACHE.cache.clear()
