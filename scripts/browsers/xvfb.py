"""A virtual X display for browsers that need one (WebKitGTK's MiniBrowser has no headless mode).

Xvfb picks a free display number itself (``-displayfd``) and writes it to a pipe: no display
number is assumed free, as no port is.
"""

from __future__ import annotations

import os
import select
import subprocess
import tempfile
import time


class Xvfb:
    def __init__(self, xvfb: str = "Xvfb", screen: str = "1920x1200x24", timeout: float = 30) -> None:
        read, write = os.pipe()
        self.log = tempfile.TemporaryFile()  # Xvfb's complaints, for the error below
        try:
            self._proc = subprocess.Popen(
                [xvfb, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp", "-noreset"],
                pass_fds=[write], stdout=subprocess.DEVNULL, stderr=self.log,
            )
            os.close(write)
            number = self._read_line(read, timeout)
        finally:
            # Only once the whole line is read: Xvfb writes the number and its newline in two
            # writes, and dies if the second meets a closed pipe.
            os.close(read)
        if not number:
            self.log.seek(0)
            said = self.log.read().decode(errors="replace")[-2000:]
            self.stop()
            raise RuntimeError(f"Xvfb did not start within {timeout:.0f} s: {said}")
        self.display = f":{number}"

    @staticmethod
    def _read_line(fd: int, timeout: float) -> str:
        data = b""
        deadline = time.monotonic() + timeout
        while b"\n" not in data:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(fd, 64) if ready else b""
            if not chunk:
                break  # timed out, or Xvfb exited
            data += chunk
        return data.decode().strip() if data.endswith(b"\n") else ""

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self.log.close()
