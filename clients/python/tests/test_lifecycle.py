"""A client that is never closed: the program still exits, and a collected client releases its
channel.

grpcio keeps an open channel whose connectivity was watched (the constructor watches it to
report a refused connection at once) and blocks the interpreter's exit on it; the client closes
its channel when it is collected and when the interpreter exits.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import weakref

import pytest

from chime_client import ChimeError, Client, Code, pb
from conftest import REPO

# A script that adds a request takes well under a second; a hang is a failure, not a wait.
EXIT_WITHIN = 10.0


def _run_script(daemon, tmp_path, body: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body))
    env = dict(os.environ)
    env.pop("CHIME_APP", None)
    env["CHIME_SOCKET"] = daemon.socket_path
    env["PYTHONPATH"] = str(REPO / "clients" / "python")
    try:
        return subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                              timeout=EXIT_WITHIN)
    except subprocess.TimeoutExpired as expired:  # subprocess.run has killed it
        pytest.fail(f"the script did not exit within {EXIT_WITHIN} s (stdout: {expired.stdout!r})")


def test_script_that_never_closes_its_client_exits(daemon, app_id, tmp_path):
    done = _run_script(daemon, tmp_path, f"""
        from chime_client import Client
        c = Client(app={app_id!r}, timeout=10)
        c.add("tea", "Tea", in_seconds=600)
        print("added", [p.identifier for p in c.pending()])
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "added ['tea']\n"
    with Client(daemon.socket_path, app=app_id, timeout=10) as chime:
        assert [p.identifier for p in chime.pending()] == ["tea"]  # what it did before exiting stays
        chime.remove_all()


def test_script_with_an_open_subscription_exits(daemon, app_id, tmp_path):
    done = _run_script(daemon, tmp_path, f"""
        from chime_client import Client
        events = Client(app={app_id!r}, timeout=10).subscribe()
        print("first event", events.next(timeout=5).kind)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("first event "), done.stdout


def test_collected_client_closes_its_channel(daemon, app_id):
    chime = Client(daemon.socket_path, app=app_id, timeout=10)
    chime.add("tea", "Tea", in_seconds=600)
    stub = chime.stub  # the channel outlives the client only through what the caller kept
    gone = weakref.ref(chime)
    del chime
    gc.collect()
    assert gone() is None, "something still refers to the client"
    with pytest.raises(ValueError, match="closed channel"):
        stub.GetPending(pb.notification_center.PageRequest(), timeout=10)
    with Client(daemon.socket_path, app=app_id, timeout=10) as chime:
        chime.remove_all()


def test_client_is_freed_without_the_cycle_collector(daemon, app_id):
    # No reference cycle through the connectivity watch: dropping the last reference frees it.
    gc.disable()
    try:
        chime = Client(daemon.socket_path, app=app_id, timeout=10)
        chime.pending()
        gone = weakref.ref(chime)
        del chime
        assert gone() is None, gc.get_referrers(gone()) if gone() is not None else None
    finally:
        gc.enable()


def test_subscription_keeps_its_client_open(daemon, app_id):
    events = Client(daemon.socket_path, app=app_id, timeout=10).subscribe()
    gc.collect()
    try:
        assert events.next(timeout=5).kind != 0  # the stream is live although no name holds the client
        with Client(daemon.socket_path, app=app_id, timeout=10) as other:
            other.add("now", "Now")
            while True:
                event = events.next(timeout=5)
                if event.HasField("delivered"):
                    assert event.delivered.request.identifier == "now"
                    break
            other.remove_all_delivered()
    finally:
        events.close()


def test_close_then_collect_is_quiet(daemon, app_id):
    chime = Client(daemon.socket_path, app=app_id, timeout=10)
    chime.close()
    del chime
    gc.collect()  # the finalizer has already run once: no second close, nothing raised


def test_closed_client_still_raises_connection_closed(daemon, app_id):
    chime = Client(daemon.socket_path, app=app_id, timeout=10)
    chime.close()
    with pytest.raises(ChimeError) as caught:
        chime.pending()
    assert (caught.value.code, caught.value.reason) == (Code.UNAVAILABLE, "CONNECTION_CLOSED")
