"""The browser runtime (page scripts, the worker, the style sheet): data files the plugin serves, not Python."""
