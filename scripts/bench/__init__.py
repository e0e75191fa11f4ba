"""``make bench``: the site's load and interaction figures beside two self-hosted baselines.

``scripts/bench.py`` is the command; this package holds its parts: ``baselines`` builds a plain
main-thread Pyodide page and a PyScript page that compute the same kv-cache numbers, ``measure``
drives Chromium through Playwright against all three, ``report`` turns the runs into medians,
verdicts, a JSON file and the Markdown table of the site's Performance page, and ``machine``
describes the computer the figures come from.
"""
