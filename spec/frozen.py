"""Frozen records for the classes every command builds at start-up (issue 31 item 5).

``@frozen`` makes a class what ``@dataclass(frozen=True)`` makes it: an ``__init__`` taking the
annotated fields in order (defaults after), ``__post_init__`` called after it, ``__repr__``,
``__eq__`` and ``__hash__`` over the compared fields, ``__match_args__``, the order methods with
``order=True``, and assignment refused with :class:`dataclasses.FrozenInstanceError`. What it
does not do is import :mod:`dataclasses` (which imports :mod:`inspect`, :mod:`ast`, :mod:`dis`
and :mod:`tokenize`) or compile a function per method per class, which together were about half of
``sushigo score``'s own start-up. The methods are shared closures, written once here.

They stay dataclasses to everything that asks: ``__dataclass_fields__``, ``__dataclass_params__``
and ``__signature__`` are made on first use, from a real dataclass of the same fields built then,
so :func:`dataclasses.fields`, :func:`dataclasses.replace`, :func:`dataclasses.asdict`,
:func:`dataclasses.is_dataclass` and :func:`inspect.signature` answer as for a dataclass
(``tests/test_frozen.py`` holds each record to the dataclass it stands for).

Limits, checked when a class is made: no ``ClassVar`` or ``InitVar`` fields, no dataclass or
record bases, no ``default_factory`` (every default of these classes is an immutable value).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeVar, dataclass_transform

    _C = TypeVar("_C", bound=type)
    _R = TypeVar("_R")

_MISSING = object()


class Field:
    """A field's default and whether it is compared (``field(default=..., compare=False)``)."""

    __slots__ = ("compare", "default")

    def __init__(self, default: Any, compare: bool) -> None:
        self.default, self.compare = default, compare


def field(*, default: Any = _MISSING, compare: bool = True) -> Any:
    """A field whose default is ``default`` and that ``==``, ``hash`` and ordering skip unless
    ``compare`` (as :func:`dataclasses.field` with those two arguments)."""
    return Field(default, compare)


