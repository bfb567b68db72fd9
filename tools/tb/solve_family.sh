#!/usr/bin/env bash
# Solves every variant of the 3x3 family that `gobblet-tb estimate` says
# fits this machine (memory and --max-seconds), and prints one Markdown row
# per variant for docs/tablebase.md: states, won-or-lost, start value,
# longest distance, wall time, peak memory and file size. Variants that do
# not fit get a row saying why.
#
#   tools/tb/solve_family.sh [--out DIR] [--max-seconds N] [--tb PATH/TO/gobblet-tb]
set -euo pipefail

out=build/tablebases
max_seconds=7200
tb=build/release/bin/gobblet-tb
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --max-seconds) max_seconds=$2; shift 2 ;;
    --tb) tb=$2; shift 2 ;;
    *) echo "usage: $0 [--out DIR] [--max-seconds N] [--tb PATH]" >&2; exit 2 ;;
  esac
done
[ -x "$tb" ] || { echo "$0: no $tb (build it: tools/setup.sh release)" >&2; exit 2; }
mkdir -p "$out"

field() { sed -n "s/^$1  *//p" <<<"$2" | head -1; }

variants=()
for sizes in 1 2 3; do
  for per_size in 1 2 3 4 5 6 7 8 9; do
    for moving in 0 1; do variants+=("3x3:$sizes,$per_size,$moving"); done
  done
done
# One estimate for all (it times the machine once), one block per variant in
# the same order (a block names the variant by its own name: gobblers).
estimates=$("$tb" estimate "${variants[@]}")

echo "| variant | states | won or lost | start | longest | wall time | peak memory | file |"
echo "|---|---|---|---|---|---|---|---|"
for i in "${!variants[@]}"; do
  variant=${variants[$i]}
  estimate=$(awk -v k=$((i + 1)) 'BEGIN { RS = "" } NR == k' <<<"$estimates")
  slots=$(field slots "$estimate" | cut -d' ' -f1)
  # "memory       55.01 GiB expected peak (17.44 GiB with the codes in a file; this machine has 23.5 GiB;"
  # (build keeps the codes in a file, beside the output, when they do not fit in memory)
  read -r need need_in_file have < <(sed -n \
    's/^memory *\([0-9.]*\) GiB.*(\([0-9.]*\) GiB with the codes in a file.*has \([0-9.]*\) GiB.*/\1 \2 \3/p' \
    <<<"$estimate")
  seconds=$(sed -n 's/^time *\([0-9]*\) s expected.*/\1/p' <<<"$estimate")
  if awk -v n="$need_in_file" -v h="$have" 'BEGIN { exit !(n > 0.9 * h) }'; then
    echo "| $variant | not solved: $slots slots need about $need GiB ($need_in_file GiB with the codes in a file)," \
         "this machine has $have GiB | | | | | | |"
    continue
  fi
  if [ "$seconds" -gt "$max_seconds" ]; then
    echo "| $variant | not solved: about $seconds s expected, more than $max_seconds s | | | | | | |"
    continue
  fi
  file="$out/$variant.tb"
  report=$("$tb" build "$variant" --out "$file" 2>/dev/null)
  bytes=$(stat -c %s "$file")
  echo "| $variant | $(field states "$report") | $(field 'won or lost' "$report") | $(field start "$report")" \
       "| $(field longest "$report") | $(field 'wall time' "$report") | $(field 'peak memory' "$report") | $bytes bytes |"
done
