"""``make bench`` without a browser: the report's statistics, verdicts, table and JSON on made-up
runs, the Performance page's markers, and the baseline pages' templates (so the script can't rot
between benchmark runs)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

from bench import baselines, report  # noqa: E402


def fake_run(ready, *, fcp=100.0, value=None, nav=None, latency=(1.0, 2.0, 3.0), longtask=0.0, size=1000):
    run = {"fcp_ms": fcp, "first_value_ms": value if value is not None else fcp, "ready_ms": ready, "bytes_ready": size // 2,
           "warm_ready_ms": ready / 2, "latency_ms": list(latency), "longtask_ms": longtask,
           "blocking_ms": 0.0, "bytes": size, "requests": 10, "external": []}
    if nav is not None:
        run["nav_ms"] = nav
    return run


@pytest.fixture
def runs():
    return {
        "site": [fake_run(r, nav=40.0, latency=range(1, 201)) for r in (800.0, 900.0, 1000.0)],
        "plain": [fake_run(r, value=r) for r in (2500.0, 3000.0, 3500.0)],
        "pyscript": [fake_run(r, value=r) for r in (3200.0, 3300.0, 3400.0)],
    }


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert report.percentile(values, 50) == 50
    assert report.percentile(values, 95) == 95
    assert report.percentile(list(reversed(values)), 95) == 95
    assert report.percentile([7.0], 95) == 7.0
    assert report.percentile([], 50) is None


def test_summary_takes_medians_and_per_run_percentiles(runs):
    summary = report.summarize(runs)
    site, plain = summary["site"], summary["plain"]
    assert site["ready_ms"] == 900.0
    assert site["warm_ready_ms"] == 450.0
    assert site["first_value_fcp_ratio"] == 1.0
    assert site["latency_p50_ms"] == 100 and site["latency_p95_ms"] == 190
    assert site["nav_ms"] == 40.0
    assert plain["nav_ms"] is None
    assert plain["first_value_fcp_ratio"] == 30.0


def test_verdicts(runs):
    rows = {r["target"]: r for r in report.verdicts(report.summarize(runs))}
    assert len(rows) == 7
    ready = next(r for t, r in rows.items() if t.startswith("Ready on a cold load ≤ 1.0"))
    assert ready["met"] is True and ready["shown"] == "900 ms"
    vs_plain = next(r for t, r in rows.items() if "plain Pyodide" in t)
    assert vs_plain["value"] == pytest.approx(0.3) and vs_plain["met"] is True
    p95 = next(r for t, r in rows.items() if "p95" in t)
    assert p95["met"] is False
    size = next(r for t, r in rows.items() if t.startswith("Bytes"))
    assert size["met"] is None


def test_verdicts_without_baseline():
    rows = report.verdicts(report.summarize({"site": [fake_run(500.0)]}))
    vs_plain = next(r for r in rows if "plain Pyodide" in r["target"])
    assert vs_plain["met"] is None and vs_plain["shown"] == "—"


def test_markdown_block(runs):
    summary = report.summarize(runs)
    machine = {"date": "2030-01-01 00:00 UTC", "cpu": "Test CPU", "cores": 2, "chromium": "1.2.3"}
    block = report.markdown(summary, report.verdicts(summary), machine, {"runs": 3, "steps": 200},
                            "performance/latest.json")
    assert "| Metric (median of runs) | This site | Plain Pyodide | PyScript |" in block
    assert "| Ready after instant navigation | 40 ms | n/a | n/a |" in block
    assert "| Ready, cold cache | 900 ms | 3.00 s | 3.30 s |" in block
    assert "✅ met" in block and "❌ not met" in block
    assert "Test CPU, 2 cores" in block and "[latest.json](performance/latest.json)" in block
    for line in block.splitlines():
        if line.startswith("|"):
            assert line.endswith("|")


def test_replace_block_keeps_the_rest_of_the_page():
    page = f"intro\n\n{report.START}\nold\n{report.END}\n\noutro\n"
    once = report.replace_block(page, "new table")
    assert once == f"intro\n\n{report.START}\nnew table\n{report.END}\n\noutro\n"
    assert report.replace_block(once, "new table") == once
    with pytest.raises(ValueError):
        report.replace_block("no markers", "x")


def test_the_performance_page_has_its_markers():
    text = (ROOT / "docs" / "performance.md").read_text()
    assert text.count(report.START) == 1 and text.count(report.END) == 1


def test_json_document_round_trips(runs):
    doc = json.loads(report.dumps(report.document(runs, {"date": "d"}, {"runs": 3, "steps": 200})))
    assert set(doc) == {"config", "machine", "summary", "targets", "runs"}
    assert doc["summary"]["site"]["ready_ms"] == 900.0
    assert len(doc["runs"]["plain"]) == 3
    assert all(set(t) == {"target", "value", "limit", "met"} for t in doc["targets"])


def test_baseline_pages_are_complete():
    for name in baselines.PAGES:
        html = baselines.page(name)
        assert "__" not in html
        assert 'data-calc="kv-cache"' in html and 'name="context"' in html
    assert 'from "./pyodide/pyodide.mjs"' in baselines.page("plain")
    config = baselines.pyscript_config(["llm_inference/__init__.py"])
    assert config == {"interpreter": "./pyodide/pyodide.mjs",
                      "files": {"./src/llm_inference/__init__.py": "./llm_inference/__init__.py"}}


def test_command_line_defaults():
    spec = importlib.util.spec_from_file_location("bench_cli", ROOT / "scripts" / "bench.py")
    cli = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cli)
    args = cli.parse_args([])
    # Three rounds keep the whole run (throttled links, engines, Lighthouse) within about 15 minutes.
    assert (args.runs, args.steps, args.no_write) == (3, 200, False)
    assert (args.slow_runs, args.engine_runs, args.no_lighthouse) == (1, 3, False)


def test_json_keeps_number_arrays_on_one_line():
    doc = {"latency_ms": [1.5, 2.0], "longtasks": [[10, 60], [200, 75]], "note": "a [1  2] b", "empty": []}
    text = report.dumps(doc)
    assert json.loads(text) == doc
    assert '"latency_ms": [1.5, 2.0]' in text and '"longtasks": [[10, 60], [200, 75]]' in text
