#!/bin/sh
# The Elo of each Skill Level (search/skill.h), measured: every level against
# the level below it, the lower levels against the safe-move player (the
# anchor: `gobblet-fake-engine --mode safe`, a win in one if it has one, else
# a random move that gives no line in one), then one maximum-likelihood fit
# of all the games (tools/skill/fit_levels.py), the anchor rated ANCHOR_ELO.
#
#   tools/skill/measure_levels.sh BIN_DIR OUT_DIR [GAMES] [ANCHOR_GAMES] [MOVETIME] [CONCURRENCY] [TOP_GAMES]
#
# BIN_DIR holds gobblet, gobblet-match and gobblet-fake-engine (a build's
# bin/, tests included); OUT_DIR gets one record per match (a match already
# recorded there is resumed, not replayed: a larger GAMES adds games),
# levels.fit (the fit) and ladder.md (the table of docs/search.md). GAMES per
# pair of neighbouring levels (default 60), ANCHOR_GAMES per level against
# the anchor (default 30; from the level after two that won all of theirs
# on, no more: they tell nothing), MOVETIME seconds a move for every player
# (default 0.3, the board's shortest: natively the levels below 20 stop at
# their node budget before it, level 20 is full strength at that clock),
# CONCURRENCY games at a time (default 1), TOP_GAMES (default GAMES) per
# pair instead of GAMES from level 15 up, where a game takes seconds, not a
# fraction of one. ANCHOR_ELO (environment, default 500) is the anchor's
# rating. docs/search.md has the table and the command.
set -eu
usage="usage: $0 BIN_DIR OUT_DIR [GAMES] [ANCHOR_GAMES] [MOVETIME] [CONCURRENCY] [TOP_GAMES]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
bin=$1 out=$2 games=${3:-60} anchor_games=${4:-30} movetime=${5:-0.3} concurrency=${6:-1} top_games=${7:-${3:-60}}
anchor_elo=${ANCHOR_ELO:-500}
mkdir -p "$out"

engine() {  # the --engine words of a player: safe, or a level 0..20
  if [ "$1" = safe ]; then
    echo "cmd=$bin/gobblet-fake-engine --mode safe|name=safe"
  else
    echo "cmd=$bin/gobblet|name=L$1|option.Skill Level=$1|option.Hash=16"
  fi
}

play() {  # one match of $3 games between players $1 and $2; prints its summary line
  record="$out/$1-$2.txt"
  mode=--record
  [ -s "$record" ] && mode=--resume
  a=$(engine "$1") b=$(engine "$2")
  set -- --variant gobblet --games "$3" --random-plies 4 --seed 11 --movetime "$movetime" \
    --concurrency "$concurrency" --quiet "$mode" "$record" --engine
  old_ifs=$IFS
  IFS='|'
  for word in $a; do set -- "$@" "$word"; done
  set -- "$@" --engine
  for word in $b; do set -- "$@" "$word"; done
  IFS=$old_ifs
  "$bin/gobblet-match" "$@" | tail -1
}

level=0 perfect=0
while [ $level -le 20 ] && [ $perfect -lt 2 ]; do
  line=$(play safe $level "$anchor_games")
  echo "$line"
  # "safe vs Ln  games W D L ...": the anchor's wins and draws
  set -- $line
  if [ "$5" = 0 ] && [ "$6" = 0 ]; then perfect=$((perfect + 1)); else perfect=0; fi
  level=$((level + 1))
done
level=1
while [ $level -le 20 ]; do
  n=$games
  [ $level -ge 15 ] && n=$top_games
  play $((level - 1)) $level "$n"
  level=$((level + 1))
done
fit="$(dirname "$0")/fit_levels.py"
python3 "$fit" --anchor safe --anchor-elo "$anchor_elo" "$out"/*.txt | tee "$out/levels.fit"
python3 "$fit" --anchor safe --anchor-elo "$anchor_elo" --ladder "$out"/*.txt | tee "$out/ladder.md"
