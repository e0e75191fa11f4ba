"""The neighbourhood tables (``course_calculators/plugin/neighbourhood.py``): which stops each
control gets, that every entry is exactly what ``Calculator.run`` gives for that move, the size
limit, and the build's check of the defaults, the presets and each control's stops."""

from __future__ import annotations

import dataclasses
import json
import time

import pytest

from course_calculators.params import SpecError
from course_calculators.plugin import neighbourhood as nb
from course_calculators.setting import Setting
from course_calculators.spec import Calculator, Choice, Number, Output, Preset


def _compute(p):
    if p["x"] > 7:
        return {"y": p["x"] / 0}
    return {"y": p["x"] * 2, "label": p["mode"]}


def calc(compute=_compute, presets=()):
    return Calculator(
        id="small", title="Small",
        params=(Number("x", "X", 2, 0, 10), Choice("mode", "Mode", "a", (("a", "A"), ("b", "B"), ("c", "C"))),
                Number("far", "Far", 64, 1, 4096, scale="log", advanced=True)),
        outputs=(Output("y", "Y", "count"), Output("label", "Label", "text")),
        compute=compute, presets=presets)


def safe(p):
    return {"y": p["x"] * 2 + p["far"], "label": p["mode"]}


def test_a_linear_slider_tries_every_stop_when_they_are_few_nearest_first():
    x = calc().param_map["x"]
    assert nb.candidates(x, 2, 25) == ["1", "3", "0", "4", "5", "6", "7", "8", "9", "10"]


def test_a_long_slider_is_coarsened_to_an_even_spread_and_the_two_beside_the_value():
    wide = Number("n", "N", 500, 0, 100_000)
    got = [int(v) for v in nb.candidates(wide, 500, 5)]
    assert got[:2] == [499, 501]
    assert set(got) == {499, 501, 0, 25_000, 50_000, 75_000, 100_000}


def test_a_log_slider_tries_its_positions_and_a_choice_its_options():
    c = calc()
    assert nb.candidates(c.param_map["far"], 64, 25)[:2] == ["32", "128"]
    assert len(nb.candidates(c.param_map["far"], 64, 25)) == len(c.param_map["far"].stops) - 1
    assert nb.candidates(c.param_map["mode"], "b", 25) == ["a", "c"]


def test_shown_controls_come_first_ring_by_ring_and_the_first_rings_are_always_computed():
    c = calc(safe)
    todo, first = nb.moves(c, c.defaults(), {"x", "mode"})
    assert [(m.name, m.value) for m in todo[:4]] == [("x", "1"), ("mode", "b"), ("x", "3"), ("mode", "c")]
    assert first == 4
    assert todo[-1].name == "far"


def test_every_entry_is_what_a_run_of_that_move_gives():
    c = calc(safe)
    setting = Setting.from_pairs([("x", "4")])
    result = c.run(base=setting)
    table = nb.table(c, setting, result, {"x", "mode", "far"}, runs=nb.Runs(), budget=1000)
    assert table["base"] == {"x": "4", "mode": "a", "far": "64"}
    assert len(table["entries"]) == 10 + 2 + (len(c.param_map["far"].stops) - 1)
    for entry in table["entries"]:
        name, value = entry["set"]
        run = c.run([(name, value)], base=setting)
        raw = [run.raw[o.name] for o in c.outputs]
        shown = [list(pair) for pair in table["base_out"]]
        for i, r, t in entry["out"]:
            shown[i] = [r, t]
        assert shown == [[run.raw[o.name], run.text[o.name]] for o in c.outputs], entry
        assert raw == [s[0] for s in shown]
        assert entry["changed"] == run.changed
        assert entry["pin"] == run.pin
        assert entry["in"][name] == value


