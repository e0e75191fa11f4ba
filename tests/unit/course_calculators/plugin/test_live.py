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
