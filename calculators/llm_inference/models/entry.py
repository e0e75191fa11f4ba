"""One catalogue entry: a published config, where it was read, and the published parameter counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Source:
    """Where a config or a count was read: a repository and a file path (with the commit of the
    stored copy), or a document; ``url`` is the original it copies where one is known."""

    repo: str = ""
    path: str = ""
    commit: str = ""
    url: str = ""
    note: str = ""

    def describe(self) -> str:
        where = f"{self.repo}:{self.path}" if self.repo else self.path
        if self.commit:
            where += f" @ {self.commit[:12]}"
        return "; ".join(part for part in (where, self.url, self.note) if part)


@dataclass(frozen=True, eq=False)
class CatalogueEntry:
    """A published model.

    config: the fields of its published config.json as published (same keys and values),
        trimmed to those that matter for shapes.
    source: where that config was read.
    published_total / published_active: the publisher's parameter counts (active None for dense
        models), with ``count_source`` saying where they are published.
    active_excludes_embedding: the publisher's "active" leaves out the input embedding table (a
        row lookup, no multiply): compare it with ``active_params - embedding_params``.
    active_excludes_head: it leaves out the LM head too (MiniMax, Zhipu, Qwen3-Next's "A3B"):
        compare it with ``active_params - embedding_params - lm_head``.
    active_tolerance: a wider gap allowed for the active count alone, when the publisher gives it to
        one significant figure ("3B activated"); ``counts_note`` then says so. None: ``tolerance``.
    counts_note: what the published figure covers that the text-only shape does not (or the
        reverse), when it matters.
    tolerance: the relative gap allowed between computed and published counts (2% unless the
        published figure's own rounding is coarser; ``counts_note`` then says why).
    """

    id: str
    name: str
    config: dict[str, Any]
    source: Source
    published_total: int
    count_source: str
    published_active: int | None = None
    active_excludes_embedding: bool = False
    active_excludes_head: bool = False
    active_tolerance: float | None = None
    counts_note: str = ""
    tolerance: float = 0.02
    notes: str = ""

    @property
    def is_moe(self) -> bool:
        return self.published_active is not None