def test_a_table_past_the_size_limit_loses_its_farthest_stops_first():
    c = calc(safe)
    table = nb.table(c, Setting(), c.run(), {"x", "mode", "far"}, runs=nb.Runs(), budget=1000)
    whole = nb.fitted(table)
    small = nb.fitted(table, limit=nb.gzip_size(whole) - 1)
    kept = json.loads(small)["entries"]
    assert 0 < len(kept) < len(table["entries"])
    assert kept == table["entries"][: len(kept)]  # the nearest ones
    assert nb.fitted(table, limit=10) == ""


def _charts(result):
    return [{"kind": "line", "series": [{"name": "y", "values": [result.raw["y"]] * 40}]}]


def test_a_table_carries_each_entrys_charts_when_they_fit_whole():
    c = calc(safe)
    result = c.run()
    table = nb.table(c, Setting(), result, {"x", "mode", "far"}, runs=nb.Runs(), budget=1000, charts=_charts)
    assert table["charts"] is True
    for entry in table["entries"]:
        run = c.run([tuple(entry["set"])])
        # an entry carries its charts when they differ from the rendered state's; else it draws those
        assert entry.get("charts", _charts(result)) == _charts(run), entry
    assert any("charts" not in e for e in table["entries"])  # the mode's options leave y as it is
    shipped = json.loads(nb.fitted(table))
    assert shipped["charts"] is True and shipped["entries"] == table["entries"]


def test_charts_that_do_not_fit_are_left_out_before_any_stop_is_dropped():
    c = calc(safe)
    table = nb.table(c, Setting(), c.run(), {"x", "mode", "far"}, runs=nb.Runs(), budget=1000, charts=_charts)
    bare = nb.without_charts(table)
    limit = nb.gzip_size(nb.dumps(bare))
    assert nb.gzip_size(nb.dumps(table)) > limit
    shipped = json.loads(nb.fitted(table, limit=limit))
    assert shipped["charts"] is False  # the page marks its charts not yet computed instead
    assert shipped["entries"] == bare["entries"] and all("charts" not in e for e in shipped["entries"])
    assert nb.table(c, Setting(), c.run(), {"x"}, runs=nb.Runs(), budget=0)["charts"] is False  # none asked


def test_the_check_runs_the_defaults_presets_and_stops_and_says_which_in_one_line():
    with pytest.raises(nb.CheckError) as info:
        nb.check_calculator(calc(), runs=nb.Runs())
    line = _compute.__code__.co_firstlineno + 2
    message = str(info.value)
    package = _compute.__module__.partition(".")[0]  # this test's package stands for an author's
    assert message.startswith(f"{package}/") and f"plugin/test_neighbourhood.py:{line}: " in message.split(" ")[0] + " "
    assert "calculator 'small' with x=8" in message and "ZeroDivisionError: division by zero" in message
    assert "\n" not in message and "Traceback" not in message


def test_a_preset_that_raises_is_named():
    broken = calc(presets=(Preset("high", "High", {"x": 9}),))
    with pytest.raises(nb.CheckError, match="with preset 'high'.*ZeroDivisionError"):
        nb.check_calculator(broken, runs=nb.Runs())


def test_nan_and_an_undeclared_output_are_caught_with_compute_s_line():
    def nan_at_far(p):
        return {"y": float("nan") if p["far"] > 1000 else 1, "label": "a"}

    with pytest.raises(nb.CheckError, match=r"test_neighbourhood.py:\d+: calculator 'small' with far=\d+: .*not a finite number"):
        nb.check_calculator(calc(nan_at_far), runs=nb.Runs())
    with pytest.raises(nb.CheckError, match=r"returned \['extra'\], which no output declares"):
        nb.check_calculator(calc(lambda p: {"y": 1, "label": "a", "extra": 2}), runs=nb.Runs())


def test_runs_are_shared_so_two_tables_of_one_state_agree():
    c = calc(safe)
    runs = nb.Runs()
    first = nb.table(c, Setting(), c.run(), {"x"}, runs=runs, budget=0)
    again = nb.table(c, Setting(), c.run(), {"x"}, runs=runs, budget=0)
    assert first == again
    assert len(first["entries"]) >= 2  # the first rings, whatever the budget


