"""The catalogue's data, one module per publisher; every entry cites where it was read."""

from __future__ import annotations

from . import deepseek, gemma, llama, logged, mistral, openai, phi, qwen

#: Every entry, in catalogue order (by publisher, then size).
ENTRIES = (
    *llama.ENTRIES, *mistral.ENTRIES, *qwen.ENTRIES, *gemma.ENTRIES, *deepseek.ENTRIES,
    *phi.ENTRIES, *openai.ENTRIES, *logged.ENTRIES,
)
