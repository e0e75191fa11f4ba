"""Each widget's neighbourhood, computed at build time by the same ``compute()``: the answers the
page gives before Python is ready in the reader's browser (or when it never starts), and the
build's check that every control's stops compute.

The neighbourhood of a widget's rendered state is one control moved at a time: every stop of
each slider (a log slider's positions; a linear slider's, coarsened to at most
:data:`SHOWN_STOPS` evenly spread ones plus the two beside the value) and every option of each
choice. The controls the widget shows first come first, nearest stops first; the rest of the
parameters (under "More parameters") follow with fewer stops, up to the widget's budget of
moves (a count, not a time: the same sources give the same tables on any machine, however busy).
The table travels as a JSON file of its own under :data:`TABLES_DIR`, named by its content
(:class:`Tables`); the widget's HTML carries its address, relative to the site's root, in a
``data-neighbourhood`` attribute. Inline, the tables were up to half of a widget page's bytes, all
of them on the way to the page's first paint; fetched beside the page they come once Python's
files are already on their way, and a chapter page and its embed page share one file.
``browser/page/neighbourhood.js`` fetches the table and looks states up in it. A table whose
gzip size passes :data:`MAX_GZIP_BYTES` loses its farthest stops first.

A table may carry each entry's charts too (the data the page's charts draw, as the HTML carries
the rendered state's): then a move the table holds redraws the charts before Python as well. It
carries them only when the table with its charts stays under :data:`MAX_GZIP_BYTES` whole (no
stop dropped for them); otherwise the charts are left out, and the page marks them as not yet
computed until Python draws them.

:func:`check_calculator` runs the same computation over each calculator's defaults and presets
before any snapshot is made: an exception, a NaN or an infinity, or an output ``compute()`` does
not declare stops the build in one line, naming the file and the line inside ``compute()``.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from mkdocs.exceptions import PluginError

from course_calculators import contract
from course_calculators.calculator import Calculator, Result
from course_calculators.failure import RunFailure, describe, function_line
from course_calculators.params import Choice, Number, Param
from course_calculators.setting import Setting

#: The table format's version, read by browser/page/neighbourhood.js.
VERSION = 2
#: A table's largest size, gzip-compressed: past it the farthest stops are dropped.
MAX_GZIP_BYTES = 30_000
#: Stops per shown slider (besides the two beside its value), and per choice.
SHOWN_STOPS = 25
#: Stops per parameter folded under "More parameters".
HIDDEN_STOPS = 5
#: Moves one table computes past its first rings (every shown control's two nearest stops are
#: always computed), unless its calculator says otherwise (``Calculator.neighbours``). A count,
#: so that a build's tables never depend on how busy its machine was.
BUDGET = 64
#: Where the build writes the tables, relative to the site's root (``assets.RUNTIME_DIR``'s own).
TABLES_DIR = "assets/calc/tables"
#: The budget in force over every calculator's own, or None: the plugin sets it (``mkdocs serve``
#: keeps only the first rings, so that a save reaches the page fast; the check still runs every
#: calculator's defaults and presets).
budget_in_force: int | None = None


class CheckError(PluginError):
    """A run of a calculator failed at build time: one line, the author's file and line first."""


@dataclass(frozen=True)
class Move:
    """One control moved from the widget's state: ``name`` set to ``value`` (its canonical text)."""

    name: str
    value: str


def _linear_positions(param: Number) -> int:
    return int(math.floor((param.max - param.min) / param.step + 1e-9))


def _linear_value(param: Number, i: int) -> float | int:
    value = param.min + i * param.step
    if param.integer:
        return int(round(value))
    decimals = max(0, -math.floor(math.log10(param.step))) + 2 if param.step < 1 else 2
    return round(min(value, param.max), decimals)


def _nearest_first(positions: Iterable[int], at: int) -> list[int]:
    return sorted(set(positions) - {at}, key=lambda i: (abs(i - at), i))


def candidates(param: Param, value: Any, limit: int) -> list[str]:
    """The values (canonical text) the neighbourhood tries for ``param`` at ``value``, nearest first."""
    if isinstance(param, Choice):
        values = param.values
        at = values.index(value) if value in values else 0
        return [values[i] for i in _nearest_first(range(len(values)), at)][:limit]
    if not isinstance(param, Number) or param.follows:
        return []  # free text has no stops, nor a number typed in a chosen unit (no slider)
    if param.stops:
        stops = param.stops
        at = param.stop_of(value)
        picked = _spread(len(stops) - 1, at, limit)
        return [param.encode(stops[i]) for i in picked]
    n = _linear_positions(param)
    at = int(round((value - param.min) / param.step))
    out = []
    for i in _spread(n, at, limit):
        v = _linear_value(param, i)
        if v != value and param.min <= v <= param.max:
            out.append(param.encode(v))
    return list(dict.fromkeys(out))


