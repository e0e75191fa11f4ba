"""Model shapes derived from published config.json files.

Pure description, stdlib only (it runs at build time and in Pyodide)::

    from calculators.models import derive, parse_config

    shape = parse_config(text)       # ConfigError with a one-line message if it cannot be read
    shape.kv_bytes_per_token(2)      # bytes per token in bf16, every layer, windows ignored
    shape.traps                      # why the obvious fields would have misled
"""

from __future__ import annotations

from .derive import derive
from .errors import ConfigError
from .parse import parse_config
from .shape import CHUNKED, FULL, SLIDING, ModelShape

__all__ = ["CHUNKED", "FULL", "SLIDING", "ConfigError", "ModelShape", "derive", "parse_config"]