class _Lazy:
    """A class attribute computed from the stand-in dataclass when first read, then cached."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type) -> Any:
        stand_in = _stand_in(owner)
        value = {"__dataclass_fields__": stand_in.__dataclass_fields__,
                 "__dataclass_params__": stand_in.__dataclass_params__}.get(self.name)
        if self.name == "__signature__":
            import inspect

            value = inspect.signature(stand_in)
        setattr(owner, self.name, value)
        return value


def _stand_in(cls: type) -> Any:
    """The dataclass ``@frozen`` stands for: the same fields, defaults, compare flags and order."""
    import dataclasses

    spec: _Spec = cls.__dict__["__frozen_spec__"]
    made = dataclasses.make_dataclass(
        cls.__name__,
        [(name, cls.__annotations__[name],
          dataclasses.field(compare=name in spec.compared,
                            **({} if spec.defaults.get(name, _MISSING) is _MISSING
                               else {"default": spec.defaults[name]})))
         for name in spec.names],
        frozen=True, order=spec.order)
    return made


class _Spec:
    __slots__ = ("compared", "defaults", "names", "order")

    def __init__(self, names: tuple[str, ...], defaults: dict[str, Any], compared: tuple[str, ...],
                 order: bool) -> None:
        self.names, self.defaults, self.compared, self.order = names, defaults, compared, order


def _methods(cls: type, spec: _Spec) -> dict[str, Callable[..., Any]]:
    names, defaults, compared = spec.names, spec.defaults, spec.compared
    count = len(names)
    index = set(names)
    title = cls.__qualname__
    post_init = getattr(cls, "__post_init__", None)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) == count and not kwargs:
            values = dict(zip(names, args, strict=False))
        else:
            if len(args) > count:
                takes = f"{count + 1}" if not defaults else f"from {count - len(defaults) + 1} to {count + 1}"
                raise TypeError(f"{title}.__init__() takes {takes} positional arguments but "
                                f"{len(args) + 1} were given")
            values = dict(zip(names, args, strict=False))
            for key, value in kwargs.items():
                if key not in index:
                    raise TypeError(f"{title}.__init__() got an unexpected keyword argument {key!r}")
                if key in values:
                    raise TypeError(f"{title}.__init__() got multiple values for argument {key!r}")
                values[key] = value
            if len(values) < count:
                missing = []
                for key in names:
                    if key not in values:
                        if key in defaults:
                            values[key] = defaults[key]
                        else:
                            missing.append(key)
                if missing:
                    raise TypeError(f"{title}.__init__() missing {len(missing)} required positional argument"
                                    f"{'s' if len(missing) > 1 else ''}: "
                                    + " and ".join(repr(m) for m in missing))
                values = {key: values[key] for key in names}
        self.__dict__.update(values)
        if post_init is not None:
            post_init(self)

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({inner})"

    def key(self: Any) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in compared])

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        import dataclasses  # only to refuse, with the error a frozen dataclass raises

        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        import dataclasses

        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    methods: dict[str, Callable[..., Any]] = {
        "__init__": __init__, "__repr__": __repr__, "__eq__": __eq__, "__hash__": __hash__,
        "__setattr__": __setattr__, "__delattr__": __delattr__}
    if spec.order:
        def order(compare: Callable[[tuple[Any, ...], tuple[Any, ...]], bool]) -> Callable[..., Any]:
            def method(self: Any, other: object) -> Any:
                if other.__class__ is self.__class__:
                    return compare(key(self), key(other))
                return NotImplemented
            return method

        methods.update(__lt__=order(tuple.__lt__), __le__=order(tuple.__le__),
                       __gt__=order(tuple.__gt__), __ge__=order(tuple.__ge__))
    return methods


def _make(cls: _C, order: bool) -> _C:
    for base in cls.__mro__[1:]:
        if "__frozen_spec__" in base.__dict__ or "__dataclass_fields__" in base.__dict__:
            raise TypeError(f"@frozen {cls.__qualname__}: a record cannot extend another record")
    annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (inspect is not imported here)
    names: list[str] = []
    defaults: dict[str, Any] = {}
    compared: list[str] = []
    for name, kind in annotations.items():
        text = kind if isinstance(kind, str) else getattr(kind, "__name__", repr(kind))
        if text.startswith(("ClassVar", "InitVar", "typing.ClassVar", "dataclasses.InitVar")):
            raise TypeError(f"@frozen {cls.__qualname__}.{name}: ClassVar and InitVar are not supported")
        value = cls.__dict__.get(name, _MISSING)
        compare = True
        if isinstance(value, Field):
            value, compare = value.default, value.compare
            if value is _MISSING:
                delattr(cls, name)
            else:
                type.__setattr__(cls, name, value)
        if value is _MISSING and defaults:
            raise TypeError(f"@frozen {cls.__qualname__}: non-default argument {name!r} follows "
                            "default argument")
        if value is not _MISSING:
            defaults[name] = value
        names.append(name)
        if compare:
            compared.append(name)
    spec = _Spec(tuple(names), defaults, tuple(compared), order)
    own = cls.__dict__
    # As dataclasses: a method the class writes itself is kept; __hash__ too, unless the class's
    # __eq__ made it None.
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    for name, method in _methods(cls, spec).items():
        if name == "__hash__" and explicit_hash:
            continue
        if name != "__hash__" and name in own:
            continue
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        type.__setattr__(cls, name, method)
    type.__setattr__(cls, "__frozen_spec__", spec)
    type.__setattr__(cls, "__match_args__", spec.names)
    for lazy in ("__dataclass_fields__", "__dataclass_params__", "__signature__"):
        type.__setattr__(cls, lazy, _Lazy(lazy))
    return cls


if TYPE_CHECKING:
    # To type checkers a record is a frozen dataclass (PEP 681).
    @dataclass_transform(frozen_default=True, field_specifiers=(field,))
    def frozen(cls: _C | None = None, *, order: bool = False) -> Any: ...
else:
    def frozen(cls=None, *, order=False):
        """``@frozen`` / ``@frozen(order=True)``: the class as a frozen dataclass (module docstring)."""
        if cls is None:
            return lambda c: _make(c, order)
        return _make(cls, order)


def replace(record: _R, **changes: Any) -> _R:
    """A copy of ``record`` with ``changes`` (as :func:`dataclasses.replace`; checked the same way,
    by the class's ``__init__`` and ``__post_init__``)."""
    values = {name: getattr(record, name) for name in type(record).__dict__["__frozen_spec__"].names}
    values.update(changes)
    return type(record)(**values)


def make_frozen(name: str, fields: Iterable[tuple[str, str]], bases: tuple[type, ...] = (),
                module: str = "") -> type:
    """A record class made at run time (as :func:`dataclasses.make_dataclass` with ``frozen=True``):
    ``fields`` are (name, annotation) pairs, none with a default."""
    pairs = list(fields)
    namespace = {"__annotations__": dict(pairs), "__module__": module or __name__, "__qualname__": name}
    return frozen(type(name, bases, namespace))  # type: ignore[no-any-return]
