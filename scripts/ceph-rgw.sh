#!/usr/bin/env bash
# A throwaway one-node Ceph Object Gateway (a real S3 server) bound to 127.0.0.1 only, for tests.
#
#   scripts/ceph-rgw.sh start DIR PORT [MON_PORT]   start mon + memstore OSD + RGW; prints RGW_READY
#   scripts/ceph-rgw.sh stop DIR                    stop every daemon whose pid file is in DIR/run
#
# RGW serves S3 (path-style, any region name) on http://127.0.0.1:PORT. The monitor listens on
# MON_PORT (default PORT+1; pass a port known to be free when running several instances).
# Everything the cluster writes (config, mon store, logs, pid files, admin sockets) stays in DIR,
# and the OSD keeps its data in memory, so several instances with different DIRs and ports can
# run side by side. The S3 user's keys come from RGW_ACCESS_KEY / RGW_SECRET_KEY (test defaults).
# Needs the Debian packages radosgw, ceph-mon and ceph-osd: see scripts/install-system-deps.sh.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR PORT [MON_PORT] | $0 stop DIR" >&2
  exit 2
}

# Is the process with this pid one of this cluster's daemons (started with DIR's ceph.conf)?
# Guards against signalling an unrelated process that reused a stale pid.
owns_pid() {
  local pid=$1 conf=$2
  [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qxF -- "$conf"
}

stop_cluster() {
  local dir=$1 conf pidfile pid
  conf="$dir/ceph.conf"
  local pids=()
  shopt -s nullglob
  for pidfile in "$dir"/run/*.pid; do
    pid=$(tr -dc '0-9' <"$pidfile")
    [ -n "$pid" ] || continue
    if owns_pid "$pid" "$conf"; then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  shopt -u nullglob
  # Wait up to 15 s for a clean exit, then force the stragglers.
  local deadline=$((SECONDS + 15)) alive
  while :; do
    alive=()
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && owns_pid "$pid" "$conf" && alive+=("$pid")
    done
    [ "${#alive[@]}" -eq 0 ] && return 0
    [ "$SECONDS" -ge "$deadline" ] && break
    sleep 0.2
  done
  for pid in "${alive[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    alive=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && owns_pid "$pid" "$conf" && alive+=("$pid"); done
    [ "${#alive[@]}" -eq 0 ] && return 0
    sleep 0.1
  done
  echo "ceph-rgw: processes ${alive[*]} did not exit" >&2
  return 1
}

# Succeeds once an HTTP server on 127.0.0.1:$1 answers a GET / (bash's /dev/tcp: no curl needed).
http_answers() {
  local port=$1 status
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
  status=$(timeout 2 head -n 1 <&3 || true)
  exec 3<&- 3>&-
  [[ "$status" == HTTP/1.?\ 200* ]]
}

# Is some socket listening on port $1 (on loopback or on every address, IPv4 or IPv6) right now?
port_listening() {
  local hex
  hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
    awk -v want=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == want { found = 1 } END { exit !found }'
}

# Does process $1 hold the socket listening on port $2? (Another server answering on the
# port must not pass for ours.)
pid_listens_on() {
  local pid=$1 hex inode
  hex=$(printf '%04X' "$2")
  for inode in $(awk -v want=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == want { print $10 }' /proc/net/tcp); do
    if ls -l "/proc/$pid/fd" 2>/dev/null | grep -qF "socket:[$inode]"; then return 0; fi
  done
  return 1
}

# The pid in a daemon's pid file, once the daemon has written it.
daemon_pid() {
  local file=$1
  [ -s "$file" ] && tr -dc '0-9' <"$file"
}

is_port() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ]; }

start_cluster() {
  local dir=$1 port=$2 mon_port=$3
  local access_key=${RGW_ACCESS_KEY:-TESTAK} secret_key=${RGW_SECRET_KEY:-TESTSK}
  for bin in ceph ceph-mon ceph-osd ceph-authtool monmaptool radosgw radosgw-admin; do
    if ! command -v "$bin" >/dev/null 2>&1; then
      echo "ceph-rgw: $bin not found; run scripts/install-system-deps.sh (Debian packages radosgw ceph-mon ceph-osd)" >&2
      exit 3
    fi
  done

  local busy
  for busy in "$port" "$mon_port"; do
    if port_listening "$busy"; then
      echo "ceph-rgw: port $busy on 127.0.0.1 is already in use; pick another" >&2
      exit 4
    fi
  done

  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  local conf="$dir/ceph.conf"
  # A leftover cluster in this folder would hold its ports; stop it before wiping its files.
  if [ -d "$dir/run" ]; then stop_cluster "$dir" || true; fi
  rm -rf "$dir/mon" "$dir/osd" "$dir/run" "$dir/log" "$dir/rgw" "$dir/crash" "$dir"/*.keyring "$dir/monmap" "$conf"
  mkdir -p "$dir/mon/a" "$dir/osd" "$dir/run" "$dir/log" "$dir/rgw" "$dir/crash"

  # From here on, a failure stops whatever was started and shows the end of the logs.
  trap 'status=$?; echo "ceph-rgw: start failed (exit $status); log tails follow" >&2;
        for f in "$dir"/log/*; do echo "== $f" >&2; tail -n 15 "$f" >&2 || true; done;
        stop_cluster "$dir" || true; exit "$status"' ERR

  local fsid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  # Every address is 127.0.0.1; every path is inside $dir so instances never share state.
  cat >"$conf" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
cluster addr = 127.0.0.1
public network = 127.0.0.0/8
cluster network = 127.0.0.0/8
ms bind ipv4 = true
ms bind ipv6 = false
ms mon client mode = crc secure
auth cluster required = none
auth service required = none
auth client required = none
run dir = $dir/run
admin socket = $dir/run/\$name.\$pid.asok
log file = $dir/log/\$name.log
mon cluster log file = $dir/log/cluster.log
crash dir = $dir/crash
pid file = $dir/run/\$name.pid
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon max pg per osd = 1000
mon warn on pool no redundancy = false
[mon]
mon data = $dir/mon/\$id
[osd]
osd data = $dir/osd/\$id
osd objectstore = memstore
memstore device bytes = 1073741824
osd max object name len = 460
osd max object namespace len = 64
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$port
rgw data = $dir/rgw
rgw dns name = localhost
rgw enable usage log = false
CONF

  local ceph=(ceph -c "$conf" --connect-timeout 20)
  ceph-authtool --create-keyring "$dir/mon.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --addv a "[v2:127.0.0.1:$mon_port]" --fsid "$fsid" "$dir/monmap" >/dev/null
  ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/mon.keyring"
  # The daemons fork into the background; they must not hold our stdout/stderr open.
  ceph-mon -c "$conf" -i a </dev/null >>"$dir/log/mon.a.out" 2>&1
  local mon_pid= listening=
  for _ in $(seq 1 120); do
    mon_pid=$(daemon_pid "$dir/run/mon.a.pid" || echo "$mon_pid")
    if [ -n "$mon_pid" ]; then
      kill -0 "$mon_pid" 2>/dev/null || { echo "ceph-rgw: ceph-mon exited during start-up (see $dir/log/mon.a.log)" >&2; false; }
      if pid_listens_on "$mon_pid" "$mon_port"; then listening=1; break; fi
    fi
    sleep 0.25
  done
  [ -n "$listening" ] || { echo "ceph-rgw: ceph-mon is not listening on 127.0.0.1:$mon_port" >&2; false; }
  timeout 30 "${ceph[@]}" -s >/dev/null

  local osd_id
  osd_id=$(timeout 30 "${ceph[@]}" osd create)
  mkdir -p "$dir/osd/$osd_id"
  ceph-osd -c "$conf" -i "$osd_id" --mkfs >/dev/null 2>>"$dir/log/osd-mkfs.out"
  timeout 30 "${ceph[@]}" osd crush add "osd.$osd_id" 1.0 root=default host=localhost >/dev/null 2>&1
  ceph-osd -c "$conf" -i "$osd_id" </dev/null >>"$dir/log/osd.$osd_id.out" 2>&1
  local up= osd_pid=
  for _ in $(seq 1 120); do
    if timeout 10 "${ceph[@]}" osd stat 2>/dev/null | grep -q '1 up'; then up=1; break; fi
    osd_pid=$(daemon_pid "$dir/run/osd.$osd_id.pid" || echo "$osd_pid")
    if [ -n "$osd_pid" ] && ! kill -0 "$osd_pid" 2>/dev/null; then
      echo "ceph-rgw: ceph-osd exited during start-up (see $dir/log/osd.$osd_id.log)" >&2
      false
    fi
    sleep 0.25
  done
  [ -n "$up" ] || { echo "ceph-rgw: the OSD did not come up" >&2; false; }

  # radosgw-admin creates the gateway's pools on first use, then the S3 user.
  timeout 60 radosgw-admin -c "$conf" -n client.rgw user create --uid=test --display-name=test \
    --access-key="$access_key" --secret-key="$secret_key" >/dev/null 2>>"$dir/log/radosgw-admin.out"
  radosgw -c "$conf" -n client.rgw </dev/null >>"$dir/log/rgw.out" 2>&1
  local ready= rgw_pid=
  for _ in $(seq 1 240); do
    # Keep the last pid seen: a daemon that dies removes its pid file.
    rgw_pid=$(daemon_pid "$dir/run/client.rgw.pid" || echo "$rgw_pid")
    if [ -n "$rgw_pid" ]; then
      kill -0 "$rgw_pid" 2>/dev/null || { echo "ceph-rgw: radosgw exited during start-up (see $dir/log/client.rgw.log)" >&2; false; }
      if pid_listens_on "$rgw_pid" "$port" && http_answers "$port" 2>/dev/null; then ready=1; break; fi
    fi
    sleep 0.25
  done
  [ -n "$ready" ] || { echo "ceph-rgw: RGW did not answer on 127.0.0.1:$port" >&2; false; }
  trap - ERR
  echo "RGW_READY http://127.0.0.1:$port"
}

[ $# -ge 2 ] || usage
case "$1" in
  start)
    [ $# -ge 3 ] && [ $# -le 4 ] || usage
    is_port "$3" || { echo "ceph-rgw: PORT must be a TCP port number, got '$3'" >&2; exit 2; }
    mon_port=${4:-$(($3 + 1))}
    is_port "$mon_port" || { echo "ceph-rgw: MON_PORT must be a TCP port number, got '$mon_port'" >&2; exit 2; }
    [ "$mon_port" != "$3" ] || { echo "ceph-rgw: PORT and MON_PORT must differ" >&2; exit 2; }
    start_cluster "$2" "$3" "$mon_port"
    ;;
  stop)
    [ $# -eq 2 ] || usage
    [ -d "$2" ] || exit 0
    stop_cluster "$(cd "$2" && pwd)"
    ;;
  *) usage ;;
esac
