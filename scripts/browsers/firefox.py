"""Firefox, driven by Puppeteer over WebDriver BiDi from Python through a small Node process
(``firefox_bridge.mjs``: one JSON request and one reply per line). One Firefox per
:class:`Firefox`; each :class:`FirefoxSession` is a browser context of its own (a fresh profile).

The offline switch is BiDi's own network emulation where the Firefox knows it (ESR 140 does not:
:meth:`FirefoxSession.set_offline` then returns False and a test takes its server away, as with
WebKit), and console errors come from BiDi's log events (the page's frames included).
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
from pathlib import Path

from find_browsers import firefox_path

from .session import Session

BRIDGE = Path(__file__).with_name("firefox_bridge.mjs")
ROOT = Path(__file__).resolve().parents[2]
#: A reply may wait for a page load or a long evaluation; a hung Firefox fails the call after this.
CALL_TIMEOUT_S = 240


class BridgeError(RuntimeError):
    pass


class Firefox:
    engine = "firefox"

    def __init__(self, executable: str | None = None) -> None:
        self.executable = executable or firefox_path()
        self._lock = threading.Lock()
        try:
            self._start()
        except BridgeError as first:
            # A Firefox that never printed its endpoint is a start that hung, not a page's fault:
            # one more start, and the first failure is kept in the second's message.
            self.close()
            try:
                self._start()
            except BridgeError as second:
                raise BridgeError(f"{second}\n(a first start failed too: {first})") from None

    def _start(self) -> None:
        self._log = tempfile.TemporaryFile(mode="w+")  # Firefox's and Node's chatter, for errors
        self._proc = subprocess.Popen(
            ["node", str(BRIDGE), self.executable], cwd=ROOT, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, bufsize=1,
        )
        self._replies: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(self._proc, self._replies), daemon=True).start()
        self._seq = 0
        self.version = self.call("version", timeout=150)

    @staticmethod
    def _read(proc: subprocess.Popen, replies: queue.Queue) -> None:
        for line in proc.stdout:
            if line.startswith("{"):
                replies.put(json.loads(line))
        replies.put(None)  # the bridge has exited

    def _stderr_tail(self) -> str:
        self._log.seek(0)
        return self._log.read()[-3000:]

    def call(self, op: str, timeout: float = CALL_TIMEOUT_S, **args):
        with self._lock:
            self._seq += 1
            seq = self._seq
            try:
                self._proc.stdin.write(json.dumps({"seq": seq, "op": op, **args}) + "\n")
                self._proc.stdin.flush()
            except BrokenPipeError:
                raise BridgeError(f"the Firefox bridge has exited:\n{self._stderr_tail()}") from None
            while True:
                try:
                    reply = self._replies.get(timeout=timeout)
                except queue.Empty:
                    raise BridgeError(f"Firefox gave no reply to {op} within {timeout:.0f} s") from None
                if reply is None:
                    raise BridgeError(f"the Firefox bridge has exited:\n{self._stderr_tail()}")
                if reply.get("seq") == seq:
                    break
        if not reply["ok"]:
            raise BridgeError(f"firefox {op}: {reply['error']}")
        return reply["value"]

    def new_session(self, width: int = 1280, height: int = 900) -> "FirefoxSession":
        return FirefoxSession(self, self.call("open", width=width, height=height))

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self._proc.stdin.close()  # the bridge closes Firefox when its input ends
                self._proc.wait(timeout=30)
            except (subprocess.TimeoutExpired, BrokenPipeError):
                self._proc.kill()
                self._proc.wait()
        self._log.close()


class FirefoxSession(Session):
    engine = "firefox"

    def __init__(self, firefox: Firefox, sid: int) -> None:
        self._ff = firefox
        self._id = sid

    def goto(self, url: str, wait: str = "load") -> None:
        self._ff.call("goto", id=self._id, url=url, wait=wait)

    def reload(self) -> None:
        self._ff.call("reload", id=self._id)

    def evaluate(self, js: str, *args, frame: str | None = None):
        return self._ff.call("evaluate", id=self._id, js=js, args=list(args), frame=frame)

    def mouse_click(self, x: float, y: float) -> None:
        self._ff.call("click", id=self._id, x=x, y=y)

    def set_offline(self, offline: bool) -> bool:
        return bool(self._ff.call("offline", id=self._id, offline=offline))

    def console_errors(self) -> list[str]:
        return self._ff.call("errors", id=self._id)

    def close(self) -> None:
        self._ff.call("close", id=self._id)
