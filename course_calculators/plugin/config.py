"""The plugin's options (``plugins: - calculators: …`` in ``mkdocs.yml``).

Each option's docstring is its documentation: the options reference on the authors' page is
generated from this class, so it cannot drift from the code.
"""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.base import ValidationError

from . import npm


class NodeModulesDir(c.Dir):
    """An existing folder, relative to ``mkdocs.yml``, where npm installed the front-end packages."""

    def run_validation(self, value: object) -> str:
        try:
            return super().run_validation(value)
        except ValidationError as exc:
            raise ValidationError(f"{exc} To install the front-end packages, {npm.advice(self.config_dir)}.") from None


class Seconds(c.Type):
    """A positive number of seconds."""

    def __init__(self, default: float) -> None:
        super().__init__((int, float), default=default)

    def run_validation(self, value: object) -> float:
        value = super().run_validation(value)
        if isinstance(value, bool) or not value > 0:
            raise ValidationError(f"Expected a positive number of seconds, got {value!r}.")
        return value


class CalculatorsConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Turn the plugin off (the fences then fail the build: leave it on wherever they are used)."""

    packages = c.ListOfItems(c.Type(str), default=[])
    """The site's calculator packages, by import name: a folder beside ``mkdocs.yml`` (with an
    ``__init__.py``) or an installed package. Only these calculators are on the site, in the wheel
    and on the embed pages."""

    node_modules = NodeModulesDir(exists=True, default="node_modules")
    """Where npm installed the front-end packages (Pyodide, Chart.js, and esbuild, which bundles the
    browser runtime at build time), relative to ``mkdocs.yml``."""

    vendor = c.ListOfItems(c.Type(str), default=[])
    """Globs under ``node_modules`` copied to ``assets/vendor/`` (for example KaTeX's files)."""

    math = c.Type(bool, default=False)
    """Typeset the pages' math at build time with KaTeX (``pymdownx.arithmatex`` with
    ``generic: true`` writes it; ``katex`` from npm typesets it in Node): the pages ship KaTeX's
    HTML and MathML, and only its stylesheet and fonts, from the site's own origin (added to the
    site), no KaTeX JavaScript. On in the site ``init`` writes; on Zensical the finish command
    typesets."""

    show_source = c.Type(bool, default=True)
    """Each widget can reveal the highlighted source of the module that computes it."""

    charts = c.Type(bool, default=True)
    """Ship Chart.js and draw the calculators' charts."""

    snapshot = c.Type(bool, default=True)
    """Make a Pyodide memory snapshot with the calculators imported (needs Node.js at build time);
    the browser restores it instead of booting Python, and boots normally if restoring fails."""

    cache_dir = c.Type(str, default="")
    """A folder, relative to ``mkdocs.yml``, where the memory snapshot is kept between builds, by
    what it is made from (the calculators' sources, Pyodide's files, the plugin's snapshot code): a
    build whose Python did not change takes it instead of booting Pyodide in Node again. Builds
    running at once share it (the second waits for the first's). Empty, the default: every build
    makes its own."""

    offline = c.Type(bool, default=True)
    """Write a service worker (``sw.js``) so that the site works offline after a first visit,
    calculators included. Not used by ``mkdocs serve``."""

    security = c.Type(bool, default=True)
    """Give every page a Content-Security-Policy meta tag (only the site's own scripts, plus
    WebAssembly) and integrity hashes on its scripts and style sheets. Not under ``mkdocs serve``."""

    boot_timeout = Seconds(default=60)
    """Seconds Python may take to start in a reader's browser (Pyodide waits forever on some
    failed downloads); past them the widgets keep their build-time numbers and offer "Try again"."""

    run_timeout = Seconds(default=10)
    """Seconds one calculation may run in the browser: Python cannot be interrupted from outside,
    so a run past them ends its worker, and a new one starts (from the snapshot)."""

    defer_search = c.Type(bool, default=True)
    """With mkdocs-material's search: start its worker (which builds the search index) when the
    reader first focuses the search box or 30 s after load, not while Python starts."""
