#!/usr/bin/env bash
# deploy/local-cluster.sh N [PORT] [--replica-ports P1,P2,…] [-- emulator flags…]
#
# N emulator processes behind HAProxy (deploy/haproxy.cfg, its server lines rewritten for
# them) at http://127.0.0.1:PORT (default 4010; 0 picks a free one). The replicas listen on
# free ports, or on the ports --replica-ports lists (one per replica, in order). Prints one
# line per replica ("replicaK http://127.0.0.1:P pid P") and then "cluster listening on URL",
# once a request to that URL reached this run's own HAProxy. A port already taken stops it
# before anything starts. Ctrl-C or SIGTERM stops all of them. Flags after -- go to every
# replica; with CLUSTER_DATA_DIR=dir each replica keeps its state in dir/replicaK.json
# (--data-file), so an app finds its records again when its replica (same position, same
# name) comes back.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
usage() {
  echo "usage: deploy/local-cluster.sh N [PORT] [--replica-ports P1,P2,…] [-- emulator flags…]" \
    "(N replicas; PORT defaults to 4010, 0 picks a free one)" >&2
  exit 2
}
count="${1:-}"
[ $# -gt 0 ] && shift
port=4010
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  port="$1"
  shift
fi
replica_ports=""
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; break ;;
    --replica-ports) [ $# -ge 2 ] || usage; replica_ports="$2"; shift 2 ;;
    --replica-ports=*) replica_ports="${1#*=}"; shift ;;
    *) echo "deploy/local-cluster.sh: unexpected \"$1\" (emulator flags go after --)" >&2; usage ;;
  esac
done
valid_port() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -le 65535 ]; }
if ! [[ "$count" =~ ^[1-9][0-9]*$ ]] || ! valid_port "$port"; then usage; fi
pinned=()
if [ -n "$replica_ports" ]; then
  IFS=, read -r -a pinned <<< "$replica_ports"
  if [ "${#pinned[@]}" -ne "$count" ]; then
    echo "deploy/local-cluster.sh: --replica-ports lists ${#pinned[@]} port(s) for $count replica(s)" >&2
    exit 2
  fi
  for p in "${pinned[@]}"; do
    if ! valid_port "$p" || [ "$p" = 0 ] || [ "$p" = "$port" ]; then
      echo "deploy/local-cluster.sh: --replica-ports: \"$p\" is not a port from 1 to 65535 other than PORT" >&2
      exit 2
    fi
  done
  if [ "$(printf '%s\n' "${pinned[@]}" | sort -u | wc -l)" -ne "$count" ]; then
    echo "deploy/local-cluster.sh: --replica-ports names a port twice" >&2
    exit 2
  fi
fi

# Whether this machine lets us listen on 127.0.0.1:$1 now (something else listening, on that
# address or every interface, makes it fail).
port_free() {
  node -e 'const s = require("net").createServer();
    s.once("error", () => process.exit(1)).listen(Number(process.argv[1]), "127.0.0.1", () => s.close());' "$1"
}
# Every port asked for, checked before anything starts or is announced.
for p in $([ "$port" = 0 ] || echo "$port") "${pinned[@]}"; do
  if ! port_free "$p"; then
    echo "deploy/local-cluster.sh: port $p is already in use; stop what holds it, or pick another" \
      "(PORT 0 picks a free one)" >&2
    exit 1
  fi
done
if ! command -v haproxy > /dev/null; then
  echo "haproxy is not installed: apt-get install haproxy (Debian/Ubuntu) or brew install haproxy (macOS)" >&2
  exit 1
fi
if [ "$port" = 0 ]; then
  port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
fi
node "$root/scripts/ensure-built.mjs" >&2

work="$(mktemp -d "${TMPDIR:-/tmp}/emulator-cluster.XXXXXX")"
pids=()
stop() {
  trap - INT TERM EXIT
  # Only the processes this script started, by their ids.
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
  rm -rf "$work"
}
trap 'stop; exit 0' INT TERM
trap stop EXIT

servers=()
for i in $(seq 1 "$count"); do
  data=()
  if [ -n "${CLUSTER_DATA_DIR:-}" ]; then
    mkdir -p "$CLUSTER_DATA_DIR"
    data=(--data-file "$CLUSTER_DATA_DIR/replica$i.json")
  fi
  node "$root/dist/cli.js" --port "${pinned[$((i - 1))]:-0}" "${data[@]}" "$@" > "$work/replica$i.out" 2> "$work/replica$i.log" &
  pids+=($!)
  url=""
  for _ in $(seq 1 200); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/replica$i.out" | head -n 1 || true)"
    [ -n "$url" ] && break
    if ! kill -0 "${pids[-1]}" 2> /dev/null; then
      echo "replica$i did not start:" >&2
      cat "$work/replica$i.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  [ -n "$url" ] || { echo "replica$i printed no address within 20 s" >&2; exit 1; }
  echo "replica$i $url pid ${pids[-1]}"
  servers+=("  server replica$i ${url#http://} check")
done

# The shared configuration with this run's bind address and servers; the rest as written. The
# frontend also answers /__cluster-run with this run's token: the readiness probe below must
# reach this HAProxy, not another process that took the port meanwhile.
token="$(node -e 'console.log(require("crypto").randomBytes(12).toString("hex"))')"
printf '%s\n' "${servers[@]}" > "$work/servers"
awk -v bind="  bind 127.0.0.1:$port" -v token="$token" -v servers="$work/servers" '
  /^  bind / { print bind; print "  http-request return status 200 content-type text/plain string " token " if { path /__cluster-run }"; next }
  /# replicas: begin/ { print; while ((getline line < servers) > 0) print line; skip = 1; next }
  /# replicas: end/ { skip = 0 }
  !skip { print }
' "$here/haproxy.cfg" > "$work/haproxy.cfg"
haproxy -f "$work/haproxy.cfg" -db &
pids+=($!)
ours() {
  node -e 'fetch(process.argv[1]).then((r) => r.text()).then((t) => process.exit(t === process.argv[2] ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$port/__cluster-run" "$token"
}
for _ in $(seq 1 100); do
  kill -0 "${pids[-1]}" 2> /dev/null || { echo "haproxy did not start (is port $port taken?)" >&2; exit 1; }
  if ours; then
    echo "cluster listening on http://127.0.0.1:$port ($count replicas; logs in $work)"
    wait "${pids[-1]}" || true
    echo "haproxy exited" >&2
    exit 1
  fi
  sleep 0.1
done
echo "haproxy is not answering on port $port after 10 s" >&2
exit 1
