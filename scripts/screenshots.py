"""Screenshots of two calculators as a reader sees them: a laptop (1280 × 800) and a phone
(390 × 844), the light and the dark palette, a control in use and the results in view.

    python scripts/screenshots.py            # builds the site, writes docs/assets/reading-*.png
    python scripts/screenshots.py --site site --out /tmp/shots

Each shot scrolls a widget's chosen control to the middle of the screen and moves it two steps
with the keyboard, as a reader would, then captures the window: the main results are in it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from find_browsers import CHROMIUM_ARGS, executable_path  # noqa: E402
from serving import StaticServer, build_site  # noqa: E402

#: (calculator, its page, the slider a reader moves)
SHOTS = [("kv-cache", "inference/kv-cache/", "concurrency"),
         ("paged-attention", "inference/paged-attention/", "length_spread")]
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SCHEMES = {"light": "light", "dark": "dark"}

READY = "(c) => { const e = document.querySelector(`.calc[data-calc='${c}']`); " \
        "const w = window.calculatorsRuntime && window.calculatorsRuntime.widgets.get(e.id); " \
        "return e.dataset.state === 'ready' && w && w.settled; }"


def shoot(base_url: str, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable_path(p), args=CHROMIUM_ARGS)
        for calc, path, control in SHOTS:
            for size, viewport in SIZES.items():
                for scheme in SCHEMES:
                    ctx = browser.new_context(viewport=viewport, color_scheme=scheme, reduced_motion="reduce")
                    page = ctx.new_page()
                    page.goto(base_url + path)
                    page.wait_for_function(READY, arg=calc, timeout=60_000)
                    slider = page.locator(f'.calc[data-calc="{calc}"] input[type=range][data-for="{control}"]')
                    slider.evaluate("(s) => s.scrollIntoView({ block: 'center' })")
                    slider.focus()
                    page.keyboard.press("ArrowRight")
                    page.keyboard.press("ArrowRight")
                    page.wait_for_function(READY, arg=calc, timeout=60_000)
                    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
                    target = out / f"reading-{calc}-{size}-{scheme}.png"
                    page.screenshot(path=str(target))
                    written.append(target)
                    ctx.close()
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site built already (default: build one now)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "assets")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="screenshots-") as tmp:
        site = args.site or Path(tmp) / "site"
        server = StaticServer(site)
        try:
            if not args.site:
                build_site(site, server.url, check=True)
            server.start()
            for path in shoot(server.url, args.out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
