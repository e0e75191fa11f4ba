"""Security: the Content-Security-Policy holds on every page, and tampered files are refused."""

from __future__ import annotations

import pytest

from e2e_helpers import output, wait_ready

pytestmark = pytest.mark.e2e

KV = "inference/kv-cache/"
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def site_pages(site_dir):
    pages = []
    for html in sorted(site_dir.rglob("index.html")):
        rel = html.parent.relative_to(site_dir).as_posix()
        pages.append("" if rel == "." else rel + "/")
    return pages


def test_every_page_works_under_its_policy_with_no_violation(context, base_url, site_dir):
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    pages = site_pages(site_dir)
    assert len(pages) >= 9
    for path in pages:
        page.goto(base_url + path)
        csp = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
        assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "unsafe-inline'" not in csp.split("style-src")[0]
        if page.locator(".calc").count():
            wait_ready(page)
        # Every script and style sheet of the site carries its integrity hash.
        missing = page.evaluate("""() => [...document.querySelectorAll('script[src], link[rel=stylesheet]')]
            .filter((e) => !e.integrity).map((e) => e.src || e.href)""")
        assert missing == [], (path, missing)
        assert page.evaluate("window.__violations") == [], path
    assert errors == []


def test_an_injected_inline_handler_does_not_run(context, base_url):
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    page.evaluate("""() => document.body.insertAdjacentHTML('beforeend',
        '<img src="data:," onerror="window.__pwned = 1"><script>window.__pwned = 2<\\/script>')""")
    page.wait_for_function("() => window.__violations.length > 0")
    assert page.evaluate("window.__pwned") is None
    assert any("script-src" in v for v in page.evaluate("window.__violations"))


def test_a_tampered_runtime_file_is_refused_and_the_numbers_stay(page, base_url):
    def tampered(route):
        body = route.fetch().text() + "\nwindow.__tampered = true;"
        route.fulfill(body=body, content_type="text/javascript")

    page.context.route("**/assets/calc/runtime.js*", tampered)
    with page.expect_console_message(lambda m: m.type == "error" and "integrity" in m.text):
        page.goto(base_url + KV)
    page.wait_for_load_state("load")
    assert page.evaluate("window.__tampered") is None
    assert page.evaluate("typeof window.calculatorsRuntime") == "undefined"  # nothing of it ran
    assert page.get_attribute(".calc", "data-state") == "static"
    assert "computed at build time" in page.text_content(".calc [data-status]")
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")


def test_a_lock_file_from_another_version_is_refused(page, base_url):
    def other_version(route):
        route.fulfill(body=route.fetch().text().replace('"llm_inference"', '"llm_inference" ', 1),
                      content_type="application/json")

    page.context.route("**/pyodide-lock.json*", other_version)
    page.goto(base_url + KV)
    page.wait_for_selector('.calc[data-state="error"]', timeout=60_000)
    assert "lock file does not match" in page.text_content(".calc [data-message]")
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")


def test_instant_navigation_through_the_chapter_stays_within_the_policy(context, base_url):
    """After instant navigation the first page's policy governs the next page's scripts."""
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(base_url)
    page.evaluate("window.__marker_reloads = null")
    links = page.eval_on_selector_all(
        "nav.md-nav--primary a.md-nav__link[href]",
        "els => els.map((e) => [e.getAttribute('href'), e.href]).filter(([, url]) => url.includes('/inference/'))")
    chapter = list(dict(links).items())
    assert len(chapter) >= 8
    for attr, url in chapter:
        title = page.title()
        page.click(f'nav.md-nav--primary a.md-nav__link[href="{attr}"]')
        # Without the query: a page whose fence differs from the calculator's defaults writes its
        # inputs to the address as soon as its first result arrives, which may come first.
        page.wait_for_url(lambda u, url=url: u.split("#")[0].split("?")[0] == url)
        page.wait_for_function("(t) => document.title !== t", arg=title)  # the new content is in
        if page.locator(".calc").count():
            wait_ready(page)
    assert page.evaluate("window.__marker_reloads") is None  # never reloaded: instant navigation
    assert page.evaluate("window.__violations") == []
    assert errors == []
