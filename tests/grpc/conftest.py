"""A real chimed on a Unix socket in a temporary directory, and stubs generated from Protos/.

chimed comes from $CHIME_BIN_DIR (default <repo>/.build/debug); it prints "chimed listening on
<path>" once it serves, which the fixture waits for (bounded), and it is stopped with SIGTERM
at teardown, expecting a clean exit.
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
REPO = HERE.parents[1]
START_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0


def bin_dir() -> Path:
    return Path(os.environ.get("CHIME_BIN_DIR") or REPO / ".build" / "debug")


def _generate_stubs() -> Path:
    """Python stubs of Protos/ (grpcio-tools), in a directory put on sys.path."""
    from grpc_tools import protoc

    out = Path(tempfile.mkdtemp(prefix="chime-grpc-stubs-"))
    protos = sorted(str(p.relative_to(REPO / "Protos")) for p in (REPO / "Protos").rglob("*.proto"))
    include = str(Path(protoc.__file__).parent / "_proto")
    rc = protoc.main(["protoc", f"-I{REPO / 'Protos'}", f"-I{include}", f"--python_out={out}",
                      f"--grpc_python_out={out}", *protos])
    assert rc == 0, "grpc_tools.protoc failed on Protos/"
    sys.path.insert(0, str(out))
    return out


STUBS = _generate_stubs()


class Daemon:
    """One chimed process with its own socket and data directory."""

    def __init__(self, *args: str) -> None:
        """`args` are more chimed flags (a limit a test needs)."""
        binary = bin_dir() / "chimed"
        if not os.access(binary, os.X_OK):
            pytest.exit(f"no chimed at {binary}: run 'swift build' or set CHIME_BIN_DIR", returncode=2)
        self.root = Path(tempfile.mkdtemp(prefix="chime-grpc-"))
        self.socket_path = str(self.root / "chimed.sock")
        self.log_path = self.root / "chimed.log"
        env = dict(os.environ)
        for key in ("CHIME_SOCKET", "CHIME_APP"):
            env.pop(key, None)
        env["XDG_RUNTIME_DIR"] = str(self.root / "run")
        env["XDG_STATE_HOME"] = str(self.root / "state")
        env["XDG_DATA_HOME"] = str(self.root / "share")
        env["XDG_CONFIG_HOME"] = str(self.root / "config")
        env["SWIFT_BACKTRACE"] = "enable=no"
        self.env = env
        self.terminated = False
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [str(binary), "--socket", self.socket_path, "--data-dir", str(self.root / "data"), "--log-level", "info",
             *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._log, env=env)
        lines: "queue.SimpleQueue[str | None]" = queue.SimpleQueue()

        def pump() -> None:
            assert self.process.stdout is not None
            for raw in self.process.stdout:
                lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        try:
            while True:
                line = lines.get(timeout=START_TIMEOUT)
                if line is None:
                    raise RuntimeError(f"chimed exited before listening\n{self.log()}")
                if line.startswith("chimed listening on "):
                    return
        except queue.Empty:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"chimed did not start within {START_TIMEOUT} s\n{self.log()}") from None

    @property
    def target(self) -> str:
        return "unix://" + self.socket_path

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def cli(self, *args: str, app: str) -> subprocess.CompletedProcess:
        """Runs the native `chime` CLI against this daemon."""
        return subprocess.run([str(bin_dir() / "chime"), *args, "--socket", self.socket_path, "--app", app],
                              env=self.env, capture_output=True, text=True, timeout=30)

    def terminate(self) -> None:
        """SIGTERM, once: a second one during the drain would end chimed at once."""
        if self.process.poll() is None and not self.terminated:
            self.terminated = True
            self.process.send_signal(signal.SIGTERM)

    def stop(self) -> int:
        self.terminate()
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"chimed ignored SIGTERM for {STOP_TIMEOUT} s\n{self.log()}") from None
        finally:
            self._log.close()
        status = self.process.returncode
        log = self.log()
        shutil.rmtree(self.root, ignore_errors=True)
        assert status == 0, f"chimed exited with {status}\n{log}"
        return status


@pytest.fixture(scope="session")
def daemon():
    """One daemon for the session; tests keep apart by their own app ids."""
    instance = Daemon()
    yield instance
    instance.stop()


@pytest.fixture
def own_daemon():
    """A daemon for one test (tests that stop it)."""
    instance = Daemon()
    yield instance
    if instance.process.poll() is None:
        instance.stop()
    else:
        instance._log.close()
        shutil.rmtree(instance.root, ignore_errors=True)


@pytest.fixture
def daemon_with():
    """Starts daemons with extra chimed flags for one test: `daemon_with("--max-connections", "1")`."""
    started: list[Daemon] = []

    def start(*args: str) -> Daemon:
        started.append(Daemon(*args))
        return started[-1]

    yield start
    for instance in started:
        if instance.process.poll() is None:
            instance.stop()


_apps = itertools.count(1)


@pytest.fixture
def app_id() -> str:
    return f"org.example.grpc{next(_apps)}"


@pytest.fixture
def channel(daemon):
    import grpc

    with grpc.insecure_channel(daemon.target) as instance:
        yield instance


@pytest.fixture
def stub(channel):
    from chime.v1 import notification_center_pb2_grpc as ncg

    return ncg.NotificationCenterStub(channel)
