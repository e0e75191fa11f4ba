"""The runtime manifest: where a page finds the worker, Pyodide, the lock file, the snapshot.

It is made once per build and written into every page as ``<meta name="calculators-runtime">``
(JSON, its URLs relative to the page), which ``browser/shared/runtime-manifest.js`` reads, under
the field names of :class:`RuntimeManifest`: the browser renames nothing, and the worker's
``init`` message carries the fields it needs under the same names (``browser/shared/protocol.js``).
The offline step takes the same object to learn which versioned URLs pages fetch.
"""

from __future__ import annotations

import dataclasses
import html
import json
from dataclasses import dataclass

from mkdocs.utils import get_relative_url

from course_calculators import contract

#: The page's first paint waits for an element (``<link rel=expect blocking=render>``, Chromium
#: 124+; other browsers ignore it): a chapter's first widget, whose numbers the first paint then
#: shows, or an embed page's foot, after its widget.
_EXPECT = '<link rel="expect" href="#{id}" blocking="render">'
#: Stands for the offline copy's size in every page until offline.py knows it.
OFFLINE_BYTES = "__CALC_OFFLINE_BYTES__"


@dataclass(frozen=True)
class RuntimeManifest:
    """Site paths (relative to the site root) and checksums of the runtime's files, and the
    runtime's options; each field is a key of the meta tag's JSON, under its own name."""

    script: str  # the page script (runtime.js); security.py adds its ?v=<hash> and integrity
    worker: str  # carries ?v=<content hash>
    pyodide: str  # the folder of Pyodide's core files, ending in "/"
    lock: str  # the meta tag gives it with ?v=<version>
    lock_sha256: str
    version: str
    boot_timeout_ms: int  # the plugin's boot_timeout
    run_timeout_ms: int  # the plugin's run_timeout
    charts: str = ""  # Chart.js, with ?v=; empty when charts are off
    charts_integrity: str = ""
    snapshot: str = ""
    snapshot_sha256: str = ""
    sw: str = ""  # the service worker, when offline reading is on
    stdlib: str = ""  # the standard-library zip mounted beside the snapshot
    boot_stdlib: str = ""  # a normal boot's standard-library zip ("": Pyodide's whole one)

    #: The fields that are site paths (made relative to each page).
    PATHS = ("worker", "pyodide", "lock", "charts", "snapshot", "sw", "stdlib", "boot_stdlib")

    def for_page(self, here: str) -> dict[str, str | int]:
        """The meta tag's JSON for the page at ``here`` (a site-relative URL): every field but
        ``script``, the site's ``root`` and ``offline_bytes``."""
        def rel(path: str) -> str:
            return get_relative_url(path, here) if path else ""

        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "script"}
        for name in self.PATHS:
            fields[name] = rel(fields[name])
        fields["lock"] = f"{fields['lock']}?v={self.version}"
        return {
            "root": get_relative_url("./", here), **fields,
            # The offline copy's size is known only once every page is written: offline.py fills it in.
            "offline_bytes": OFFLINE_BYTES if self.sw else "",
        }

    def head_tags(self, here: str, *, paint_after: str = "") -> str:
        """The meta tag and the page script (deferred: it downloads while the page parses, and
        starts the worker after the first render), and the render-blocking hint for the element with
        DOM id ``paint_after``."""
        meta = html.escape(json.dumps(self.for_page(here)), quote=True)
        script = html.escape(get_relative_url(self.script, here), quote=True)
        tags = (f'<meta name="{contract.RUNTIME_META}" content="{meta}">\n'
                f'<script src="{script}" defer></script>')
        if paint_after:
            tags += "\n" + _EXPECT.format(id=html.escape(paint_after, quote=True))
        return tags

    def versioned_urls(self) -> dict[str, str]:
        """Site paths that pages fetch with a ``?v=`` query, mapped to that exact URL."""
        found = {}
        for url in (self.worker, self.charts):
            if "?v=" in url:
                found[url.split("?", 1)[0]] = url
        found[self.lock] = f"{self.lock}?v={self.version}"
        return found
