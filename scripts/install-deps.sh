#!/usr/bin/env bash
# Installs what building and testing Chime needs and is missing: Debian's -dev packages for
# the C libraries and the tools that regenerate protobuf-c code. Idempotent and quiet when
# everything is there already.
set -euo pipefail

packages=(
  libuv1-dev            # the event loop
  libnghttp2-dev        # HTTP/2 for the gRPC transport
  libprotobuf-c-dev     # wire messages
  protobuf-c-compiler   # protoc-c, for `make proto` and the drift check
  protobuf-compiler     # protoc (used by protoc-c)
  libsqlite3-dev        # the store (ChimeStore on SQLite's C API: the CSQLite module)
  pkg-config
  libsystemd-dev        # socket activation and readiness (sd_listen_fds, sd_notify)
  systemd               # systemd-socket-activate and systemd-analyze for the service tests
  libgdk-pixbuf-2.0-dev # thumbnails: decode, crop, scale, write PNG
  libavformat-dev       # thumbnails: the frame of a movie, an animated GIF or APNG (FFmpeg)
  libavcodec-dev
  libswscale-dev
  libavutil-dev
  python3
  python3-venv          # the Python client's tests run in a virtualenv
  python3-pip
  protobuf-compiler-grpc  # grpc_python_plugin: the Python client's gRPC stubs (clients/python/generate.sh)
  golang-go             # the Go client example (clients/go), built offline in GOPATH mode
  golang-google-grpc-dev      # google.golang.org/grpc for it
  golang-github-golang-protobuf-1-5-dev  # the github.com/golang/protobuf that grpc-go uses, on APIv2 (1.3 would win otherwise)
  golang-google-protobuf-dev  # google.golang.org/protobuf (its messages)
  golang-google-genproto-dev  # google.golang.org/genproto: google.rpc ErrorInfo (errdetails)
  protoc-gen-go         # generates its messages from Protos/ (clients/go/generate.sh)
  protoc-gen-go-grpc    # generates its gRPC stubs
  python3-protobuf      # make proto: scripts/gen-calls.py reads Protos/' descriptors (Debian's /usr/bin/python3)
  python3-dateutil      # the recurrence rule cross-check (scripts/rrule, make test-rrule)
  tzdata                # /usr/share/zoneinfo: the TZif files every named time zone is read from
  valgrind              # the C client's leak check (clients/c: make test-valgrind)
  libglib2.0-dev         # the C client's test that drives it from a GLib main loop (the library needs no GLib)
  time                  # GNU time: chime-bench reads a child's own peak RSS through it
  libcanberra-dev       # sounds Chime plays itself (the theme's events and files by path)
  sound-theme-freedesktop  # the default sound (message-new-instant)
  dbus-daemon           # a private session bus for the desktop tests
  dbus-bin              # dbus-monitor, dbus-send (what the notification server received)
  libglib2.0-bin        # gdbus: one-off calls to chimed's D-Bus API in tests/dbus
  dunst                 # a real org.freedesktop.Notifications server for the desktop tests
  xvfb                  # a display for dunst in CI
  libnotify-bin         # notify-send, to check the server by hand
  imagemagick           # `import -window root` for scripts/screenshot.sh
  help2man              # `make man` and `make install`: man pages from --help
  notification-daemon   # a server that draws action buttons, for scripts/screenshot.sh
  libical-dev           # calendars: iCalendar items parsed by libical (the CLibical module)
  unicode-cldr-core     # calendars: CLDR's windowsZones.xml maps Outlook's Windows zone names to IANA
  radicale              # calendars: a local CalDAV server for the end-to-end rig (tests/calendar/rig.sh)
  vdirsyncer            # calendars: syncs the rig's CalDAV calendar into a vdir
  python3-caldav        # calendars: the rig creates its event through CalDAV (Debian's /usr/bin/python3)
  khal                  # calendars: the rig checks that khal still reads a vdir item chimed wrote a dismissal into
  gdb                   # a hung Swift test: scripts/swift-test.sh prints every thread's stack
)

# Chime Center (center/, tests/center): GTK 4 and libadwaita through PyGObject in Debian's
# python3, and AT-SPI for the test that uses it as a person would.
packages+=(
  python3-gi            # PyGObject (Debian's /usr/bin/python3)
  gir1.2-gtk-4.0        # GTK 4.8
  gir1.2-adw-1          # libadwaita 1.2
  at-spi2-core          # the accessibility bus the test reads the Center through
  python3-pyatspi       # the test's AT-SPI client
)

# `--bench`: the benchmark's peer too (Redis with appendfsync always, and redis-benchmark).
if [ "${1:-}" = "--bench" ]; then
  packages+=(redis-server redis-tools)
fi

# `--h2spec`: what scripts/h2spec.sh needs to build h2spec offline in GOPATH mode (its imports
# from Debian's Go packages) and to bridge its TCP connections to chimed's Unix socket.
if [ "${1:-}" = "--h2spec" ]; then
  packages+=(golang-golang-x-net-dev golang-github-spf13-cobra-dev golang-github-fatih-color-dev socat)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install Swift 6 (https://www.swift.org/install/linux/) first" >&2
  exit 1
fi