def _spread(last: int, at: int, limit: int) -> list[int]:
    """Positions 0..last, nearest to ``at`` first: all when there are few, else the two beside
    ``at`` and ``limit`` evenly spread ones."""
    if last + 1 <= limit + 1:
        return _nearest_first(range(last + 1), at)
    grid = {round(j * last / (limit - 1)) for j in range(limit)}
    grid |= {p for p in (at - 1, at + 1) if 0 <= p <= last}
    return _nearest_first(grid, at)


def moves(calc: Calculator, inputs: dict[str, Any], shown: set[str]) -> tuple[list[Move], int]:
    """Every move of the neighbourhood in the order they are computed, and how many of them make
    the first ring (each shown control's nearest stops: always computed). Shown controls first,
    ring by ring (the nearest stop of each, then the next…), then the others the same way."""
    def rings(params: Sequence[Param], limit: int) -> list[list[Move]]:
        lists = [[Move(p.name, v) for v in candidates(p, inputs[p.name], limit)] for p in params]
        depth = max((len(x) for x in lists), default=0)
        return [[x[k] for x in lists if k < len(x)] for k in range(depth)]

    front = rings([p for p in calc.params if p.name in shown], SHOWN_STOPS)
    back = rings([p for p in calc.params if p.name not in shown], HIDDEN_STOPS)
    first = sum(len(r) for r in front[:2])
    return [m for ring in (*front, *back) for m in ring], first


class Runs:
    """The build's runs, kept for the build: the check before the snapshot, the embed page and
    each page's widget share the states they have in common."""

    def __init__(self) -> None:
        self._results: dict[tuple[str, str, tuple[tuple[str, str], ...]], Result] = {}

    def clear(self) -> None:
        self._results.clear()

    def run(self, calc: Calculator, setting: Setting, pairs: tuple[tuple[str, str], ...], what: str) -> Result:
        """``calc`` run on ``pairs`` over ``setting``; a failure is a :class:`CheckError` saying
        ``what`` was run ("at the defaults", "with speed=20")."""
        key = (calc.id, setting.query(), pairs)
        if key not in self._results:
            try:
                self._results[key] = calc.run(list(pairs), base=setting)
            except Exception as exc:  # the author's mistake: said in one line, never a traceback
                raise check_error(calc, exc, what, setting) from None
        return self._results[key]


RUNS = Runs()


def check_error(calc: Calculator, exc: BaseException, what: str, setting: Setting | None = None) -> CheckError:
    failure = describe(exc, calc.module)
    where = failure.where or function_line(calc.compute)
    over = f" over the setting {setting.query()}" if setting is not None and not setting.is_default else ""
    return CheckError(f"{where}: calculator {calc.id!r} {what}{over}: {failure.what}")


def check_calculator(calc: Calculator, shown: set[str] | None = None, runs: Runs = RUNS) -> None:
    """Before any snapshot: the defaults, every preset and each control's stops around the
    defaults compute (``shown``: the controls shown first, by default those not ``advanced``; the
    embed page's table is this same computation, then read from ``runs``)."""
    result = runs.run(calc, Setting(), (), "at the defaults")
    for preset in calc.presets:
        runs.run(calc, Setting(preset.id), (), f"with preset {preset.id!r}")
    shown = {p.name for p in calc.params if not p.advanced} if shown is None else shown
    table(calc, Setting(), result, shown, runs=runs)


def _diff(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in new.items() if old.get(k) != v}


def _budget(calc: Calculator, given: int | None) -> int:
    for budget in (given, budget_in_force, calc.neighbours):
        if budget is not None:
            return budget
    return BUDGET


