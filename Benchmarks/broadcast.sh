#!/usr/bin/env bash
# Measures one broadcast to many subscribers in the simulator (loopback only):
#   1. the release simulator starts; its RSS (VmRSS) is read with one device and one channel;
#   2. N activities subscribed to the channel are created through the control API's bulk route
#      (POST /v1/devices/{id}/activities/bulk), timed; RSS again;
#   3. one broadcast (`livepush send --channel`, priority 5) updates all of them; timed from the send
#      until GET /v1/channels/{id} reports N subscribers applied, next to the simulator's own apply time
#      for the broadcast (lastBroadcast.applySeconds); RSS and peak RSS (VmHWM) after it.
# Usage: Benchmarks/broadcast.sh [SUBSCRIBERS]   (default 100000; environment: see Benchmarks/common.sh)
set -euo pipefail
source "$(dirname "$0")/common.sh"
SUBSCRIBERS="${1:-100000}"

for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install -y $tool" >&2; exit 1; }
done
cd "$ROOT"
bench_binary
WORK="$(mktemp -d)"
SIM=""
trap 'kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; rm -rf "$WORK"' EXIT

bench_simulator "$WORK"
CONTROL="http://127.0.0.1:$CONTROL_PORT"
rss_mb() { awk -v field="$1" '$1 == field":" {printf "%.1f", $2 / 1024}' "/proc/$SIM/status"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }

DEVICE=$(curl -sSf -X POST "$CONTROL/v1/devices" -H 'content-type: application/json' \
  -d "{\"name\":\"Stadium\",\"bundleId\":\"$BUNDLE\",\"environment\":\"sandbox\"}" | jq -r .deviceId)
CREATED=$("$BIN" channels create --url "https://127.0.0.1:$MANAGE_PORT" --ca-file "$WORK/sim/ca.pem" \
  --bundle-id "$BUNDLE" --storage-policy 0)
CHANNEL=$(printf '%s\n' "$CREATED" | awk '$1 == "channel-id:" {print $2}')
# A base64 id may hold / + =: percent-encoded in the control API's path.
CHANNEL_PATH=$(jq -rn --arg id "$CHANNEL" '$id | @uri')
[ -n "$CHANNEL" ] || { echo "no channel id in: $CREATED" >&2; exit 1; }
RSS_START=$(rss_mb VmRSS)

echo "== machine: $(nproc) cores; $SUBSCRIBERS subscribers of channel $CHANNEL"
START=$(now)
curl -sSf -X POST "$CONTROL/v1/devices/$DEVICE/activities/bulk" -H 'content-type: application/json' \
  -d "{\"count\":$SUBSCRIBERS,\"activity\":{\"attributesType\":\"AdventureAttributes\",\"attributes\":{\"hero\":\"Power Panda\"},\"contentState\":{\"currentHealthLevel\":1.0,\"eventDescription\":\"Ready\"},\"channelId\":\"$CHANNEL\"}}" \
  >"$WORK/bulk.json"
SUBSCRIBED=$(now)
COUNT=$(jq -r .subscriberCount "$WORK/bulk.json")
RSS_SUBSCRIBED=$(rss_mb VmRSS)
echo "subscribed $COUNT activities in $(elapsed "$START" "$SUBSCRIBED") s"

SENT=$(now)
"$BIN" send --url "https://127.0.0.1:$PORT" --ca-file "$WORK/sim/ca.pem" --bundle-id "$BUNDLE" \
  --channel "$CHANNEL" --priority 5 --timestamp 1685952000 --content-state "$CONTENT" >"$WORK/send.txt"
ANSWERED=$(now)
APPLIED=""
for _ in $(seq 1 600); do
  curl -sSf "$CONTROL/v1/channels/$CHANNEL_PATH?subscribers=0" >"$WORK/channel.json"
  if [ "$(jq -r '.lastBroadcast.outcomes.applied // 0' "$WORK/channel.json")" = "$SUBSCRIBERS" ]; then APPLIED=$(now); break; fi
  sleep 0.05
done
[ -n "$APPLIED" ] || { echo "the broadcast was not applied to all $SUBSCRIBERS subscribers:" >&2; cat "$WORK/channel.json" >&2; exit 1; }
APPLY_SECONDS=$(jq -r .lastBroadcast.applySeconds "$WORK/channel.json")

echo "broadcast answered (livepush send: process start, TLS, JWT, request) after $(elapsed "$SENT" "$ANSWERED") s"
echo "all $SUBSCRIBERS subscribers applied it $(elapsed "$SENT" "$APPLIED") s after the send started"
echo "simulator apply time for the broadcast: $(printf '%.3f' "$APPLY_SECONDS") s"
echo "outcomes: $(jq -c .lastBroadcast.outcomes "$WORK/channel.json")"
echo "RSS: $RSS_START MB with one device and channel, $RSS_SUBSCRIBED MB with $SUBSCRIBERS subscribers, $(rss_mb VmRSS) MB after the broadcast (peak $(rss_mb VmHWM) MB)"
awk -v a="$RSS_START" -v b="$(rss_mb VmRSS)" -v n="$SUBSCRIBERS" 'BEGIN {printf "per subscriber: %.0f bytes\n", (b - a) * 1024 * 1024 / n}'
