"""Per-layer module names written by rule: a checkpoint's long exclude lists and ModelOpt's
``quantized_layers`` mappings, as compact as a comprehension and equal to the published ones name
for name (tests/unit/llm_inference/models/test_models_2026.py compares them with the files)."""

from __future__ import annotations

from itertools import product
from typing import Any, Iterable


def names(template: str, *indices: Iterable[int]) -> list[str]:
    """``template`` with each ``{}`` filled from its index list, every combination in order:
    ``names("model.layers.{}.self_attn*", range(3))`` gives layers 0, 1 and 2."""
    return [template.format(*combo) for combo in product(*(list(i) for i in indices))]


def as_layers(template: str, info: dict[str, Any], *indices: Iterable[int]) -> dict[str, dict[str, Any]]:
    """A ``quantized_layers`` part: each name of :func:`names` mapped to its own copy of ``info``."""
    return {name: dict(info) for name in names(template, *indices)}
