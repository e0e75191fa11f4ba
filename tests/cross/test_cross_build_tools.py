"""Both books, built by each build tool (``tests/build_tools.py``: MkDocs 1.6.1 and ProperDocs with
the plugin, Zensical with the Markdown extension and the finish command), in Firefox and WebKit:
the widget boots, shows its build-time numbers, computes a reader's edit as CPython does, the
page's math is typeset, and no console error."""

from __future__ import annotations

import pytest

import build_tools
from browsers.console_probe import probe_hook
from serving import StaticServer
from widget_contract import initial_inputs, root, set_input, wait_outputs, wait_ready

pytestmark = pytest.mark.cross

ROOT = build_tools.ROOT
#: book: (its folder, its packages, a page, its calculator, an input and a value that changes it)
BOOKS = {
    "chapter": (ROOT, ["llm_inference"], "inference/kv-cache/", "kv-cache", ("context", 131072)),
    "everyday-physics": (ROOT / "examples" / "everyday-physics", ["everyday_physics"], "kettle/", "kettle",
                         ("litres", 1.5)),
}


def _spec(book: str, calc: str):
    if book == "chapter":
        import course_calculators

        return course_calculators.get(calc)
    from everyday_physics import kettle

    return kettle.SPEC


@pytest.fixture(scope="module", params=[(b, t) for b in BOOKS for t in build_tools.TOOLS], ids=lambda p: "-".join(p))
def built(request, tmp_path_factory):
    book, tool = request.param
    folder, packages, *_ = BOOKS[book]
    work = tmp_path_factory.mktemp(f"{book}-{tool}")
    if book == "chapter":  # the site at the root: its docs, theme and mkdocs.yml
        site = work / "book"
        site.mkdir()
        for name in ("docs", "theme", "mkdocs.yml"):
            (build_tools.shutil.copytree if name != "mkdocs.yml" else build_tools.shutil.copy)(folder / name, site / name)
        text = (site / "mkdocs.yml").read_text().replace("  - calculators:\n",
                                                         f"  - calculators:\n      node_modules: {ROOT / 'node_modules'}\n", 1)
        (site / "mkdocs.yml").write_text(text)
    else:
        site = build_tools.copy_book(folder, work / "book", packages)
    out = work / "out"
    server = StaticServer(out)
    server.hooks.append(probe_hook)
    cache = tmp_path_factory.getbasetemp() / "snapshot-cache"
    build_tools.build(tool, site, out, SITE_URL=server.url, CALCULATORS_CACHE_DIR=str(cache))
    server.start()
    yield book, tool, out, server
    server.stop()


def test_each_book_on_each_tool_computes_in_firefox_and_webkit(engine, built):
    book, tool, out, server = built
    _, _, page, calc, (name, value) = BOOKS[book]
    session = engine.new_session()
    try:
        if session.engine == "webkit":
            session.watch_console(server.url)
        session.goto(server.url + page)
        wait_ready(session, calc)
        spec = _spec(book, calc)
        start = initial_inputs(session, calc)

        def want(inputs):
            result = spec.run(inputs)
            return {k: (result.raw[k], result.text[k]) for k in result.raw}

        wait_outputs(session, calc, want(start))
        set_input(session, calc, name, value)
        wait_outputs(session, calc, want({**start, name: value}))
        if book == "chapter":  # the chapter's math, typeset at build time
            assert session.evaluate("() => document.querySelectorAll('.arithmatex .katex').length") > 0, tool
        assert session.evaluate("(sel) => document.querySelectorAll(sel).length", root(calc)) >= 1
        assert session.console_errors() == [], f"{tool}: {session.console_errors()}"
    finally:
        session.close()
