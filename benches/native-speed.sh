#!/usr/bin/env bash
# Is the plain build as fast as one for this machine's processor?
#
# Builds `checkers` twice: plain (`cargo build --release`, into target/) and with
# RUSTFLAGS="-C target-cpu=native" (into target/native, its own folder so that neither
# build undoes the other), then runs `checkers analyse --depth DEPTH` from a few
# positions with each binary in turn, RUNS times each, alternating, so that both see the
# same load. Each run's speed is its nodes over its milliseconds, summed over the
# positions (one search thread), by the wall clock and by the processor time used; the
# report gives every run, the medians and their ratios, and checks that both builds
# searched the same nodes.
#
#   benches/native-speed.sh [DEPTH] [RUNS]     (defaults: 18 and 5)
#   NO_BUILD=1 benches/native-speed.sh ...     (compare the binaries already built)
#   NO_BUILD=1 PLAIN=a NATIVE=b benches/...    (compare two other binaries)
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-18}
runs=${2:-5}
plain=${PLAIN:-target/release/checkers}
native=${NATIVE:-target/native/release/checkers}
if [ -z "${NO_BUILD:-}" ]; then
    cargo build --release --bin checkers
    RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
        cargo build --release --bin checkers
fi
positions=(
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    "W:W17,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15"
    "B:W13,18,19,21,23,26,27,29,30,31,32:B1,2,3,5,6,7,8,10,12,14,16"
    "B:W18,20,22,24,27,28,31,K30:B3,5,9,11,12,16,K26"
)
# One run: the nodes and milliseconds (the search's own, wall clock) of the last depth of
# every position, summed, and the processor time the runs took (user + system, in ms):
# on a machine shared with other work the wall clock counts the time others took, the
# processor time does not.
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.time"' EXIT
TIMEFORMAT='%3U %3S'
run() {
    local nodes=0 ms=0 cpu=0 line user sys
    for fen in "${positions[@]}"; do
        { time "$1" analyse --fen "$fen" --depth "$depth" --threads 1 >"$tmp"; } 2>"$tmp.time"
        line=$(grep '^depth' "$tmp" | tail -1)
        nodes=$((nodes + $(sed -E 's/.* nodes ([0-9]+) .*/\1/' <<<"$line")))
        ms=$((ms + $(sed -E 's/.* time ([0-9]+) ms.*/\1/' <<<"$line")))
        read -r user sys <"$tmp.time"
        cpu=$((cpu + $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%d", (u + s) * 1000}')))
    done
    echo "$nodes $ms $cpu"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
ratio() { awk -v n="$1" -v p="$2" 'BEGIN {printf "%.3f", n / p}'; }
plain_nps=() native_nps=() plain_cpu=() native_cpu=()
for i in $(seq "$runs"); do
    read -r pn pms pcpu < <(run "$plain")
    read -r nn nms ncpu < <(run "$native")
    if [ "$pn" != "$nn" ]; then
        echo "run $i: the builds searched different nodes ($pn, $nn)" >&2
        exit 1
    fi
    plain_nps+=($((pn * 1000 / pms)))
    native_nps+=($((nn * 1000 / nms)))
    plain_cpu+=($((pn * 1000 / pcpu)))
    native_cpu+=($((nn * 1000 / ncpu)))
    echo "run $i: $pn nodes; plain ${pms} ms (${pcpu} ms processor): ${plain_nps[-1]} nodes/s," \
        "${plain_cpu[-1]} a processor second; native ${nms} ms (${ncpu} ms processor):" \
        "${native_nps[-1]} nodes/s, ${native_cpu[-1]} a processor second"
done
p=$(printf '%s\n' "${plain_nps[@]}" | median)
n=$(printf '%s\n' "${native_nps[@]}" | median)
pc=$(printf '%s\n' "${plain_cpu[@]}" | median)
nc=$(printf '%s\n' "${native_cpu[@]}" | median)
echo "median nodes/s (wall): plain $p, native $n; native / plain = $(ratio "$n" "$p")"
echo "median nodes a processor second: plain $pc, native $nc; native / plain = $(ratio "$nc" "$pc")"
