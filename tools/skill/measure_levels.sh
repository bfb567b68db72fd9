#!/bin/sh
# The Elo of each Skill Level (search/skill.h), measured: a ladder of
# gobblet-match matches, each level against the next two and the lowest
# ones against a uniformly random mover (the anchor, rated 0), then one
# maximum-likelihood fit of all the games (tools/skill/fit_levels.py).
#
#   tools/skill/measure_levels.sh BIN_DIR OUT_DIR [GAMES] [TC] [CONCURRENCY]
#
# BIN_DIR holds gobblet, gobblet-match and gobblet-fake-engine (a build's
# bin/, tests included); OUT_DIR gets one record per match (a match already
# recorded there is resumed, not replayed) and levels.fit, the fit. GAMES
# per match (default 20), TC per game (default 2+0.02), CONCURRENCY games
# at a time (default 2). docs/search.md has the table and the command.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BIN_DIR OUT_DIR [GAMES] [TC] [CONCURRENCY]" >&2; exit 2; }
bin=$1 out=$2 games=${3:-20} tc=${4:-2+0.02} concurrency=${5:-2}
mkdir -p "$out"

engine() {  # the --engine words of a player: random, or a level 0..20
  if [ "$1" = random ]; then
    echo "cmd=$bin/gobblet-fake-engine --mode random|name=random"
  else
    echo "cmd=$bin/gobblet|name=L$1|option.Skill Level=$1|option.Hash=16"
  fi
}

play() {  # one match between players $1 and $2
  record="$out/$1-$2.txt"
  mode=--record
  [ -s "$record" ] && mode=--resume
  a=$(engine "$1") b=$(engine "$2")
  set -- --variant gobblet --games "$games" --random-plies 4 --seed 11 --tc "$tc" --concurrency "$concurrency" \
    --quiet "$mode" "$record" --engine
  old_ifs=$IFS
  IFS='|'
  for word in $a; do set -- "$@" "$word"; done
  set -- "$@" --engine
  for word in $b; do set -- "$@" "$word"; done
  IFS=$old_ifs
  "$bin/gobblet-match" "$@" | tail -1
}

play random 0
play random 1
level=0
while [ $level -le 18 ]; do
  play $level $((level + 1))
  play $level $((level + 2))
  level=$((level + 1))
done
play 19 20
python3 "$(dirname "$0")/fit_levels.py" --anchor random "$out"/*.txt | tee "$out/levels.fit"
