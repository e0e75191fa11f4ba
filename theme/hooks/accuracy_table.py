"""This site's Accuracy page: the ``accuracy-table`` block of docs/accuracy.md becomes the tables
that llm_inference.accuracy computes at build time (the startup logs rebuilt by the kv-cache
calculator). The data and the generator are the book's; this hook only puts them on the page."""

from __future__ import annotations

import re

BLOCK = re.compile(r"^```accuracy-table\s*\n```\s*$", re.M)


def on_page_markdown(markdown: str, *, page, config, files) -> str:
    if not BLOCK.search(markdown):
        return markdown
    from llm_inference import accuracy

    return BLOCK.sub(lambda _m: accuracy.table_html(), markdown)
