"""Build-time integration of the calculators with MkDocs (imports markdown, mkdocs, jinja2).

Only the build imports this subpackage; it is left out of the wheel that ships to the browser.

- :mod:`.fence`   — the ``calculator`` superfences fence: Markdown → widget HTML.
- :mod:`.render`  — the widget's HTML from a Jinja2 template, default outputs computed here.
- :mod:`.plugin`  — the MkDocs plugin: registers the fence, adds runtime files, builds the wheel.
- :mod:`.wheel`   — the browser wheel and its entry in Pyodide's lock file.
- :mod:`.static`  — the browser runtime (page script, worker, styles) shipped with the plugin.
"""