def test_the_budget_counts_moves_so_a_busy_machine_builds_the_same_table():
    def slow(p):  # however long a run takes, the table holds the same moves
        time.sleep(0.002)
        return safe(p)

    c, quick = calc(slow), calc(safe)
    todo, first = nb.moves(c, c.defaults(), {"x", "mode"})
    got = nb.table(c, Setting(), c.run(), {"x", "mode"}, runs=nb.Runs(), budget=3)
    assert [e["set"] for e in got["entries"]] == [[m.name, m.value] for m in todo[: first + 3]]
    assert got == nb.table(quick, Setting(), quick.run(), {"x", "mode"}, runs=nb.Runs(), budget=3)


def test_a_calculator_may_ask_for_fewer_moves_and_serve_keeps_the_first_rings(monkeypatch):
    c = dataclasses.replace(calc(safe), neighbours=2)
    todo, first = nb.moves(c, c.defaults(), {"x", "mode"})
    assert len(nb.table(c, Setting(), c.run(), {"x", "mode"}, runs=nb.Runs())["entries"]) == first + 2
    plain = calc(safe)
    assert len(nb.table(plain, Setting(), plain.run(), {"x", "mode"}, runs=nb.Runs())["entries"]) == min(
        len(todo), first + nb.BUDGET)
    monkeypatch.setattr(nb, "budget_in_force", 0)  # what the plugin sets under `mkdocs serve`
    assert len(nb.table(c, Setting(), c.run(), {"x", "mode"}, runs=nb.Runs())["entries"]) == first


def test_neighbours_must_be_a_whole_number():
    for bad in (-1, 2.5, "8", True):
        with pytest.raises(SpecError, match="neighbours must be a whole number"):
            dataclasses.replace(calc(safe), neighbours=bad)


def test_a_table_is_a_file_named_by_its_content_that_a_chapter_and_its_embed_page_share(tmp_path):
    tables = nb.Tables()
    text = nb.fitted(nb.table(calc(safe), Setting(), calc(safe).run(), {"x", "mode"}, runs=nb.Runs()))
    address = tables.add(text)
    assert address.startswith(nb.TABLES_DIR + "/") and address.endswith(".json")
    assert tables.add(text) == address  # the embed page's widget: the same file
    other = tables.add(text.replace('"v":2', '"v":2 '))
    assert other != address
    tables.write(tmp_path)
    assert json.loads((tmp_path / address).read_text(encoding="utf-8")) == json.loads(text)
    assert sorted(p.name for p in (tmp_path / nb.TABLES_DIR).iterdir()) == sorted(
        a.rsplit("/", 1)[1] for a in (address, other))


def test_the_widget_carries_its_tables_address_not_the_table(monkeypatch):
    from course_calculators import contract
    from course_calculators.plugin import render

    tables = nb.Tables()
    monkeypatch.setattr(nb, "TABLES", tables)
    c = calc(safe)
    html = render.widget(c, None, dom_id="calc-small")
    (name, text), = tables.files.items()
    assert f'{contract.NEIGHBOURHOOD_ATTR}="{nb.TABLES_DIR}/{name}"' in html
    assert json.loads(text)["base"]["x"] == "2"
    assert '"entries"' not in html


def test_a_page_preloads_the_tables_its_widgets_fetch_once_each():
    page = ('<div data-neighbourhood="assets/calc/tables/a.json"></div>'
            '<div data-neighbourhood="assets/calc/tables/b.json"></div><div data-neighbourhood="assets/calc/tables/a.json"></div>')
    tags = nb.preload_tags(page, lambda path: "../../" + path)
    assert tags.count("<link") == 2
    assert ('<link rel="preload" href="../../assets/calc/tables/a.json" as="fetch" crossorigin fetchpriority="low">'
            in tags)
    assert nb.preload_tags("<p>no widget</p>", str) == ""
