"""CSP and integrity rewriting of built pages, on small HTML samples."""

from __future__ import annotations

import base64
import hashlib

from course_calculators.plugin import security

PAGE = """<!doctype html><html><head>
<meta charset="utf-8">
<link rel="stylesheet" href="../assets/a.css">
<script>var inline = 1;</script>
<script type="application/json" data-charts>{"x": 1}</script>
<script src="../assets/b.js"></script>
<script src="https://elsewhere.example/c.js"></script>
</head><body></body></html>"""


def build(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets/a.css").write_text("body{}")
    (tmp_path / "assets/b.js").write_text("console.log(1)")
    (tmp_path / "page").mkdir()
    page = tmp_path / "page/index.html"
    page.write_text(PAGE)
    assert security.harden_site(tmp_path) == 1
    return page.read_text()


def test_policy_allows_exactly_the_inline_scripts_that_run(tmp_path):
    html = build(tmp_path)
    digest = base64.b64encode(hashlib.sha256(b"var inline = 1;").digest()).decode()
    csp = html.split('http-equiv="Content-Security-Policy" content="')[1].split('"')[0]
    script_src = [d for d in csp.split("; ") if d.startswith("script-src")][0]
    assert script_src == f"script-src 'self' 'wasm-unsafe-eval' 'sha256-{digest}'"  # not the JSON block
    assert "object-src 'none'" in csp and "base-uri 'self'" in csp
    # The policy comes right after the charset, before anything it governs.
    assert html.index("Content-Security-Policy") < html.index("<link")


def test_local_files_get_integrity_and_foreign_ones_are_left_alone(tmp_path):
    html = build(tmp_path)
    css_v = hashlib.sha256(b"body{}").hexdigest()[:10]
    js_v = hashlib.sha256(b"console.log(1)").hexdigest()[:10]
    assert f'href="../assets/a.css?v={css_v}" integrity="{security.sri(b"body{}")}"' in html
    assert f'src="../assets/b.js?v={js_v}" integrity="{security.sri(b"console.log(1)")}"' in html
    assert '<script src="https://elsewhere.example/c.js"></script>' in html


def test_a_page_is_hardened_once(tmp_path):
    build(tmp_path)
    assert security.harden_site(tmp_path) == 0
