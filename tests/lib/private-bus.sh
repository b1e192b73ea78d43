# Sourced by the test rigs (tests/dbus, tests/sandbox, tests/center): a private session bus in a
# temporary directory on which chimed's name is activatable, from the D-Bus service file as
# installed with Exec= a script that runs the built chimed and keeps its log.
#
#   start_private_bus TMP REPO CHIMED_COMMAND [SED_EXPRESSION]
# writes TMP/chimed.sh (`exec CHIMED_COMMAND >>TMP/chimed.log 2>&1`), TMP/services/ and
# TMP/bus.conf, starts dbus-daemon listening on TMP/bus, sets private_bus_pid to its pid and
# exports DBUS_SESSION_BUS_ADDRESS. SED_EXPRESSION edits the service file further. The caller
# stops the daemon by that pid.
start_private_bus() {
  local tmp=$1 repo=$2 command=$3 extra=${4:-}
  local name=io.github.chime.Chime1
  mkdir -p "$tmp/services"
  printf '#!/bin/sh\nexec %s >>"%s/chimed.log" 2>&1\n' "$command" "$tmp" > "$tmp/chimed.sh"
  chmod +x "$tmp/chimed.sh"
  sed "s|^Exec=.*|Exec=$tmp/chimed.sh|${extra:+; $extra}" "$repo/deploy/dbus/$name.service" > "$tmp/services/$name.service"
  cat > "$tmp/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$tmp/bus</listen>
  <servicedir>$tmp/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
  private_bus_pid=$(dbus-daemon --config-file="$tmp/bus.conf" --fork --print-pid=1 --nosyslog)
  export DBUS_SESSION_BUS_ADDRESS=unix:path=$tmp/bus
}
