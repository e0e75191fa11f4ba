"""Readers on slow, metered or broken networks.

- Save-Data or a slow connection (``navigator.connection``, defined here by an init script):
  Python starts when the reader first touches a widget, and no runtime file is fetched before.
- A metered connection: the offline copy is made only when the reader asks for it.
- A download that fails or stalls (the wasm, Pyodide's modules, the standard library, the wheel):
  the widget says which file, keeps its numbers, and "Try again" recovers once the network does.
  A failed or stalled snapshot is not an error: the normal boot follows.

No assertion here is about time: each failure is told by its own message (naming the file), not
by the page's last-resort boot timeout, which these tests push out of reach.
"""

from __future__ import annotations


import pytest

from e2e_helpers import connection, output, runtime_options, set_field, settle, wait_ready

pytestmark = pytest.mark.e2e

KV = "inference/kv-cache/"
KV_CALC = '.calc[data-calc="kv-cache"]'
#: What the runtime downloads (the page's own scripts and style sheets are not the runtime).
RUNTIME_FILES = ("/assets/pyodide/", "/assets/calc/worker.js")
#: The plugin's boot_timeout out of reach (600 s): each failure is told by its own message.
NO_LAST_RESORT = {"boot_timeout_ms": 600_000}


def runtime_requests(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url) if any(p in r.url for p in RUNTIME_FILES) else None)
    return urls


@pytest.mark.parametrize("fields", [dict(saveData=True, effectiveType="4g"), dict(saveData=False, effectiveType="3g")],
                         ids=["save-data", "slow-3g"])
def test_python_waits_for_the_first_touch_and_nothing_of_it_loads_before(page, base_url, fields):
    page.add_init_script(connection(**fields))
    fetched = runtime_requests(page)
    page.goto(base_url + KV, wait_until="load")
    # The runtime has bound the widget and decided that Python waits for the reader's first touch.
    page.wait_for_function("(sel) => document.querySelector(sel).textContent.includes('Python starts when you change one')",
                           arg=f"{KV_CALC} [data-status]")
    assert fetched == []
    assert page.get_attribute(KV_CALC, "data-state") == "static"
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")  # the build's numbers
    set_field(page, "kv-cache", "context", "131072")  # the first touch
    wait_ready(page, "kv-cache")
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total")[1] == "16 GiB"
    assert fetched, "the runtime loads once the reader touches a widget"
    # A connection that asks to save data gets the normal boot, the one with fewer bytes.
    assert page.evaluate("window.calculatorsRuntime.bootMode") == "boot"
    assert not [e for e in page.watch.errors if "Uncaught" in e]


def test_on_a_metered_connection_the_offline_copy_waits_for_the_reader(page, base_url):
    page.add_init_script(connection(saveData=False, effectiveType="4g", type="cellular"))
    page.clock.install()  # the page's timers, on a clock the test moves (it runs as usual meanwhile)
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    page.clock.run_for(10_000)  # past the delay after which a fast, unmetered link saves by itself
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
    control = page.locator("[data-calc-offline]")
    assert control.get_attribute("data-state") == "idle"
    assert " MB" in control.text_content()  # its size, before anything is downloaded
    control.locator("button").click()
    page.wait_for_function("() => document.querySelector('[data-calc-offline]').dataset.state === 'saved'",
                           timeout=120_000)
    assert "Saved for offline reading" in control.text_content()
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 1


BLOCKED = {
    "wasm": ["**/pyodide.asm.wasm"],
    "pyodide-modules": ["**/pyodide.asm.mjs"],
    "stdlib": ["**/stdlib-*.zip"],
    "wheel": ["**/snapshot-*.bin.gz", "**/course_calculators-*.whl"],
}
NAMED = {"wasm": "pyodide.asm.wasm", "pyodide-modules": "pyodide.asm.mjs", "stdlib": "stdlib-",
         "wheel": "course_calculators-"}


def block(context, patterns, how: str, held: list):
    def handler(route):
        if how == "stall":
            held.append(route)  # never answered: nothing arrives
        else:
            route.abort()
    for pattern in patterns:
        context.route(pattern, handler)
    return handler


def retry_recovers(page, context, patterns, handler, held):
    for pattern in patterns:
        context.unroute(pattern, handler)
    for route in held:
        try:
            route.abort()
        except Exception:  # the page may have given up on it already
            pass
    page.click(f"{KV_CALC} [data-calc-retry]")
    wait_ready(page, "kv-cache")
    set_field(page, "kv-cache", "context", "131072")
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total")[1] == "16 GiB"


# Every file refused; one stalled (the stall watch is the same for every download).
CASES = [(what, "fail") for what in BLOCKED] + [("wasm", "stall")]


@pytest.mark.parametrize("what,how", CASES, ids=[f"{w}-{h}" for w, h in CASES])
def test_a_blocked_download_is_told_with_the_numbers_kept_and_a_retry_recovers(page, context, base_url, what, how):
    held: list = []
    handler = block(context, BLOCKED[what], how, held)
    runtime_options(context, **NO_LAST_RESORT)
    page.goto(base_url + KV)
    page.wait_for_selector(f'{KV_CALC}[data-state="error"]', timeout=60_000)
    message = page.text_content(f"{KV_CALC} [data-message]")
    assert "Interactive mode is unavailable" in message and NAMED[what] in message, message
    if how == "stall":
        assert "stalled" in message
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")
    assert page.is_visible(f"{KV_CALC} [data-calc-retry]")
    retry_recovers(page, context, BLOCKED[what], handler, held)
    assert not [e for e in page.watch.errors if "Uncaught" in e]


def test_a_stalled_snapshot_gives_way_to_a_normal_boot(page, context, base_url):
    held: list = []
    block(context, ["**/snapshot-*.bin.gz"], "stall", held)
    runtime_options(context, **NO_LAST_RESORT)
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    assert page.evaluate("window.calculatorsRuntime.bootMode") == "boot"
    assert held, "the snapshot was asked for"
    for route in held:
        try:
            route.abort()
        except Exception:
            pass
