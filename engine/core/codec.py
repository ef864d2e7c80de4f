"""Plain-data codec for engine values: dataclass trees <-> JSON-ready dicts and lists.

States, moves and results are dataclass trees built from ``int``, ``str``, ``bool``, ``float``,
``None``, enums, ``list``, ``tuple``, ``dict`` (string or integer keys) and other dataclasses.
``to_plain`` turns them into JSON-ready values; ``from_plain`` rebuilds them from the type hints.
Integer dictionary keys become strings in JSON and are turned back by the hints.

``from_plain`` first runs a decoder made once per type (:func:`_decoder`): the hints read and
the branches chosen when it is made, and no path to the value built as it goes. Data it
refuses is decoded again by :func:`_decode`, which accepts and refuses exactly the same data
and words the refusal with the path to the value (``value.hands[2]: expected an integer``).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

T = TypeVar("T")
Decoder = Callable[[Any], Any]


def to_plain(value: Any) -> Any:
    """A JSON-ready copy of ``value`` (dataclasses become dicts, tuples become lists)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in _fields(type(value))}
    if isinstance(value, enum.Enum):
        return to_plain(value.value)
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    if isinstance(value, dict):
        return {_plain_key(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(to_plain(item) for item in value)
    raise TypeError(f"cannot turn {type(value).__name__} into plain data")


def _plain_key(key: Any) -> str:
    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise TypeError(f"dictionary keys must be str or int, not {type(key).__name__}")
    return str(key)


@functools.cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_plain(tp: type[T] | Any, data: Any) -> T:
    """Rebuild a value of type ``tp`` from plain data made by :func:`to_plain`."""
    try:
        return cast(T, _decoder(cast(Hashable, tp))(data))
    except Exception:  # refused: decoded again by _decode, which words the refusal
        return cast(T, _decode(tp, data, "value"))


# -- the decoders made once per type: :func:`_decode`'s rules, without the paths ---------------


@functools.cache
def _decoder(tp: Any) -> Decoder:
    """A function that decodes plain data of type ``tp`` as :func:`_decode` does (the same
    values, the same data refused), raising without a message when it refuses."""
    if tp is Any:
        return _identity
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return _union_decoder(typing.get_args(tp))
    if origin is typing.Literal:
        return _literal_decoder(typing.get_args(tp))
    if origin in (list, tuple, dict, set, frozenset):
        return _container_decoder(origin, typing.get_args(tp))
    if isinstance(tp, type):
        return _class_decoder(tp)
    return _unsupported


def _identity(data: Any) -> Any:
    return data


def _unsupported(data: Any) -> Any:
    raise TypeError


def _union_decoder(args: tuple[Any, ...]) -> Decoder:
    optional = type(None) in args
    arms = [_decoder(arg) for arg in args if arg is not type(None)]

    def decode(data: Any) -> Any:
        if data is None and optional:
            return None
        for arm in arms:
            try:
                return arm(data)
            except (TypeError, ValueError):
                continue
        raise ValueError

    return decode


def _literal_decoder(args: tuple[Any, ...]) -> Decoder:
    def decode(data: Any) -> Any:
        if data not in args:
            raise ValueError
        return data

    return decode


def _container_decoder(origin: Any, args: tuple[Any, ...]) -> Decoder:
    if origin is dict:
        return _dict_decoder(*(args or (Any, Any)))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _sequence_decoder(tuple, _decoder(args[0]))
    if origin is tuple:
        return _fixed_tuple_decoder([_decoder(arg) for arg in args])
    return _sequence_decoder(origin, _decoder(args[0] if args else Any))


def _dict_decoder(key_tp: Any, value_tp: Any) -> Decoder:
    key = _int_key if key_tp is int else _decoder(key_tp)
    value = _decoder(value_tp)

    def decode(data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError
        return {key(k): value(v) for k, v in data.items()}

    return decode


def _int_key(key: Any) -> int:
    return int(key)


def _sequence_decoder(origin: Any, item: Decoder) -> Decoder:
    def decode(data: Any) -> Any:
        if not isinstance(data, list):
            raise ValueError
        items = [item(value) for value in data]
        return items if origin is list else origin(items)

    return decode


def _fixed_tuple_decoder(items: list[Decoder]) -> Decoder:
    def decode(data: Any) -> Any:
        if not isinstance(data, list) or len(data) != len(items):
            raise ValueError
        return tuple(item(value) for item, value in zip(items, data, strict=True))

    return decode


def _class_decoder(tp: type) -> Decoder:
    if dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if issubclass(tp, enum.Enum):
        return tp
    return _PLAIN_DECODERS.get(tp, _unsupported)


def _dataclass_decoder(tp: type) -> Decoder:
    hints = _hints(tp)
    # The fields' decoders are found at the first decode, not now: a dataclass that holds one
    # of its own kind then finds its decoder made, rather than making it again without end.
    fields: tuple[tuple[str, Decoder], ...] | None = None

    def decode(data: Any) -> Any:
        nonlocal fields
        if not isinstance(data, dict):
            raise ValueError
        if fields is None:
            fields = tuple((f.name, _decoder(hints[f.name])) for f in _fields(tp))
        return tp(**{name: field(data[name]) for name, field in fields if name in data})

    return decode


def _bool(data: Any) -> Any:
    if not isinstance(data, bool):
        raise ValueError
    return data


def _int(data: Any) -> Any:
    if type(data) is int:
        return data
    if isinstance(data, bool) or not isinstance(data, int):
        raise ValueError
    return data


def _float(data: Any) -> Any:
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise ValueError
    return float(data)


def _str(data: Any) -> Any:
    if not isinstance(data, str):
        raise ValueError
    return data


def _none(data: Any) -> Any:
    if data is not None:
        raise ValueError
    return None


_PLAIN_DECODERS: dict[type, Decoder] = {
    bool: _bool, int: _int, float: _float, str: _str, type(None): _none,
}  # fmt: skip


def _decode(tp: Any, data: Any, where: str) -> Any:
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return _decode_union(tp, data, where)
    if origin is typing.Literal:
        if data not in typing.get_args(tp):
            raise ValueError(f"{where}: {data!r} is not one of {typing.get_args(tp)}")
        return data
    if origin in (list, tuple, dict, set, frozenset):
        return _decode_container(tp, origin, data, where)
    if isinstance(tp, type):
        return _decode_class(tp, data, where)
    raise TypeError(f"{where}: unsupported type {tp!r}")


def _decode_union(tp: Any, data: Any, where: str) -> Any:
    args = typing.get_args(tp)
    if data is None and type(None) in args:
        return None
    errors = []
    for arg in args:
        if arg is type(None):
            continue
        try:
            return _decode(arg, data, where)
        except (TypeError, ValueError) as exc:
            errors.append(str(exc))
    raise ValueError(f"{where}: {data!r} matches none of {tp}: {'; '.join(errors)}")


def _decode_container(tp: Any, origin: Any, data: Any, where: str) -> Any:
    args = typing.get_args(tp)
    if origin is dict:
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
        key_tp, value_tp = args or (Any, Any)
        return {
            _decode_key(key_tp, key, where): _decode(value_tp, value, f"{where}.{key}")
            for key, value in data.items()
        }
    if not isinstance(data, list):
        raise ValueError(f"{where}: expected a list, got {type(data).__name__}")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise ValueError(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(
            _decode(a, item, f"{where}[{i}]")
            for i, (a, item) in enumerate(zip(args, data, strict=True))
        )
    item_tp = args[0] if args else Any
    items = [_decode(item_tp, item, f"{where}[{i}]") for i, item in enumerate(data)]
    return origin(items) if origin is not list else items


def _decode_key(tp: Any, key: str, where: str) -> Any:
    if tp is int:
        try:
            return int(key)
        except ValueError:
            raise ValueError(f"{where}: key {key!r} is not an integer") from None
    return _decode(tp, key, where)


def _decode_class(tp: type, data: Any, where: str) -> Any:
    if dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object for {tp.__name__}")
        hints = _hints(tp)
        kwargs = {
            f.name: _decode(hints[f.name], data[f.name], f"{where}.{f.name}")
            for f in _fields(tp)
            if f.name in data
        }
        return tp(**kwargs)
    if issubclass(tp, enum.Enum):
        return tp(data)
    if tp is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{where}: expected true or false, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"{where}: expected an integer, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise ValueError(f"{where}: expected a number, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise ValueError(f"{where}: expected a string, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise ValueError(f"{where}: expected null, got {data!r}")
        return None
    raise TypeError(f"{where}: unsupported type {tp.__name__}")
