"""simulator.frozen: the quick ``__init__`` and ``replace`` build exactly the values the standard dataclass
machinery builds (field by field, equal and with equal hashes), and fall back to it where a shortcut could
differ."""

from __future__ import annotations

import copy
import dataclasses
import functools
import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.frozen import fast_init, replace
from simulator.gaslands.engine import Activation, EngineState, Flow, Step
from simulator.gaslands.game import Entry
from simulator.gaslands.referee import MoveReport
from simulator.gaslands.round import Contender, RoundState
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.geometry.pose import Pose


def _standard_init(cls: type, *args: object, **kwargs: object) -> object:
    """An instance built by the dataclass-generated ``__init__`` (kept by dataclasses on a fresh copy)."""
    plain = dataclass(frozen=True)(type(cls.__name__, (), {"__annotations__": dict(cls.__annotations__),
                                                          **{f.name: f.default for f in dataclasses.fields(cls)
                                                             if f.default is not dataclasses.MISSING}}))
    built = plain(*args, **kwargs)
    return {f.name: getattr(built, f.name) for f in dataclasses.fields(built)}


def _as_dict(value: object) -> dict[str, object]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}  # type: ignore[arg-type]


def _vehicle(**changes: object) -> VehicleState:
    v = VehicleState.new("red", 0, "car", Pose(100.0, 200.0, 90.0))
    return dataclasses.replace(v, **changes)


@pytest.mark.parametrize("cls", [VehicleState, GameState, EngineState, Activation, Flow, MoveReport, Contender,
                                 RoundState, Entry, Step])
def test_engine_classes_use_the_quick_init_with_the_same_signature(cls: type) -> None:
    import inspect

    assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fs = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fs]
    for p, f in zip(params, fs, strict=True):
        if f.default is dataclasses.MISSING:
            assert p.default is inspect.Parameter.empty
        else:
            assert p.default is f.default  # the very same default object, as dataclasses passes it


def test_quick_init_equals_the_standard_init() -> None:
    assert _as_dict(Activation()) == _standard_init(Activation)
    assert _as_dict(Flow()) == _standard_init(Flow)
    args = ("red", 0, "car", Pose(1.0, 2.0, 3.0), 4, 3, 5, 2, "middleweight", 40.0, 20.0)
    v = VehicleState(*args, gear=3, status=Status.WRECK)
    assert _as_dict(v) == _standard_init(VehicleState, *args, gear=3, status=Status.WRECK)
    with pytest.raises(TypeError):
        VehicleState(*args[:3])  # a missing field is still an error
    with pytest.raises(TypeError):
        VehicleState(*args, nonsense=1)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.gear = 2  # type: ignore[misc]


@given(gear=st.integers(0, 6), hazards=st.integers(0, 8), damage=st.integers(0, 9),
       x=st.floats(-1e4, 1e4, allow_nan=False), on_fire=st.booleans(),
       status=st.sampled_from(list(Status)))
def test_replace_equals_dataclasses_replace(gear: int, hazards: int, damage: int, x: float, on_fire: bool,
                                            status: Status) -> None:
    v = _vehicle(gear=2)
    changes = {"gear": gear, "hazards": hazards, "damage": damage, "pose": Pose(x, 1.0, 0.0), "on_fire": on_fire,
               "status": status}
    quick, standard = replace(v, **changes), dataclasses.replace(v, **changes)
    assert quick == standard and hash(quick) == hash(standard) and repr(quick) == repr(standard)
    assert _as_dict(quick) == _as_dict(standard)
    assert v == _vehicle(gear=2)  # the original is untouched
    assert pickle.loads(pickle.dumps(quick)) == quick and copy.deepcopy(quick) == quick


def test_replace_refuses_what_dataclasses_refuses() -> None:
    with pytest.raises(TypeError):
        replace(_vehicle(), no_such_field=1)
    with pytest.raises(TypeError):
        replace(object())


def test_replace_falls_back_for_post_init_init_false_and_cached_properties() -> None:
    @dataclass(frozen=True)
    class Checked:
        n: int
        twice: int = field(init=False, default=0)

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.n)

    assert replace(Checked(1), n=4).twice == 8

    @dataclass(frozen=True)
    class Cached:
        n: int

        @functools.cached_property
        def square(self) -> int:
            return self.n * self.n

    c = Cached(3)
    assert c.square == 9
    assert replace(c, n=4).square == 16  # the cached 9 is not carried over


def test_fast_init_refuses_classes_it_does_not_suit() -> None:
    class NotADataclass:
        pass

    with pytest.raises(TypeError):
        fast_init(NotADataclass)

    @dataclass(frozen=True)
    class Factory:
        items: list[int] = field(default_factory=list)

    with pytest.raises(TypeError):
        fast_init(Factory)

    @dataclass(frozen=True)
    class Post:
        n: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError):
        fast_init(Post)
