"""Interactive calculators for course chapters: stdlib-only Python, run at build time and in Pyodide.

Each module listed in :data:`MODULES` defines ``SPEC``, a :class:`calculators.spec.Calculator`.
The registry maps calculator ids to specs; :func:`run_json` is the browser worker's entry point.
Nothing here imports outside the standard library (``_site/``, the MkDocs integration, is the one
exception, and is left out of the wheel shipped to the browser).
"""

from __future__ import annotations

import importlib
import json
from typing import Any, Mapping

from .spec import Calculator, SpecError

__version__ = "0.1.0"

#: The modules that hold one calculator each, in the order the catalogue lists them.
MODULES = (
    "kv_cache",
    "decode_roofline",
    "unit_economics",
    "paged_attention",
    "speculative_decoding",
    "sampling",
)


def _load() -> dict[str, Calculator]:
    registry: dict[str, Calculator] = {}
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        spec = getattr(module, "SPEC", None)
        if not isinstance(spec, Calculator):
            raise SpecError(f"calculators/{name}.py defines no SPEC = Calculator(...)")
        if spec.id in registry:
            raise SpecError(f"calculators/{name}.py: calculator id {spec.id!r} is defined twice")
        registry[spec.id] = spec
    return registry


CALCULATORS: dict[str, Calculator] = _load()


def get(calc_id: str) -> Calculator:
    """The calculator with this id, or :class:`SpecError` naming the ids that exist."""
    try:
        return CALCULATORS[calc_id]
    except KeyError:
        known = ", ".join(sorted(CALCULATORS))
        raise SpecError(f"unknown calculator id {calc_id!r}; known ids: {known}") from None


def run(calc_id: str, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Run one calculator on raw inputs and return the plain-data result."""
    return get(calc_id).run(raw or {}).to_dict()


def run_json(calc_id: str, raw_json: str) -> str:
    """The worker's entry point: JSON in, JSON out (strings cross the JS/Python boundary cheaply)."""
    raw = json.loads(raw_json)
    if not isinstance(raw, dict):
        raw = {}
    return json.dumps(run(calc_id, raw), allow_nan=False)
