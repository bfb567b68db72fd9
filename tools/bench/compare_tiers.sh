#!/usr/bin/env bash
# Builds gobblet-bench and gobblet-perft for each instruction-set tier and
# measures them in one run, the tiers taking turns round by round so that a
# drift of the machine's speed touches all of them alike. Prints per tier
# the bench's node count (the same for every tier, or the build is wrong),
# the median bench nodes per CPU-second and perft leaves per second, and
# their ratios to the last tier named (native by default), and the net's
# speed against the hand-written evaluation's on the bench's 4x4
# positions at depth 8 (gobblet-bench 8 --hand-written; docs/nnue.md, "Speed").
# Usage: tools/bench/compare_tiers.sh [ROUNDS] [TIER...]
#   (default: 9 rounds; x86-64 x86-64-v2 x86-64-v3 x86-64-v4 native)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-9}"
shift || true
tiers=("$@")
((${#tiers[@]})) || tiers=(x86-64 x86-64-v2 x86-64-v3 x86-64-v4 native)
perft_depth=6

for tier in "${tiers[@]}"; do
  cmake -S . -B "build/tier-$tier" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DGOBBLET_ARCH="$tier" >/dev/null
  cmake --build "build/tier-$tier" -j "$(nproc)" --target gobblet-bench gobblet-perft >/dev/null
done

# gobblet_4x4_speed TIER [ARG...]: the 4x4 positions' nodes per CPU second of gobblet-bench 8 ARG...
gobblet_4x4_speed() {
  local tier="$1"
  shift
  "build/tier-$tier/bin/gobblet-bench" 8 --quiet "$@" | sed -n 's/^4x4 nodes\/CPU-s : *\([0-9]*\).*/\1/p'
}

results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for ((round = 1; round <= rounds; ++round)); do
  for tier in "${tiers[@]}"; do
    bench="$("build/tier-$tier/bin/gobblet-bench" 2>&1)"
    nodes="$(sed -n 's/^Nodes searched *: *//p' <<<"$bench")"
    nps="$(sed -n 's/^Nodes\/CPU-second: *\([0-9]*\).*/\1/p' <<<"$bench")"
    # The net against the hand-written evaluation: depth 8, four times the bench's nodes (a steadier ratio).
    net="$(gobblet_4x4_speed "$tier")"
    hand="$(gobblet_4x4_speed "$tier" --hand-written)"
    start="$(date +%s.%N)"
    "build/tier-$tier/bin/gobblet-perft" "$perft_depth" >/dev/null 2>&1
    end="$(date +%s.%N)"
    echo "$tier $nodes $nps $start $end $net $hand" >>"$results"
  done
done

python3 - "$results" "$perft_depth" "${tiers[@]}" <<'PY'
import statistics, subprocess, sys
path, depth, tiers = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
leaves = {6: 857840400}[depth]
rows = {t: [] for t in tiers}
for line in open(path):
    tier, nodes, nps, start, end, net, hand = line.split()
    rows[tier].append((int(nodes), int(nps), leaves / (float(end) - float(start)), int(net) / int(hand)))
base = tiers[-1]
med = {t: tuple(statistics.median(r[k] for r in rows[t]) for k in (1, 2, 3)) for t in tiers}
print(f"{'tier':<10} {'bench nodes':>11} {'bench nodes/CPU-s':>18} {'ratio':>6} {'perft 6 leaves/s':>17} {'ratio':>6} "
      f"{'net/hand-written':>16}")
for t in tiers:
    nodes = {r[0] for r in rows[t]}
    print(f"{t:<10} {'/'.join(map(str, nodes)):>11} {med[t][0]:>18,.0f} {med[t][0] / med[base][0]:>6.3f} "
          f"{med[t][1]:>17,.0f} {med[t][1] / med[base][1]:>6.3f} {med[t][2]:>16.3f}")
print(f"(medians of {len(rows[base])} rounds; ratios to {base}; net/hand-written: the bench's 4x4 positions'\n"
      " nodes per CPU second at depth 8 with the net over those with the hand-written evaluation, the same round's)")
PY
