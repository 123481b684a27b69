"""sushigo check on worker processes (one fresh worker per task) gives the serial run's outcomes."""

from __future__ import annotations

from sushigo.checks import properties as P
from sushigo.checks import runner as R
from sushigo.spec.ruleset import RULESETS


def _summary(outs: list[R.PropertyResult]) -> list[tuple[str, int, int, str]]:
    return [(o.prop, o.rulesets, o.examples, o.status) for o in outs]


def test_parallel_run_equals_serial_run() -> None:
    opts = R.Options(examples=20, rulesets=[RULESETS["official"], RULESETS["dutch"]],
                     only=("pudding-scores", "winners", "edge-pudding-ties"))
    serial = R.run_parallel(opts, 1)
    parallel = R.run_parallel(opts, 2)
    assert _summary(parallel) == _summary(serial)
    assert [o.prop for o in parallel] == ["edge-pudding-ties", "pudding-scores", "winners"]
    assert all(o.status == "ok" and o.examples > 0 for o in parallel)


def test_models_are_released_after_each_ruleset() -> None:
    R.run_given(next(p for p in P.all_properties() if p.name == "pudding-scores"),
                R.Options(examples=10, rulesets=[RULESETS["official"]]))
    assert P.pudding_model.cache_info().currsize == 0
