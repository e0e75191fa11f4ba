"""The catalogue: published models by id, their shapes, and matching a pasted config to one."""

from __future__ import annotations

from functools import cache

from .data import ENTRIES
from .derive import derive
from .entry import CatalogueEntry
from .shape import ModelShape

#: Published models by id (lowercase published names, dots kept), in catalogue order.
CATALOGUE: dict[str, CatalogueEntry] = {entry.id: entry for entry in ENTRIES}
if len(CATALOGUE) != len(ENTRIES):  # a duplicated id would silently hide an entry
    raise RuntimeError("duplicate model id in llm_inference.models.data")


def get_entry(model_id: str) -> CatalogueEntry:
    """The entry with this id; KeyError naming the known ids otherwise."""
    try:
        return CATALOGUE[model_id]
    except KeyError:
        raise KeyError(f"unknown model id {model_id!r}; known ids: {', '.join(CATALOGUE)}") from None


@cache
def catalogue_shape(model_id: str) -> ModelShape:
    """The derived shape of a catalogue model (computed once)."""
    return derive(get_entry(model_id).config)


def match_catalogue_all(shape: ModelShape) -> list[str]:
    """Every catalogue id whose shape equals this one (context length and traps aside)."""
    signature = shape.signature()
    return [model_id for model_id in CATALOGUE if catalogue_shape(model_id).signature() == signature]


def match_catalogue(shape: ModelShape) -> str | None:
    """The catalogue id of a known model of this shape, or None.

    Several published models share a shape (Llama 3.1 70B and 3.3 70B, DeepSeek-V3 and R1): the
    first in catalogue order is returned; :func:`match_catalogue_all` lists them all.
    """
    matches = match_catalogue_all(shape)
    return matches[0] if matches else None
