"""``mkdocs serve``'s edit loop (plugin/live.py): a problem named by the author's file and line,
shown in every page, the theme's templates compiled once."""

from __future__ import annotations

import jinja2

from course_calculators.plugin import live


def raise_from(folder, name="calc.py", body="def compute():\n    return 1 / 0\n"):
    path = folder / name
    path.write_text(body)
    code = compile(path.read_text(), str(path), "exec")
    scope: dict = {}
    exec(code, scope)
    try:
        scope["compute"]()
    except ZeroDivisionError as exc:
        try:
            raise RuntimeError("calculator 'x' failed to render: ZeroDivisionError") from exc
        except RuntimeError as wrapped:
            return wrapped


def test_the_line_named_is_the_authors_innermost_frame(tmp_path):
    pkg = tmp_path / "my_calcs"
    pkg.mkdir()
    exc = raise_from(pkg)
    assert live.where(exc, [pkg]) == "my_calcs/calc.py:2"
    assert live.where(exc, [tmp_path / "elsewhere"]) == ""


def test_a_syntax_error_names_its_own_line(tmp_path):
    pkg = tmp_path / "my_calcs"
    pkg.mkdir()
    (pkg / "bad.py").write_text("x = 1\ny = (\n")
    try:
        compile((pkg / "bad.py").read_text(), str(pkg / "bad.py"), "exec")
    except SyntaxError as exc:
        assert live.where(exc, [pkg]).startswith("my_calcs/bad.py:")


def test_every_page_shows_the_problems_until_the_next_build_has_none(tmp_path, capsys):
    pkg = tmp_path / "my_calcs"
    pkg.mkdir()
    errors = live.LiveErrors()
    errors.reset([pkg])
    line = errors.add(raise_from(pkg))
    assert line.startswith("my_calcs/calc.py:2: calculator 'x' failed")
    assert "calculators (serve): my_calcs/calc.py:2:" in capsys.readouterr().err
    page = errors.insert_banner("<html><body class='x'><p>text</p></body></html>")
    assert page.index(live.BANNER_ATTR) > page.index("<body") and 'data-calc-live-error="my_calcs/calc.py:2"' in page
    assert "a &lt;b&gt;" in live.LiveErrors.placeholder("a <b>")
    errors.reset([pkg])
    assert errors.insert_banner("<body></body>") == "<body></body>"


def test_the_theme_templates_are_compiled_once_for_all_rebuilds():
    cache = live.TemplateBytecode()
    loader = jinja2.DictLoader({"t.html": "{{ 1 + 1 }}"})
    compiled = []
    for _ in range(2):
        env = jinja2.Environment(loader=loader, bytecode_cache=cache)
        original = env.compile
        env.compile = lambda *a, **k: compiled.append(1) or original(*a, **k)
        assert env.get_template("t.html").render() == "2"
    assert len(compiled) == 1


class Observer:
    _timeout = 0.5


class Server:
    def __init__(self):
        self.observer = Observer()
        self.seen = []

    def watch(self, path):
        self.seen.append((path, self.observer._timeout))


def test_the_packages_are_polled_often_and_mkdocs_own_watches_are_left_alone():
    server = Server()
    with live.polled_often(server):
        server.watch("my_calcs")
    server.watch("docs")
    assert server.seen == [("my_calcs", live.WATCH_INTERVAL), ("docs", 0.5)]


def test_serve_rebuilds_soon_after_a_save_and_another_server_is_left_alone():
    server = Server()
    server.build_delay = 0.1
    live.rebuild_soon(server)
    assert server.build_delay == live.BUILD_DELAY
    other = Server()
    live.rebuild_soon(other)
    assert not hasattr(other, "build_delay")


# -- a save that changed only the Python reaches the open page's worker ----------------------------

import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

import mkdocs.livereload  # noqa: E402

from course_calculators import contract  # noqa: E402
from course_calculators.spec import Calculator, Number, Output  # noqa: E402


def area_calc(label="Width", factor=2):
    def compute(inputs):  # a save that edits the formula: the same function, another body
        return {"area": inputs["width"] * factor}
    return Calculator(id="area", title="Area", compute=compute,
                      params=(Number("width", label, 3, 1, 100, unit="m"),),
                      outputs=(Output("area", "Area", "count", primary=True),))


def test_a_widget_token_holds_its_spec_shape_not_its_compute():
    same = live.widget_token(area_calc(), "body", "calc-area")
    assert live.widget_token(area_calc(factor=3), "body", "calc-area") == same  # a new formula: same shape
    assert live.widget_token(area_calc(), "body", "calc-area") == same  # another import of the same module
    assert live.widget_token(area_calc(label="Breadth"), "body", "calc-area") != same  # what the widget shows
    assert live.widget_token(area_calc(), "width: 4", "calc-area") != same  # the fence's setting
    assert re.fullmatch(r"<!--calc-widget [0-9a-f]{64}-->", same)


def test_a_page_digest_ignores_its_widgets_numbers_but_not_the_rest_of_the_page():
    def page(number, prose="Prose"):
        widget = f'<div class="calc"><output>{number}</output></div>'
        return f"<body><p>{prose}</p>{widget}</body>", [(widget, "<!--calc-widget t-->")]
    first = live.page_digest(*page(12), [])
    assert live.page_digest(*page(24), []) == first  # a new result: the worker shows it
    assert live.page_digest(*page(24, "Other prose"), []) != first  # the Markdown changed
    assert live.page_digest(*page(12), ["tiny/area.py:7: ZeroDivisionError"]) != first  # the banner
    html, _ = page(24)
    assert live.page_digest(html, [("<div>not on the page</div>", "t")], []) != first  # not found: numbers count


