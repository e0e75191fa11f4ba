"""The one exception a reader's config can raise."""

from __future__ import annotations


class ConfigError(ValueError):
    """A config that cannot be read as a model: the message is one line, says what is wrong and where."""
