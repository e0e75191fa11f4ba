"""``make bench``'s network part without a browser: the boot milestones, Lighthouse's median of
runs and the issue's targets, on made-up runs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

from bench import network  # noqa: E402
from bench.link import FAST, SLOW  # noqa: E402


def test_lighthouse_keeps_the_median_run_and_every_score():
    audits = [{"score": 91, "lcp_ms": 3000}, {"score": 97, "lcp_ms": 1800}, {"score": 95, "lcp_ms": 2000}]
    got = network.median_audit(audits)
    assert got["score"] == 95 and got["lcp_ms"] == 2000
    assert got["scores"] == [91, 97, 95]
    assert network.median_audit([{"score": None, "error": "x"}])["error"] == "x"


def test_milestones_are_medians_in_the_workers_order():
    runs = [{"timings": {"ready": 300, "workerStarted": 10}}, {"timings": {"ready": 500, "workerStarted": 30}},
            {"timings": None}]
    assert network.milestones(runs) == {"workerStarted": 20, "ready": 400}


def _net(site_fast, plain_fast, scores):
    profile = lambda s, p: {"site": {"ready_ms": s, "bytes_ready": 5}, "plain": {"ready_ms": p, "bytes_ready": 6}}
    return {"profiles": {FAST.name: profile(site_fast, plain_fast), SLOW.name: profile(1, 2)},
            "engines": {"chromium": {"ready_ms": 1000}, "webkit": {"ready_ms": 1400}},
            "lighthouse": [{"page": f"p{i}/", "mobile": {"score": s, "scores": [s, s, s]}} for i, s in enumerate(scores)]}


def test_the_targets_are_the_issues_and_read_side_by_side():
    summary = {"site": {"ready_ms": 400, "bytes_ready": 7}, "plain": {"ready_ms": 1000, "bytes_ready": 6}}
    rows = {r["target"]: r for r in network.targets(summary, _net(690, 1000, [96, 95]))}
    fast = next(r for t, r in rows.items() if t.startswith("Ready over"))
    assert "0.7 ×" in next(t for t in rows if t.startswith("Ready over")) and fast["met"]
    lighthouse = next(r for t, r in rows.items() if t.startswith("Lighthouse"))
    assert lighthouse["value"] == 95 and lighthouse["met"] and "median of 3" in next(t for t in rows if t.startswith("Lighthouse"))
    assert next(r for t, r in rows.items() if "loopback" in t)["met"] is False  # 7 vs 6 bytes
    assert next(r for t, r in rows.items() if "WebKit" in t)["met"]
    rows = {r["target"]: r for r in network.targets(summary, _net(710, 1000, [96, 94]))}
    assert not next(r for t, r in rows.items() if t.startswith("Ready over"))["met"]
    assert not next(r for t, r in rows.items() if t.startswith("Lighthouse"))["met"]


def test_the_milestones_table_shows_each_link():
    net = _net(1, 2, [])
    net["profiles"][FAST.name]["site"].update(modes=["boot"], milestones={"workerStarted": 100, "ready": 5000})
    table = network.milestones_table(net)
    header, _, path, *rows = table.splitlines()
    assert "10 Mbit/s, 40 ms" in header and path.startswith("| path | ") and "boot" in path
    assert rows[0].startswith("| workerStarted |") and "100 ms" in rows[0]
    assert rows[-1].startswith("| ready |") and "5.00 s" in rows[-1]
    assert network.milestones_table({"profiles": {}}) == "Not measured."


def test_each_engine_shows_where_its_cold_start_went():
    net = {"engines": {"chromium": {"fcp_ms": 300, "modes": ["snapshot"], "milestones": {"workerStarted": 400, "ready": 900}},
                       "firefox": {"error": "firefox: no report"},
                       "webkit": {"fcp_ms": 600, "modes": ["boot", "snapshot"], "milestones": {"wasmArrived": 1500, "ready": 2000}}}}
    table = network.engine_milestones_table(net)
    header, _, path, fcp, *rows = table.splitlines()
    assert header == "| Engine | chromium | webkit |"  # an engine without runs has no column
    assert path == "| path | snapshot | boot, snapshot |" and fcp == "| FCP | 300 ms | 600 ms |"
    assert [r.split(" | ")[0] for r in rows] == ["| workerStarted", "| wasmArrived", "| ready"]
    assert rows[1] == "| wasmArrived | — | 1.50 s |"
    assert network.engine_milestones_table({"engines": {}}) == "Not measured."


def test_the_engines_take_turns_and_one_that_fails_is_left_out(monkeypatch):
    visits = []

    def cold_ready(name, program, url, probe):
        visits.append(name)
        if name == "webkit" and visits.count("webkit") == 2:
            raise RuntimeError("webkit: no report")
        return {"readyAt": {"chromium": 1000, "firefox": 1200, "webkit": 1700}[name] + len(visits), "fcp": 300,
                "mode": "snapshot", "timings": {"ready": 900}}

    monkeypatch.setattr(network.launch, "cold_ready", cold_ready)
    engines = {"chromium": "/usr/bin/chromium", "firefox": "/usr/bin/firefox", "webkit": "/usr/bin/MiniBrowser"}
    got = network.engine_runs(engines, "http://127.0.0.1:1/", probe=None, runs=3)
    # Round after round, so that the machine's load falls on every engine alike; WebKit's failure
    # in the second round ends its visits, and what it measured before stays.
    assert visits == ["chromium", "firefox", "webkit", "chromium", "firefox", "webkit", "chromium", "firefox"]
    assert [got[n]["runs"] for n in engines] == [3, 3, 1]
    assert got["chromium"]["ready_ms"] == 1004 and got["webkit"]["ready_ms"] == 1703
    assert "error" not in got["webkit"]
    monkeypatch.setattr(network.launch, "cold_ready", lambda *a: (_ for _ in ()).throw(RuntimeError("none")))
    assert network.engine_runs({"webkit": "x"}, "u", None, 2)["webkit"]["error"] == "none"


def test_chromium_starts_like_the_other_engines_on_a_fresh_profile(tmp_path):
    from bench import launch

    cmd, env = launch._command("chromium", "/usr/bin/chromium", "http://127.0.0.1:1/p/", tmp_path)
    assert cmd[0] == "/usr/bin/chromium" and "--headless" in cmd and cmd[-1] == "http://127.0.0.1:1/p/"
    assert f"--user-data-dir={tmp_path}" in cmd and env["HOME"] == str(tmp_path)
