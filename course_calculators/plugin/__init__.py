"""The MkDocs plugin: build time only (imports mkdocs, markdown, jinja2, pygments).

Never shipped to the browser: the wheel leaves this folder out. One job per module:

- :mod:`.plugin`       — the hooks, and nothing else; :mod:`.config` — the options.
- :mod:`.packages`     — the site's calculator packages: found, checked, registered;
  :mod:`.stdlib_only`  — the check: a calculator module imports the standard library only.
- :mod:`.fence`        — the ``calculator`` fence: its one parser, validator and formatter.
- :mod:`.figures`      — the inline figures of the prose (``{calc <id> <output> …}``).
- :mod:`.render`       — a widget's HTML (``templates/widget.html``), outputs computed at build
  time; :mod:`.svg` — each chart as an inline SVG, for readers without JavaScript and print.
- :mod:`.source_pages` — the "Show the Python" pages.
- :mod:`.embed`        — the standalone ``embed/<id>/`` pages.
- :mod:`.reference`    — the generated tables of the authors' pages (spec types, units, options, catalogue).
- :mod:`.assets`       — the files added to the site (runtime, Pyodide, vendor files);
  :mod:`.esbuild` — the browser scripts, bundled by esbuild (``esbuild.mjs``) from ``../browser/``;
  :mod:`.node` — the Node.js both esbuild and the snapshot run in.
- :mod:`.artifacts`    — the browser wheel and lock (:mod:`.wheel`) and the memory snapshot
  (:mod:`.snapshot`, ``snapshot.mjs``; :mod:`.stdlib` its two standard-library zips), remade
  only when their sources change.
- :mod:`.manifest`     — the runtime manifest: the meta tag pages read, the URLs offline reading needs.
- :mod:`.material`     — what is specific to mkdocs-material.
- :mod:`.security`     — the Content-Security-Policy and integrity hashes of every page.
- :mod:`.offline`      — the service worker.
"""
