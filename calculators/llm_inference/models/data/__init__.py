"""The catalogue's data, one module per publisher (and one for the quantized releases); every entry
cites where it was read."""

from __future__ import annotations

from . import (deepseek, gemma, llama, logged, minimax, mistral, moonshot, nvidia, openai, phi, quantized, qwen, xiaomi,
               zai)

#: Every entry, in catalogue order (by publisher, then size).
ENTRIES = (
    *llama.ENTRIES, *mistral.ENTRIES, *qwen.ENTRIES, *gemma.ENTRIES, *deepseek.ENTRIES, *deepseek.V4_ENTRIES,
    *phi.ENTRIES, *openai.ENTRIES, *moonshot.ENTRIES, *zai.ENTRIES, *minimax.ENTRIES, *xiaomi.ENTRIES,
    *nvidia.ENTRIES,
    *quantized.ENTRIES, *logged.ENTRIES,
)
