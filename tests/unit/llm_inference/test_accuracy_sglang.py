"""The SGLang half of the Accuracy page: every public SGLang log rebuilt, each within 2 % on the
figures it prints, refusals refused, the catalogue's models run through the calculator by name."""

from __future__ import annotations

from llm_inference import accuracy, accuracy_sglang
from llm_inference.engines.sglang_logs import LOGS


def test_at_least_ten_logs_with_urls_every_one_within_tolerance():
    rows = accuracy_sglang.rows()
    assert len(rows) == len(LOGS) >= 10
    assert all(r.log.url.startswith("https://") for r in rows)
    assert [r.log.id for r in rows if not r.passes] == []


def test_catalogue_models_run_through_the_calculator_by_name():
    rows = {r.log.id: r for r in accuracy_sglang.rows()}
    for log_id in accuracy_sglang.READER_INPUTS:
        assert rows[log_id].how == "calculator" and rows[log_id].tokens is not None


def test_summary_median_and_worst_per_figure():
    summary = accuracy_sglang.summary(accuracy_sglang.rows())
    n, median, worst = summary["max_total_num_tokens"]
    assert n >= 4 and median <= worst <= 0.02
    n, median, worst = summary["K size"]
    assert n >= 9 and worst <= 0.02


def test_the_accuracy_page_shows_both_engines():
    page = accuracy.table_html()
    assert "data-accuracy-summary" in page and "data-accuracy-sglang-summary" in page
    assert page.count("<h2>SGLang</h2>") == 1