def test_the_state_file_names_the_lock_and_each_pages_digest(tmp_path):
    path = live.write_state(tmp_path, "assets/pyodide/pyodide-lock.json?v=ab", "ab" * 32, {"": "d1", "x/": "d2"})
    assert path == tmp_path / live.STATE_FILE
    assert json.loads(path.read_text()) == {"lock": "assets/pyodide/pyodide-lock.json?v=ab", "lock_sha256": "ab" * 32,
                                            "pages": {"": "d1", "x/": "d2"}}


def test_the_head_tags_carry_the_meta_and_the_poll_called_with_the_event():
    tags = live.head_tags("x/", "d1", "../assets/calc/live.json")
    meta = re.search(r'<meta name="([^"]+)" content="([^"]+)">', tags)
    assert meta.group(1) == contract.LIVE_META
    assert json.loads(meta.group(2).replace("&quot;", '"')) == {"state": "../assets/calc/live.json", "page": "x/",
                                                                "digest": "d1"}
    assert tags.endswith(f'(window, "{contract.LIVE_EVENT}");</script>')


def test_mkdocs_injects_the_script_the_poll_stands_in_for():
    # The poll (plugin/livereload-poll.js) takes MkDocs' place by the name its script declares and
    # calls, and polls the same address; an MkDocs that changed them fails here, not in a page.
    script = mkdocs.livereload._SCRIPT_TEMPLATE_STR
    assert "var livereload = function(epoch, requestId) {" in script
    assert "livereload(${epoch}, ${request_id});" in script
    assert 'req.open("GET", "/livereload/" + epoch + "/" + requestId);' in script
    assert 'req.open("GET", "/livereload/" + epoch + "/" + requestId);' in live.POLL_SCRIPT.read_text()


# -- the stops a build checks, checked by serve after the rebuild --------------------------------------

import threading  # noqa: E402

from course_calculators.plugin import neighbourhood  # noqa: E402
from course_calculators.spec import Calculator, Number, Output  # noqa: E402


def _fails_far_out(p):
    if p["x"] >= 90:  # a stop far from the default: serve's first rings never reach it
        raise ValueError("x too large")
    return {"y": p["x"]}


FAR = Calculator(id="fails-far", title="Fails far", params=(Number("x", "X", 1, 0, 100, step=1),),
                 outputs=(Output("y", "Y", "count"),), compute=_fails_far_out)


class FakeServer:
    """The two attributes of MkDocs' live-reload server that a changed file sets."""

    def __init__(self):
        self._rebuild_cond = threading.Condition()
        self._want_rebuild = False


def test_serves_first_rings_miss_the_stop_the_build_refuses():
    saved = neighbourhood.budget_in_force
    neighbourhood.budget_in_force = 0  # serve's budget: only the nearest stops
    try:
        neighbourhood.check_calculator(FAR, {"x"}, runs=neighbourhood.Runs())  # passes
    finally:
        neighbourhood.budget_in_force = saved
    try:
        live.check_stops(FAR, frozenset({"x"}))
    except neighbourhood.CheckError as exc:
        assert "x too large" in str(exc) and "fails-far" in str(exc)
    else:
        raise AssertionError("the build's check of the stops passed a stop that raises")


def test_serve_refuses_a_raising_stop_after_the_rebuild_and_asks_for_another(capsys):
    check = live.StopCheck()
    server = FakeServer()
    check.attach(server)
    check.add(FAR, {"x"})
    check.start("sources-1")
    check.wait(30)
    problems = check.problems("sources-1")
    assert len(problems) == 1 and "x too large" in str(problems[0])
    assert server._want_rebuild  # the next build shows it in the banner
    assert "x too large" in capsys.readouterr().err
    assert check.problems("sources-2") == []  # other sources: not checked yet
    server._want_rebuild = False
    check.add(FAR, {"x"})
    check.start("sources-1")  # the rebuild it asked for: the same sources are not checked again
    assert check._thread is None and not server._want_rebuild


def test_a_failure_found_before_the_server_exists_asks_once_it_does():
    check = live.StopCheck()
    check.add(FAR, {"x"})
    check.start("s")
    check.wait(30)
    server = FakeServer()
    check.attach(server)  # on_serve comes after the first build
    assert server._want_rebuild


def test_a_new_build_cancels_the_check_under_way():
    started = threading.Event()
    check = live.StopCheck()

    def slow(p):
        if p["x"] != 1:  # a stop, not the defaults: runs until the new build cancels the check
            started.set()
            check._cancelled.wait(5)
        return {"y": p["x"]}

    calc = Calculator(id="slow", title="Slow", params=(Number("x", "X", 1, 0, 100, step=1),),
                      outputs=(Output("y", "Y", "count"),), compute=slow)
    check.add(calc, {"x"})
    check.start("s")
    assert started.wait(5)
    check.cancel()  # returns once the run under way ends; the check is not taken as done
    assert check._thread is None and check.problems("s") == [] and check._checked != "s"


def test_a_passing_check_asks_for_nothing():
    ok = Calculator(id="fine", title="Fine", params=(Number("x", "X", 1, 0, 10, step=1),),
                    outputs=(Output("y", "Y", "count"),), compute=lambda p: {"y": p["x"]})
    check = live.StopCheck()
    server = FakeServer()
    check.attach(server)
    check.add(ok, {"x"})
    check.start("s")
    check.wait(30)
    assert check.problems("s") == [] and not server._want_rebuild


def test_a_build_that_never_finished_leaves_nothing_to_check():
    check = live.StopCheck()
    check.add(FAR, {"x"})  # a build that failed after its check of the pages
    check.cancel()  # the next build starts
    check.start("s")
    check.wait(30)
    assert check.problems("s") == []
