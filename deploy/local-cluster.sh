#!/usr/bin/env bash
# deploy/local-cluster.sh N [PORT] [-- emulator flags…]
#
# N emulator processes on free ports behind HAProxy (deploy/haproxy.cfg, its server lines
# rewritten for them) at http://127.0.0.1:PORT (default 4010; 0 picks a free one). Prints one
# line per replica ("replicaK http://127.0.0.1:P pid P") and then "cluster listening on URL".
# Ctrl-C or SIGTERM stops all of them. Flags after -- go to every replica; with
# CLUSTER_DATA_DIR=dir each replica keeps its state in dir/replicaK.json (--data-file), so an
# app finds its records again when its replica (same position, same name) comes back.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
count="${1:-}"
port="${2:-4010}"
shift $(($# > 2 ? 2 : $#))
[ "${1:-}" = "--" ] && shift
if ! [[ "$count" =~ ^[1-9][0-9]*$ ]] || ! [[ "$port" =~ ^[0-9]+$ ]]; then
  echo "usage: deploy/local-cluster.sh N [PORT] [-- emulator flags…]  (N replicas, PORT 0 = a free one)" >&2
  exit 2
fi
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
  node "$root/dist/cli.js" --port 0 "${data[@]}" "$@" > "$work/replica$i.out" 2> "$work/replica$i.log" &
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

# The shared configuration with this run's bind address and servers; the rest as written.
printf '%s\n' "${servers[@]}" > "$work/servers"
awk -v bind="  bind 127.0.0.1:$port" -v servers="$work/servers" '
  /^  bind / { print bind; next }
  /# replicas: begin/ { print; while ((getline line < servers) > 0) print line; skip = 1; next }
  /# replicas: end/ { skip = 0 }
  !skip { print }
' "$here/haproxy.cfg" > "$work/haproxy.cfg"
haproxy -f "$work/haproxy.cfg" -db &
pids+=($!)
for _ in $(seq 1 100); do
  if (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
    echo "cluster listening on http://127.0.0.1:$port ($count replicas; logs in $work)"
    wait "${pids[-1]}" || true
    echo "haproxy exited" >&2
    exit 1
  fi
  kill -0 "${pids[-1]}" 2> /dev/null || { echo "haproxy did not start" >&2; exit 1; }
  sleep 0.1
done
echo "haproxy is not listening on port $port after 10 s" >&2
exit 1