def table(calc: Calculator, setting: Setting, result: Result, shown: set[str], *, runs: Runs = RUNS,
          budget: int | None = None,
          charts: Callable[[Result], list[Any]] | None = None) -> dict[str, Any]:
    """The neighbourhood table of a widget rendered at ``setting`` (whose run gave ``result``),
    computed ``budget`` moves past its first rings (None: the budget in force, else the
    calculator's own, else :data:`BUDGET`).
    ``charts(result)``: the chart data the page draws for a result (the HTML's own form of
    ``result.charts``); given, each entry whose charts differ from the rendered state's carries
    them (:func:`fitted` keeps them only when they fit)."""
    params = calc.param_map
    encoded = {n: params[n].encode(v) for n, v in result.inputs.items()}
    names = [o.name for o in calc.outputs]
    base_charts = charts(result) if charts else None
    entries = []
    todo, first = moves(calc, result.inputs, shown)
    for move in todo[: first + _budget(calc, budget)]:
        got = runs.run(calc, setting, ((move.name, move.value),), f"with {move.name}={move.value}")
        got_inputs = {n: params[n].encode(v) for n, v in got.inputs.items()}
        drawn = charts(got) if charts else None
        entries.append({
            "set": [move.name, move.value],
            "in": _diff(got_inputs, encoded),
            "out": [[j, got.raw[n], got.text[n]] for j, n in enumerate(names)
                    if (got.raw[n], got.text[n]) != (result.raw[n], result.text[n])],
            "notes": " ".join(got.notes),
            "changed": got.changed,
            "pin": got.pin,  # what the Pin button pins at this state
            "slider": _diff(got.slider, result.slider),
            "text": _diff(got.inputs_text, result.inputs_text),
            # The answer sentence and the bars (Python's shares), when the move changes them.
            **({"answer": got.answer} if got.answer != result.answer else {}),
            **({"bars": got.bars} if got.bars != result.bars else {}),
            # What the shared parameters carry (a model turned custom hands its shape over).
            **({"scenario": _diff(got.scenario, result.scenario)} if got.scenario != result.scenario else {}),
            **({"charts": drawn} if charts and drawn != base_charts else {}),
        })
    return {
        "v": VERSION,
        "numbers": [p.name for p in calc.params if isinstance(p, Number)],
        "base": encoded,
        "outputs": names,
        "base_out": [[result.raw[n], result.text[n]] for n in names],
        "base_notes": " ".join(result.notes),
        "base_changed": result.changed,
        "base_pin": result.pin,
        "base_slider": result.slider,
        "base_text": result.inputs_text,
        "base_answer": result.answer,
        "base_bars": result.bars,
        "base_scenario": result.scenario,
        # Whether the entries carry their charts (an entry without them draws the rendered state's).
        "charts": charts is not None,
        "entries": entries,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), allow_nan=False, ensure_ascii=False)


def gzip_size(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def without_charts(data: dict[str, Any]) -> dict[str, Any]:
    """The table without its entries' charts: the page marks the charts not yet computed instead."""
    return {**data, "charts": False, "entries": [{k: v for k, v in e.items() if k != "charts"} for e in data["entries"]]}


def fitted(data: dict[str, Any], limit: int = MAX_GZIP_BYTES) -> str:
    """The table as the HTML carries it, under ``limit`` bytes gzip: with its charts if the whole
    table fits with them; else without them, its farthest stops dropped (a fifth at a time) until
    it fits; with no entries left, no table (an empty string)."""
    if data.get("charts"):
        text = dumps(data)
        if gzip_size(text) <= limit:
            return text
        data = without_charts(data)
    entries = data["entries"]
    while True:
        text = dumps({**data, "entries": entries})
        if gzip_size(text) <= limit:
            return text
        if not entries:
            return ""
        entries = entries[: len(entries) * 4 // 5]


#: A widget's table address in the page's HTML.
_ADDRESS = re.compile(rf'\b{contract.NEIGHBOURHOOD_ATTR}="([^"]+)"')


def preload_tags(page_html: str, relative: Callable[[str], str]) -> str:
    """``<link rel=preload>`` tags for the tables the page's widgets fetch (``relative`` makes a
    site path relative to the page): their download starts while the page is parsed, at low
    priority, so that a stop moved the moment a widget binds finds its table there even on a slow
    link. ``as=fetch`` with ``crossorigin`` is the request the runtime's ``fetch()`` makes."""
    addresses = dict.fromkeys(html.unescape(m) for m in _ADDRESS.findall(page_html))
    return "".join(f'\n<link rel="preload" href="{html.escape(relative(a), quote=True)}" as="fetch" '
                   'crossorigin fetchpriority="low">' for a in addresses)


class Tables:
    """The tables the build's widgets refer to, by file name, until the build writes them. A
    file is named by its content: a chapter page and its embed page share one, and a browser may
    keep it as long as it likes (another table gets another name)."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}

    def add(self, text: str) -> str:
        """The address (relative to the site's root) the widget's HTML gives for table ``text``."""
        name = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20] + ".json"
        self.files[name] = text
        return f"{TABLES_DIR}/{name}"

    def write(self, site_dir: Path) -> None:
        folder = site_dir / TABLES_DIR
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in self.files.items():
            (folder / name).write_text(text, encoding="utf-8")

    def clear(self) -> None:
        self.files.clear()


TABLES = Tables()
