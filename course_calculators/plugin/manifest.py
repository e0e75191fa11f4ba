"""The runtime manifest: where a page finds the worker, Pyodide, the lock file, the snapshot.

It is made once per build and written into every page as ``<meta name="calculators-runtime">``
(JSON, its URLs relative to the page), which ``browser/shared/runtime-meta.js`` reads (for
``boot.js`` and ``runtime.js``, which both import it). The offline step takes the
same object to learn which versioned URLs pages fetch.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from mkdocs.utils import get_relative_url

from course_calculators import contract

#: The page's first paint waits for the first widget (``<link rel=expect blocking=render>``,
#: Chromium 124+; other browsers ignore it): the first paint then shows its numbers.
_EXPECT = '<link rel="expect" href="#{id}" blocking="render">'
#: Stands for the offline copy's size in every page until offline.py knows it.
OFFLINE_BYTES = "__CALC_OFFLINE_BYTES__"


@dataclass(frozen=True)
class RuntimeManifest:
    """Site paths (relative to the site root) and checksums of the runtime's files."""

    boot: str
    worker: str  # carries ?v=<content hash>
    pyodide: str  # the folder of Pyodide's core files, ending in "/"
    lock: str  # boot.js adds ?v=<version>
    lock_sha256: str
    version: str
    charts: str = ""  # Chart.js, with ?v=; empty when charts are off
    charts_integrity: str = ""
    snapshot: str = ""
    snapshot_sha256: str = ""
    sw: str = ""  # the service worker, when offline reading is on
    stdlib: str = ""  # the standard-library zip mounted beside the snapshot
    boot_stdlib: str = ""  # a normal boot's standard-library zip ("": Pyodide's whole one)

    def for_page(self, here: str) -> dict[str, str]:
        """The meta tag's JSON for the page at ``here`` (a site-relative URL)."""
        def rel(path: str) -> str:
            return get_relative_url(path, here) if path else ""

        return {
            "root": get_relative_url("./", here),
            "worker": rel(self.worker), "pyodide": rel(self.pyodide), "lock": rel(self.lock),
            "charts": rel(self.charts), "chartsIntegrity": self.charts_integrity,
            "lockSha256": self.lock_sha256, "snapshot": rel(self.snapshot),
            "snapshotSha256": self.snapshot_sha256, "sw": rel(self.sw), "version": self.version,
            "stdlib": rel(self.stdlib), "bootStdlib": rel(self.boot_stdlib),
            # The offline copy's size is known only once every page is written: offline.py fills it in.
            "offlineBytes": OFFLINE_BYTES if self.sw else "",
        }

    def head_tags(self, here: str, *, has_widgets: bool, first_widget: str = "") -> str:
        """The meta tag and the boot script (which starts the worker while the page still loads,
        on a page that holds a widget), and the render-blocking hint for the first widget."""
        meta = html.escape(json.dumps(self.for_page(here)), quote=True)
        boot = html.escape(get_relative_url(self.boot, here), quote=True)
        start = " data-start" if has_widgets else ""
        tags = (f'<meta name="{contract.RUNTIME_META}" content="{meta}">\n'
                f'<script src="{boot}"{start}></script>')
        if first_widget:
            tags += "\n" + _EXPECT.format(id=html.escape(first_widget, quote=True))
        return tags

    def versioned_urls(self) -> dict[str, str]:
        """Site paths that pages fetch with a ``?v=`` query, mapped to that exact URL."""
        found = {}
        for url in (self.worker, self.charts):
            if "?v=" in url:
                found[url.split("?", 1)[0]] = url
        found[self.lock] = f"{self.lock}?v={self.version}"
        return found
