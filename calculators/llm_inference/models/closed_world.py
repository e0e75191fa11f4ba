"""Closed world: every key of a config is read, known to be harmless, or named in a refusal.

A field the derivation never looked at may change the layers, the attention or the weights (a
compression ratio per layer, a second attention geometry, a sparse pattern): a number computed
from a shape that ignored it would be confidently wrong. So the derivation reads the config
through :class:`Tracked` mappings that remember every key asked for, and :func:`check_whole`,
called once at the end of :func:`.derive.derive`, refuses any key present that was neither asked
for nor listed as harmless in :mod:`.known_keys`, naming it (and what it is, when known).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .errors import ConfigError
from .known_keys import HARMLESS, HARMLESS_SUFFIXES, NEUTRAL, UNMODELLED

#: The nested objects that hold the text model's own fields (a multimodal wrapper's): their keys are
#: checked like the top level's. A vision tower's ``vision_config`` is read by :mod:`.vision` or
#: named there as not counted, as a whole.
NESTED_TEXT = ("text_config", "language_config")
#: How many unread keys a refusal lists by name before "and N more".
_SHOWN = 6


class Tracked(Mapping):
    """A read-only view of one config object that records every key looked up (``[]``, ``get``,
    ``in``). ``where`` is its place in the config ("" at the top, "text_config." nested)."""

    def __init__(self, data: Mapping[str, Any], where: str = "") -> None:
        self.data = data
        self.where = where
        self.asked: set[str] = set()
        self.children: dict[str, Tracked] = {}

    def _value(self, key: str, value: Any) -> Any:
        # The text model's own config is read field by field too: hand out one view of it.
        if key in NESTED_TEXT and isinstance(value, Mapping):
            if key not in self.children:
                self.children[key] = Tracked(value, f"{self.where}{key}.")
            return self.children[key]
        return value

    def __getitem__(self, key: str) -> Any:
        self.asked.add(key)
        return self._value(key, self.data[key])

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return self._value(key, self.data[key]) if key in self.data else default

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.asked.add(key)
        return key in self.data

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def mark(self, *keys: str) -> None:
        """Record keys read on the side (a whole nested object handed on, for example)."""
        self.asked.update(keys)


def tracked(data: Mapping[str, Any], where: str = "") -> Tracked:
    return data if isinstance(data, Tracked) else Tracked(data, where)


def _neutral(key: str, value: Any) -> bool:
    """Whether ``value`` leaves the model as if ``key`` were absent: null, or a value listed as
    neutral for this key (``num_kv_shared_layers`` 0, ``use_sliding_window`` false...)."""
    if value is None:
        return True
    neutral = NEUTRAL.get(key)
    if neutral is None:
        return False
    return any(value == n and type(value) is type(n) for n in neutral)


#: Keys that mean nothing while another key has a neutral value: Gemma 3n/4's per-layer input
#: embeddings have a vocabulary only where they have a width.
MOOT_WHEN = {"vocab_size_per_layer_input": "hidden_size_per_layer_input"}


def unread(view: Tracked) -> list[str]:
    """The keys of ``view`` that no reading asked for and that are not known to be harmless."""
    def moot(key: str) -> bool:
        other = MOOT_WHEN.get(key)
        return other is not None and other in view.data and _neutral(other, view.data[other])

    return [key for key, value in view.data.items()
            if key not in view.asked and key not in HARMLESS and not key.endswith(HARMLESS_SUFFIXES)
            and not _neutral(key, value) and not moot(key)]


def _all(views: list[Tracked]) -> list[Tracked]:
    """The views and every nested view handed out from them."""
    out: list[Tracked] = []
    for view in views:
        if all(view is not seen for seen in out):
            out.append(view)
            out.extend(_all(list(view.children.values())))
    return out


def _describe(where: str, key: str) -> str:
    what = UNMODELLED.get(key)
    return f"{where}{key} ({what})" if what else f"{where}{key}"


def check_whole(views: list[Tracked]) -> None:
    """Raise :class:`ConfigError` naming every key of ``views`` the derivation did not read and
    does not know to be harmless. Keys with a known meaning (:data:`.known_keys.UNMODELLED`) come
    first: they are the likeliest reason."""
    found = [(view.where, key) for view in _all(views) for key in unread(view)]
    if not found:
        return
    found.sort(key=lambda wk: wk[1] not in UNMODELLED)
    named = ", ".join(_describe(where, key) for where, key in found[:_SHOWN])
    more = f" and {len(found) - _SHOWN} more" if len(found) > _SHOWN else ""
    some, they = ("fields", "they") if len(found) > 1 else ("a field", "it")
    raise ConfigError(
        f"the config has {some} this calculator does not model: {named}{more}. "
        f"{they.capitalize()} may change the layers, the attention or the weights, so no figure is computed "
        f"from a shape that ignored {'them' if len(found) > 1 else 'it'}")
