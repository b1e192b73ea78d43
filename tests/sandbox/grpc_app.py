"""The sandboxed app's gRPC side, run inside the bubblewrap sandbox (tests/sandbox/run.sh) with the
Python client (clients/python) bundled in /app: it acts as itself ($FLATPAK_ID, as Flatpak sets
it), is refused another app's id and the user's settings, and sees only its own requests. Prints
one "ok ..." line per check; any failed check raises (exit status 1)."""

import os

from chime_client import ChimeError, Client

me = os.environ["FLATPAK_ID"]
other = os.environ["OTHER_APP"]

with Client(app=me) as chime:  # the socket: $XDG_RUNTIME_DIR/chime/chimed.sock (xdg-run/chime)
    stored = chime.add("grpc-tea", title="Tea", in_seconds=3600)
    assert stored.request.identifier == "grpc-tea", stored
    pending = [p.request.identifier for p in chime.pending()]
    assert "grpc-tea" in pending and "host-only" not in pending, pending
    print("ok   grpc: acts as", me, "and sees only its own requests:", pending)
    try:
        chime.set_do_not_disturb(on=True)
        raise AssertionError("SetDoNotDisturb from the sandbox was accepted")
    except ChimeError as error:
        assert error.reason == "USER_SETTING_FROM_SANDBOX", error
    try:
        chime.set_app_settings(other, allow=False)
        raise AssertionError("SetAppSettings from the sandbox was accepted")
    except ChimeError as error:
        assert error.reason == "USER_SETTING_FROM_SANDBOX", error
    print("ok   grpc: the user's settings (Do Not Disturb, another app's settings) are USER_SETTING_FROM_SANDBOX")

with Client(app=other) as chime:
    try:
        chime.pending()
        raise AssertionError(f"the sandbox read {other}'s requests")
    except ChimeError as error:
        assert error.reason == "APP_ID_MISMATCH", error
    try:
        chime.add("grpc-spoof", title="Spoof", in_seconds=3600)
        raise AssertionError(f"the sandbox added as {other}")
    except ChimeError as error:
        assert error.reason == "APP_ID_MISMATCH", error
    print("ok   grpc: acting as", other, "is APP_ID_MISMATCH")
