"""spec/frozen.py: every record behaves as the frozen dataclass it stands for.

The independent side is :mod:`dataclasses` itself: each record class is rebuilt as a real frozen
dataclass with the same fields, and both are asked the same things.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest
from sushigo.spec import document, kinds, scoring, tableau
from sushigo.spec.frozen import field, frozen, make_frozen, replace
from sushigo.spec.ruleset import numbers, readings, value

RECORDS = [kinds.PerCard, kinds.Sets, kinds.ByCount, kinds.Icons, kinds.Ranked, kinds.Unscored,
           kinds.CardKind, kinds.TokenKind, readings.Parameter, numbers.NumberParameter, value.Ruleset,
           tableau.Tableau, document.RawDocument, document.ScoreDocument, scoring.RoundScore,
           scoring.GameScore]


@frozen(order=True)
class Point:
    x: int
    y: int = 0
    note: str = field(default="", compare=False)


@dataclasses.dataclass(frozen=True, order=True)
class DataPoint:
    x: int
    y: int = 0
    note: str = dataclasses.field(default="", compare=False)


def test_the_project_s_start_up_classes_are_records_and_dataclasses() -> None:
    for cls in RECORDS:
        assert "__frozen_spec__" in cls.__dict__, cls
        assert dataclasses.is_dataclass(cls), cls
        assert [f.name for f in dataclasses.fields(cls)] == list(cls.__match_args__)


@pytest.mark.parametrize("args,kwargs", [((1,), {}), ((1, 2), {}), ((), {"x": 3, "note": "n"}),
                                         ((1,), {"y": 5})])
def test_construction_repr_equality_hash_and_order_as_a_dataclass(args: tuple[int, ...],
                                                                   kwargs: dict[str, object]) -> None:
    ours, theirs = Point(*args, **kwargs), DataPoint(*args, **kwargs)  # type: ignore[arg-type]
    assert repr(ours) == repr(theirs).replace("DataPoint", "Point")
    assert ours == Point(*args, **kwargs) and hash(ours) == hash(Point(*args, **kwargs))  # type: ignore[arg-type]
    assert ours == replace(ours, note="other") and hash(ours) == hash(replace(ours, note="other"))
    assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    for other in [(0, 0), (1, 0), (1, 9), (7, 1)]:
        for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__"):
            assert getattr(ours, op)(Point(*other)) == getattr(theirs, op)(DataPoint(*other)), (op, other)
    assert ours.__eq__((1, 0)) is NotImplemented and ours.__lt__(theirs) is NotImplemented


@pytest.mark.parametrize("args,kwargs", [((), {}), ((1, 2, "a", 4), {}), ((1,), {"z": 1}),
                                         ((1,), {"x": 2})])
def test_bad_arguments_raise_type_error_as_a_dataclass(args: tuple[object, ...],
                                                       kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError) as ours:
        Point(*args, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError) as theirs:
        DataPoint(*args, **kwargs)  # type: ignore[arg-type]
    assert str(ours.value).split("()")[1] == str(theirs.value).split("()")[1]


def test_assignment_is_refused_with_the_dataclass_error() -> None:
    point = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.x  # type: ignore[misc]


def test_replace_fields_signature_pickle_and_copy() -> None:
    point = Point(1, 2, "n")
    assert dataclasses.replace(point, y=3) == Point(1, 3)
    assert [(f.name, f.default, f.compare) for f in dataclasses.fields(point)] == \
        [(f.name, f.default, f.compare) for f in dataclasses.fields(DataPoint)]
    assert str(inspect.signature(Point)) == str(inspect.signature(DataPoint))
    assert Point.__dataclass_params__.frozen and Point.__dataclass_params__.order
    for made in (pickle.loads(pickle.dumps(point)), copy.copy(point), copy.deepcopy(point)):
        assert made == point and made.note == "n"


def test_post_init_runs_and_the_ruleset_validates_through_replace() -> None:
    with pytest.raises(ValueError):
        tableau.Tableau((1, 2))
    official = value.Ruleset()
    changed = official.replace(tempura_points=6)
    assert changed.tempura_points == 6 and official.tempura_points != 6
    assert dataclasses.replace(official, tempura_points=6) == changed
    assert changed != official and official == value.Ruleset()
    assert official == replace(official, source="somewhere else")  # source is not compared


def test_a_made_record_pickles_by_reference() -> None:
    assert pickle.loads(pickle.dumps(scoring.RoundScore(*range(len(scoring.CATEGORIES))))) == \
        scoring.RoundScore(*range(len(scoring.CATEGORIES)))
    made = make_frozen("Pair", [("a", "int"), ("b", "int")])
    assert made(1, 2) == made(1, 2) and repr(made(1, 2)) == "Pair(a=1, b=2)"


def test_what_records_refuse() -> None:
    with pytest.raises(TypeError, match="non-default"):
        frozen(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))
    with pytest.raises(TypeError, match="ClassVar"):
        frozen(type("Bad", (), {"__annotations__": {"a": "ClassVar[int]"}}))
    with pytest.raises(TypeError, match="extend"):
        frozen(type("Bad", (Point,), {"__annotations__": {"z": "int"}}))
