"""Model shapes derived from published config.json files: a catalogue and the derivation.

Pure description, stdlib only (it runs at build time and in Pyodide)::

    from llm_inference.models import CATALOGUE, catalogue_shape, parse_config, match_catalogue

    shape = catalogue_shape("deepseek-v3")
    shape.kv_bytes_per_token(2)      # 70272.0: 61 layers x (512 + 64) x 2 bytes, no factor 2
    shape.traps                      # why the obvious fields would have misled

    pasted = parse_config(text)      # ConfigError with a one-line message if it cannot be read
    match_catalogue(pasted)          # "llama-3.1-8b", or None
"""

from __future__ import annotations

from .catalogue import (
    CATALOGUE,
    catalogue_shape,
    get_entry,
    match_catalogue,
    match_catalogue_all,
)
from .derive import derive
from .entry import CatalogueEntry, Source
from .errors import ConfigError
from .parse import parse_config
from .shape import CHUNKED, FULL, SLIDING, ModelShape

__all__ = [
    "CATALOGUE", "CHUNKED", "FULL", "SLIDING", "CatalogueEntry", "ConfigError", "ModelShape", "Source",
    "catalogue_shape", "derive", "get_entry", "match_catalogue", "match_catalogue_all", "parse_config",
]
