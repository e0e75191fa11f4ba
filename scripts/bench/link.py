"""The bench server's network: gzip as a static host sends it, and an optional throttled link.

``Link`` stands for the reader's connection: every response waits one round trip before its
first byte (a new connection one more, for its handshake), and all responses share one bandwidth
(a token bucket), whoever asked (page, worker, service worker), in any browser. ``Gzip`` keeps
one compressed copy of each file of the types GitHub Pages compresses.
"""

from __future__ import annotations

import gzip
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: What GitHub Pages sends gzip-compressed (by suffix), when the browser accepts it.
COMPRESSED = (".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".xml", ".txt", ".map")
CHUNK = 16 * 1024


@dataclass(frozen=True)
class Profile:
    name: str
    label: str
    mbit_s: float | None  # None: no limit (loopback)
    rtt_ms: float


LOOPBACK = Profile("loopback", "loopback", None, 0)
FAST = Profile("10mbit", "10 Mbit/s, 40 ms", 10, 40)
SLOW = Profile("1.6mbit", "1.6 Mbit/s, 150 ms", 1.6, 150)


class Link:
    """The shared link of one bench run; ``profile`` may change between visits."""

    def __init__(self) -> None:
        self.profile = LOOPBACK
        self._lock = threading.Lock()
        self._free_at = 0.0  # when the bucket has sent what it was given

    def reset(self) -> None:
        """Forget what was sent (a closed visit's unfinished downloads must not slow the next)."""
        with self._lock:
            self._free_at = 0.0

    def round_trip(self, trips: int = 1) -> None:
        if self.profile.rtt_ms:
            time.sleep(trips * self.profile.rtt_ms / 1000)

    def send(self, n: int) -> None:
        """Wait until ``n`` more bytes have crossed the link."""
        if not self.profile.mbit_s:
            return
        rate = self.profile.mbit_s * 1e6 / 8
        with self._lock:
            now = time.monotonic()
            start = max(now, self._free_at)
            self._free_at = start + n / rate
            wait = self._free_at - now
        if wait > 0:
            time.sleep(wait)


class Gzip:
    """Compressed copies of files, made once per file version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, float], bytes] = {}

    def body(self, path: Path) -> bytes:
        key = (str(path), path.stat().st_mtime)
        with self._lock:
            if key not in self._cache:
                self._cache[key] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
            return self._cache[key]
