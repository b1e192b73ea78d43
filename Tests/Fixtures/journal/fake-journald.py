#!/usr/bin/env python3
"""A stand-in for systemd-journald, for chimed's journal test. Run inside a private mount
namespace whose /run is a fresh tmpfs: binds /run/systemd/journal/socket, starts the command
after `--` with stderr on a file and JOURNAL_STREAM naming that file (as systemd does for a
unit whose stderr is the journal), and writes each entry it receives as one JSON object per
line to OUT (native protocol: KEY=value lines, or KEY, a 64-bit little-endian length, the
bytes). Ends when the command exits; the command's exit status is its own. SIGTERM and SIGINT
are passed on to the command (which is then waited for), so stopping this stops both.

    fake-journald.py OUT STDERR_FILE -- COMMAND ARGS...
"""
import json
import os
import signal
import socket
import struct
import subprocess
import sys


def parse(datagram):
    entry, i = {}, 0
    while i < len(datagram):
        newline = datagram.index(b"\n", i)
        line = datagram[i:newline]
        if b"=" in line:
            key, value = line.split(b"=", 1)
            entry[key.decode()] = value.decode(errors="replace")
            i = newline + 1
        else:
            (size,) = struct.unpack("<Q", datagram[newline + 1:newline + 9])
            start = newline + 9
            entry[line.decode()] = datagram[start:start + size].decode(errors="replace")
            i = start + size + 1
    return entry


def main():
    out, stderr_path, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    command = rest[1:] if rest and rest[0] == "--" else rest
    os.makedirs("/run/systemd/journal", exist_ok=True)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind("/run/systemd/journal/socket")
    server.settimeout(0.2)
    with open(stderr_path, "ab") as stderr, open(out, "a") as log:
        st = os.fstat(stderr.fileno())
        env = dict(os.environ, JOURNAL_STREAM="%d:%d" % (st.st_dev, st.st_ino))
        child = subprocess.Popen(command, stderr=stderr, env=env)
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, lambda signum, _frame: child.send_signal(signum))
        while True:
            try:
                data = server.recv(1 << 20)
                log.write(json.dumps(parse(data)) + "\n")
                log.flush()
            except socket.timeout:
                if child.poll() is not None:
                    break
    sys.exit(child.returncode)


main()
