"""Fixtures that run the real chimed on a socket in a temporary directory.

The binary comes from $CHIME_BIN_DIR (default: <repo>/.build/debug). The daemon prints
"chimed listening on <path>" on stdout once it accepts connections; the fixture waits for that
line (bounded), and stops the daemon with SIGTERM at teardown, expecting a clean exit.
"""

from __future__ import annotations

import itertools
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # import chime_client from the source tree

REPO = HERE.parents[2]
READY_PREFIX = "chimed listening on "
START_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0


def chimed_binary() -> Path:
    bin_dir = Path(os.environ.get("CHIME_BIN_DIR") or REPO / ".build" / "debug")
    binary = bin_dir / "chimed"
    if not os.access(binary, os.X_OK):
        pytest.exit(f"no chimed at {binary}: build it (swift build --product chimed) or set CHIME_BIN_DIR",
                    returncode=2)
    return binary


class Daemon:
    """One chimed process with its own socket and data directory."""

    def __init__(self, binary: Path, *extra_args: str) -> None:
        # mkdtemp under /tmp keeps the socket path well below the 107-byte sun_path limit.
        self.root = Path(tempfile.mkdtemp(prefix="chime-py-"))
        # The socket where chimed puts it by default, $XDG_RUNTIME_DIR/chime/chimed.sock, so a
        # client given only this runtime directory finds it as it would after `make install-user`.
        self.runtime_dir = self.root / "run"
        self.socket_path = str(self.runtime_dir / "chime" / "chimed.sock")
        self.data_dir = self.root / "data"
        self.log_path = self.root / "chimed.log"
        env = dict(os.environ)
        for key in ("CHIME_SOCKET", "CHIME_APP"):
            env.pop(key, None)
        env["XDG_RUNTIME_DIR"] = str(self.runtime_dir)
        env["XDG_STATE_HOME"] = str(self.root / "state")
        env["XDG_DATA_HOME"] = str(self.root / "share")
        env["SWIFT_BACKTRACE"] = "enable=no"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [str(binary), "--socket", self.socket_path, "--data-dir", str(self.data_dir),
             "--log-level", "info", *extra_args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._log, env=env)
        self._lines: "queue.SimpleQueue[str | None]" = queue.SimpleQueue()
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        self._wait_ready()

    def _pump_stdout(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self._lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self._lines.put(None)

    def _wait_ready(self) -> None:
        try:
            while True:
                line = self._lines.get(timeout=START_TIMEOUT)
                if line is None:
                    raise RuntimeError(f"chimed exited with {self.process.wait()} before listening\n{self.log()}")
                if line.startswith(READY_PREFIX):
                    listening = line[len(READY_PREFIX):]
                    assert listening == self.socket_path, f"chimed listens on {listening!r}"
                    return
        except queue.Empty:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"chimed did not report listening within {START_TIMEOUT} s\n{self.log()}") from None
        except BaseException:
            self._cleanup()
            raise

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> int:
        """SIGTERM, then wait; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                self._cleanup()
                raise AssertionError(f"chimed ignored SIGTERM for {STOP_TIMEOUT} s\n{self.log()}") from None
        status = self.process.returncode
        self._cleanup()
        return status

    def _cleanup(self) -> None:
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._log.close()
        shutil.rmtree(self.root, ignore_errors=True)


def _stop_cleanly(daemon: Daemon) -> None:
    log = daemon.log()
    status = daemon.stop()
    assert status == 0, f"chimed exited with {status} after SIGTERM\n{log}"


@pytest.fixture(scope="session")
def daemon():
    """A daemon shared by the whole session; tests keep apart by using their own app ids."""
    instance = Daemon(chimed_binary())
    yield instance
    _stop_cleanly(instance)


@pytest.fixture
def own_daemon():
    """A daemon for one test (for tests that stop or restart it)."""
    instance = Daemon(chimed_binary())
    yield instance
    if instance.process.poll() is None:
        _stop_cleanly(instance)


_app_numbers = itertools.count(1)


@pytest.fixture
def app_id() -> str:
    """An app identifier no other test uses."""
    return f"org.example.pytest{next(_app_numbers)}"


@pytest.fixture
def client(daemon, app_id):
    from chime_client import Client

    with Client(daemon.socket_path, app=app_id, timeout=10.0) as instance:
        yield instance
