"""The author's edit loop under ``mkdocs serve``: a saved calculator reaches the open page's running
worker in place (no page reload, no new boot of Python), a broken one shows its file and line in a
banner until it is fixed, and serve keeps running.

The latency is printed (and measured by ``make bench``, ``scripts/bench/edit_loop.py``), never
asserted: these machines are shared.
"""

from __future__ import annotations

from bench import edit_loop

from course_calculators import contract
from course_calculators.plugin import live


def test_a_save_reaches_the_open_page_and_a_broken_module_is_shown(browser, tmp_path):
    got = edit_loop.measure_serve_loop(browser, tmp_path, saves=2)
    print(f"\nedit loop: save → page {got['save_to_page_s']} s; broken → banner {got['broken_to_banner_s']:.2f} s;"
          f" fixed → page {got['fixed_to_page_s']:.2f} s")
    # Each save reached the same page (a marker set on its window survived) and the same worker: it
    # took each new wheel in place, and Python was never booted again.
    assert got["in_place"] == [True, True]
    assert got["runtime"]["reloads"] == 2 and got["runtime"]["restarts"] == 0
    # The banner names the author's file and the line that raised (``* SCALE / 0``).
    assert got["banner_names"] == "tiny_calcs/area.py:7"
    log = (tmp_path / "serve.log").read_text()
    assert "calculators (serve): tiny_calcs/area.py:7:" in log and "ZeroDivisionError" in log
    assert "Traceback" not in log
    # No snapshot under serve: the worker boots Python the normal way.
    assert not list(tmp_path.glob("**/snapshot-*.bin.gz"))


def test_a_build_has_nothing_of_the_serve_loop(tmp_path):
    # The in-place reload is serve's alone: no live meta tag, no poll, no state file in a build.
    edit_loop.write_tiny_site(tmp_path)
    edit_loop.write_config(tmp_path, snapshot=False)
    edit_loop.cold_build_seconds(tmp_path, "mkdocs.yml")
    site = tmp_path / "site-mkdocs"
    page = (site / "index.html").read_text()
    assert contract.RUNTIME_META in page
    assert contract.LIVE_META not in page and "livereload" not in page
    assert not (site / live.STATE_FILE).exists()
