"""parse_config(text): a config.json a reader pastes, read into a ModelShape or one clear error."""

from __future__ import annotations

import json

from .derive import derive
from .errors import ConfigError
from .shape import ModelShape

_KINDS = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true or false"}

#: The longest config read. Published configs reach 3.1 million characters (nvidia/MiniMax-M3-NVFP4's
#: config.json, 3,087,083: its quantization config names every quantized layer, collected in
#: ai-dynamo/aiconfigurator's model_configs/); the bound leaves room for such a config with its
#: hf_quant_config.json pasted beside it, and keeps a runaway paste out of the reader's browser.
MAX_CONFIG_CHARS = 8_000_000


def _constant(name: str) -> float:
    # Python writes float('inf') as Infinity: published configs hold it (Nemotron-H's
    # "time_step_limit": [0.0, Infinity]). It reads as a float; a shape field refuses it by name.
    return float(name)


def parse_config(text: str) -> ModelShape:
    """Read JSON text and derive its shape.

    Raises :class:`ConfigError` (and nothing else) with a one-line message: where the JSON is
    malformed (line and column), that it is not an object, or which field is missing or wrong and
    what that field means.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(f"the config is not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise ConfigError(f"the config must be JSON text, got {type(text).__name__}")
    if not text.strip():
        raise ConfigError("the config is empty: paste the contents of a config.json")
    if len(text) > MAX_CONFIG_CHARS:
        # Read whole or not at all: a cut config would be misread as invalid JSON, or worse, not.
        raise ConfigError(f"the config is longer than {MAX_CONFIG_CHARS:,} characters, the most this calculator "
                          f"reads (published config.json files reach about 3.1 million); nothing of it is read")
    try:
        data = json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except ValueError as exc:
        raise ConfigError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise ConfigError("not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        kind = "null" if data is None else _KINDS.get(type(data), type(data).__name__)
        raise ConfigError(f"the config must be a JSON object ({{...}} of fields), got {kind}")
    try:
        return derive(data)
    except ConfigError:
        raise
    except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as exc:
        # A config shaped in a way the reader's checks did not foresee: still one clear line.
        raise ConfigError(f"this config cannot be read as a model ({type(exc).__name__}: {exc})") from None
