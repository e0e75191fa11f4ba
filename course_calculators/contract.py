"""The widget contract's names and grammars, in one place.

Calculator ids, parameter and output names, the URL keys that carry a widget's inputs, and the
names of the page elements the build steps rely on. The spec types check ids and names with these
patterns; the fence, the embed pages, the templates and the post-build steps use the same ones.
The browser reads the same grammar from ``browser/shared/contract.js`` (a test checks that the two agree).
The public interface these names make is documented on the site's "Widget contract" page.
"""

from __future__ import annotations

import re

#: The contract's version, quoted on the "Widget contract" page and in the embed ``ready`` message.
VERSION = "6"

#: A calculator or preset id: kebab-case (``loan``, ``thirty-year``).
ID_PATTERN = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"
#: A parameter or output name: snake_case (``interest_rate``).
NAME_PATTERN = r"[a-z][a-z0-9_]*"
ID = re.compile(f"^{ID_PATTERN}$")
NAME = re.compile(f"^{NAME_PATTERN}$")

#: Words that a fence line, an inline figure, a widget's URL key or a run's inputs give a meaning
#: of their own (``preset: <id>``, ``show: …``, ``pin: …``, ``?loan.pin=…``, the run input
#: ``base``): no parameter may be named so.
RESERVED_NAMES = ("preset", "show", "pin", "base", "instance")
#: The URL key (after the calculator's prefix) and the run input that carry a widget's pin.
PIN_KEY = "pin"
#: The run input that carries the setting a widget's inputs apply over (its fence's setting, in
#: query form; ``default`` for none): a run's ``changed`` is measured against it.
BASE_KEY = "base"

#: The attribute of a widget's hidden element that carries the address of its neighbourhood table
#: (a JSON file, relative to the site's root; see ``plugin/neighbourhood.py``): the answers the
#: page gives before Python is ready.
NEIGHBOURHOOD_ATTR = "data-neighbourhood"
#: The attribute an output (and the widget, a chart's figure, a pinned row, the pin label and a
#: figure in the prose that follows the widget) carries while what it shows is not the answer to the inputs shown: a move outside the
#: neighbourhood table before Python is ready, a chart the table does not carry, a pin Python has
#: not computed. The same elements carry ``aria-busy="true"``, and the page marks them visibly.
PENDING_ATTR = "data-pending"
#: The attribute an output (and the widget) carries when the run for the inputs shown raised: the
#: output shows :data:`FAILED_TEXT`, never the previous number; the message names file and line.
FAILED_ATTR = "data-failed"
#: What a failed output shows.
FAILED_TEXT = "failed"

#: The fenced-block language that makes a widget: ```` ```calculator loan ````.
FENCE_NAME = "calculator"
#: Where the standalone pages for iframes live in the built site: ``embed/<id>/``.
EMBED_DIR = "embed"
#: The name of the ``<meta>`` tag that tells a page where the runtime lives.
RUNTIME_META = "calculators-runtime"
#: Under ``mkdocs serve`` only (``plugin/live.py``): the ``<meta>`` tag that names the page, its
#: digest (what Python's new results cannot refresh) and the build's state file, and the event
#: the inlined reload script fires on ``document`` after each rebuild (cancelled by a page that
#: takes the new Python in place).
LIVE_META = "calculators-live"
LIVE_EVENT = "calculators:rebuilt"


def is_id(text: object) -> bool:
    return isinstance(text, str) and ID.match(text) is not None


def is_name(text: object) -> bool:
    return isinstance(text, str) and NAME.match(text) is not None


#: A fence's ``instance: <name>`` line names one of several widgets of a calculator on a page; its
#: URL keys are ``<calc-id>~<name>.<param>`` (``loan~second.years``), the default instance's
#: stay ``<calc-id>.<param>``. An instance name is an id (kebab-case).
INSTANCE_KEY = "instance"
INSTANCE_SEPARATOR = "~"


def url_name(calc_id: str, instance: str = "") -> str:
    """The prefix of a widget's URL keys: its calculator id, and its instance's name after ``~``."""
    return f"{calc_id}{INSTANCE_SEPARATOR}{instance}" if instance else calc_id


def url_key(calc_id: str, param: str, *, embed: bool = False, instance: str = "") -> str:
    """The query key of one input: ``loan.years`` on a chapter page (``loan~second.years``
    for the widget of the fence's ``instance: second``), ``years`` on an embed page."""
    return param if embed else f"{url_name(calc_id, instance)}.{param}"


#: The localStorage entry that keeps a reader's scenario from page to page and tab to tab:
#: ``{"values": {scenario: value}, "origins": {scenario: {"from", "path", "title"}}}``.
SCENARIO_STORE = "calculators-scenario"
#: Where a stored scenario value came from (``from``): a link, or the page it was set on.
SCENARIO_ORIGINS = ("link", "page")
#: The element of a widget that says which values are the reader's scenario, and its buttons'
#: ``data-action`` values: back to the page's own example, the scenario again, forget it.
SCENARIO_LINE_ATTR = "data-scenario-line"
SCENARIO_ACTIONS = ("scenario-example", "scenario-mine", "scenario-forget")
#: The answer sentence's element, a stacked bar's element, an output group's element.
ANSWER_ATTR = "data-answer"
BAR_ATTR = "data-bar"
GROUP_ATTR = "data-group"


def scenario_key(scenario: str) -> str:
    """The query key of a shared choice (a parameter's ``scenario``: the planet, the rate) on a
    chapter page: the scenario's own name, plain (``?world=moon``), beside the widgets'
    ``<calc>.<param>`` keys, which win. Embed pages read none."""
    return scenario


def scenario_of_key(key: str) -> str | None:
    """The scenario a chapter page's query key names, or None (a widget's ``<calc>.<param>`` key,
    or no name at all)."""
    return key if is_name(key) else None


def dom_id(calc_id: str, n: int, instance: str = "") -> str:
    """The element id of the ``n``-th widget (from 1) of a calculator on one page; a named
    instance's is ``calc-<id>--<instance>`` (no id holds ``--``, so no two can meet)."""
    if instance:
        return f"calc-{calc_id}--{instance}"
    return f"calc-{calc_id}" if n == 1 else f"calc-{calc_id}-{n}"


def embed_page(calc_id: str) -> str:
    """The embed page's file in the built site."""
    return f"{EMBED_DIR}/{calc_id}/index.html"
