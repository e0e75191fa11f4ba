"""The neighbourhood tables in ``make bench``: each widget's table size in the built site (raw
and gzip, against the 30 KB limit of ``course_calculators/plugin/neighbourhood.py``), and the
first touch before Python: over each throttled link, with Python's .wasm refused, how long after
navigation the widget can answer, and how long one slider stop takes to show the build's answer.
"""

from __future__ import annotations

import gzip
import html
import json
import re
from pathlib import Path

#: A widget's root (its DOM id) and, after it, its table's address (relative to the site's root).
_WIDGET = re.compile(r'<div class="calc" id="([^"]+)" data-calc="([^"]+)"')
_TABLE = re.compile(r'data-neighbourhood="([^"]*)"')
LIMIT = 30_000

#: In the page: move the context slider one stop up and time until the first output changes.
FIRST_TOUCH_JS = """async ([calc]) => {
  const root = document.querySelector(`.calc[data-calc="${calc}"]`);
  const slider = root.querySelector('input[type=range][data-for="context"]');
  const out = root.querySelector('output[data-output="kv_bytes_total"]');
  const before = out.textContent;
  const bound = performance.now();
  const changed = new Promise((resolve) => {
    new MutationObserver(() => { if (out.textContent !== before) resolve(performance.now()); })
      .observe(out, { childList: true, characterData: true, subtree: true });
  });
  const start = performance.now();
  slider.value = String(Number(slider.value) + 1);
  slider.dispatchEvent(new Event("input", { bubbles: true }));
  const done = await Promise.race([changed, new Promise((r) => setTimeout(() => r(null), 5000))]);
  return { bound_ms: bound, answer_ms: done === null ? null : done - start,
           pending: out.hasAttribute("data-pending") };
}"""


def sizes(site: Path) -> list[dict]:
    """Every widget's table in the built site, page by page: entries, raw and gzip bytes (a table
two pages share, a chapter's widget and its embed page, is listed under each)."""
    rows = []
    for page in sorted(site.rglob("index.html")):
        text = page.read_text(encoding="utf-8")
        widgets = list(_WIDGET.finditer(text))
        for i, m in enumerate(widgets):
            end = widgets[i + 1].start() if i + 1 < len(widgets) else len(text)
            found = _TABLE.search(text, m.end(), end)
            raw = (site / html.unescape(found.group(1))).read_text(encoding="utf-8") if found else ""
            data = json.loads(raw) if raw else {"entries": []}
            rows.append({"page": page.parent.relative_to(site).as_posix() + "/", "widget": m.group(1),
                         "calc": m.group(2), "entries": len(data["entries"]), "bytes": len(raw.encode()),
                         "gzip": len(gzip.compress(raw.encode(), 9, mtime=0)) if raw else 0})
    return rows


def first_touch(new_context, url: str, calc: str = "kv-cache") -> dict:
    """A cold visit with the .wasm refused: when the widget is bound (ms after navigation) and how
    long a slider stop then takes to show the table's answer."""
    context = new_context()
    try:
        context.route("**/*.wasm*", lambda route: route.abort())
        page = context.new_page()
        page.goto(url, wait_until="commit")
        page.wait_for_selector(f'.calc[data-calc="{calc}"][data-bound]', timeout=120_000)
        return page.evaluate(FIRST_TOUCH_JS, [calc])
    finally:
        context.close()


def markdown(rows: list[dict], touch: dict[str, dict]) -> str:
    lines = ["**Numbers before Python** (each widget's neighbourhood table, a file fetched as the widget binds; limit "
             f"{LIMIT // 1000} KB gzip):", "",
             "| Page | Widget | Entries | Raw | Gzip |", "|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| `{r['page']}` | `{r['widget']}` | {r['entries']} | {r['bytes'] / 1000:.1f} KB | "
                     f"{r['gzip'] / 1000:.1f} KB |")
    if touch:
        lines += ["", "First touch before Python (kv-cache, the .wasm refused): the widget bound after, and one "
                  "slider stop answered in:", "", "| Link | Bound after | Answer |", "|---|---:|---:|"]
        for label, t in touch.items():
            answer = "—" if t.get("answer_ms") is None else f"{t['answer_ms']:.1f} ms"
            lines.append(f"| {label} | {t['bound_ms'] / 1000:.2f} s | {answer} |")
    return "\n".join(lines)
