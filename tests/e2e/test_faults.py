"""Faults injected into the runtime: every one ends in a clear widget state, with the numbers kept.

Each test breaks one thing a real reader's browser can meet (a file that fails to download or
arrives damaged, a calculation that never returns) and checks what the widget says and shows.
"""

from __future__ import annotations

import pytest

from e2e_helpers import output, set_field, settle, snapshot_start, wait_ready

pytestmark = pytest.mark.e2e

KV = "inference/kv-cache/"


def boot_mode(page) -> str:
    return page.evaluate("window.calculatorsRuntime.bootMode")


def test_python_starts_from_the_build_time_snapshot(page, base_url):
    mode, why = snapshot_start(page, base_url + KV, "kv-cache")
    assert mode == "snapshot", why
    timings = page.evaluate("window.calculatorsRuntime.timings")
    assert timings["workerStarted"] <= timings["snapshotInflated"] <= timings["snapshotChecked"] <= timings["ready"]
    assert page.watch.errors == []


def test_a_blocked_snapshot_falls_back_to_a_normal_boot(page, base_url):
    page.context.route("**/snapshot-*.bin.gz", lambda route: route.abort())
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    assert boot_mode(page) == "boot"
    set_field(page, "kv-cache", "context", "131072")
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total")[1] == "16 GiB"
    assert not [e for e in page.watch.errors if "Uncaught" in e]


def test_a_damaged_snapshot_is_refused_by_its_checksum(page, base_url):
    def damaged(route):
        body = bytearray(route.fetch().body())
        body[len(body) // 2] ^= 0xFF
        route.fulfill(body=bytes(body), content_type="application/gzip")

    page.context.route("**/snapshot-*.bin.gz", damaged)
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    assert boot_mode(page) == "boot"
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")


def test_when_neither_snapshot_nor_wheel_loads_the_static_numbers_stay(page, base_url):
    page.context.route("**/snapshot-*.bin.gz", lambda route: route.abort())
    page.context.route("**/course_calculators-*.whl", lambda route: route.abort())
    page.goto(base_url + KV)
    page.wait_for_selector('.calc[data-state="error"]', timeout=60_000)
    assert "Interactive mode is unavailable" in page.text_content(".calc [data-message]")
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")
    assert not [e for e in page.watch.errors if "Uncaught" in e]


#: Prepended to the worker: a `run` with this context never returns (the worker's thread is busy),
#: as a runaway calculation would be; every other run is answered.
RUNAWAY = """self.addEventListener("message", (event) => {
  if (event.data.type === "run" && event.data.inputs.context === "65536") { for (;;) {} }
});
"""


def test_a_calculation_past_the_time_limit_replaces_the_worker(page, base_url):
    def runaway(route):
        route.fulfill(body=RUNAWAY + route.fetch().text(), content_type="text/javascript")

    page.context.route("**/assets/calc/worker.js*", runaway)
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    limit = page.evaluate("window.calculatorsRuntime.runTimeoutMs")  # the plugin's run_timeout
    assert limit == 10_000
    set_field(page, "kv-cache", "context", "65536")  # never returns: stopped after the limit
    page.wait_for_selector('.calc[data-calc="kv-cache"][data-state="error"]', timeout=limit + 30_000)
    message = page.text_content('.calc[data-calc="kv-cache"] [data-message]')
    assert "took longer than 10 s" in message and "restarted" in message
    assert page.evaluate("window.calculatorsRuntime.restarts") == 1
    # The numbers shown are still the last ones Python computed, for the old inputs' outputs.
    assert output(page, "kv-cache", "kv_bytes_per_token")[1] == "128 KiB"
    # The new worker boots and the reader's next input is computed.
    page.wait_for_function("() => window.calculatorsRuntime.ready", timeout=60_000)
    set_field(page, "kv-cache", "context", "131072")
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total")[1] == "16 GiB"
    assert not [e for e in page.watch.errors if "Uncaught" in e]
