"""Declarative calculator specs: the public names authors import (``from course_calculators.spec
import Calculator, Number, …``), each defined in the module of its job:

- :mod:`.params` — the parameter types :class:`Number`, :class:`Choice`, :class:`Text`, and the
  one place an input value is checked (``convert``);
- :mod:`.outputs` — :class:`Output` (a computed value and its formatter), :class:`Preset` and
  :class:`Bar` (a stacked bar over outputs of one group);
- :mod:`.charts` — :class:`Chart`, the chart schema;
- :mod:`.calculator` — :class:`Calculator` and its run pipeline, :class:`Result`, :class:`Computed`.
- :mod:`.spec_checks` — what a spec and each ``compute()`` result must satisfy.
"""

from __future__ import annotations

from .calculator import Calculator, Computed, Result
from .charts import Chart
from .outputs import NOT_COMPUTED, Bar, Output, Preset
from .params import Choice, Number, Param, SpecError, Text  # noqa: F401  (Param: the union of the three)

__all__ = [
    "SpecError",
    "Number",
    "Choice",
    "Text",
    "Computed",
    "Output",
    "Preset",
    "Bar",
    "Calculator",
    "Result",
    "Chart",
    "NOT_COMPUTED",
]
