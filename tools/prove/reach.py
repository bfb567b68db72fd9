#!/usr/bin/python3
"""How far proofs reach in 4x4 Gobblet (docs/proof.md, "Reach"): the prover against the search on
positions of real self-play games, and how early in a game the prover proves its result.

  reach.py positions --pgn GAMES.pgn --out SET.txt [--games N] [--distances 3,7,11,15]
      picks the position set: in each decisive game (the first N), the positions with the winner
      to move d plies before the game's last move, for each d (d = 1 would be a win in one).
  reach.py shares --set SET.txt --budgets 1,10,60 --engine build/release/bin/gobblet
      per position, the time the prover (one thread, 64 MiB) takes to prove the win and the time
      the search (`go movetime`, one thread, Hash 64) takes to report a mate for the side to move,
      each given the largest budget; prints the share of the set each proves within each budget.
  reach.py games --pgn GAMES.pgn --seconds 60 [--games N] [--skip K]
      per decisive game (the first N after the first K), the earliest ply from which the prover,
      given that many seconds a position, proves the game's result, stepping back from the end one
      ply at a time until a position is not proved; prints each game's and the median and best.
  reach.py join --seconds 60 OUTPUT.txt...
      the rows of several `games` outputs (a scan split with --skip, or stopped and taken up
      again), each game once, in order, and the summary over all of them.

GAMES.pgn is gobblet-match's --record (PGN). Needs the gobblet Python module
(PYTHONPATH=build/py/python, docs/python.md). Tiny inputs are checked by python/tests/test_proof.py.
"""
import argparse
import re
import statistics
import subprocess
import sys
import time

import gobblet

RESULT_WORDS = {"1-0": 1, "0-1": 2, "1/2-1/2": 0}


def read_games(path):
    """The games of a PGN file (gobblet's PGN reader, gobblet.read_pgn_file): [(winner 1|2|0 for a
    draw, [moves])], in order, the unfinished ones left out. Variations, comments and move numbers
    are skipped."""
    games = []
    for pgn in gobblet.read_pgn_file(path):
        if pgn.error is not None:
            raise SystemExit(f"reach.py: {path}: {pgn.error}")
        if pgn.result not in RESULT_WORDS:
            continue
        variant = pgn.tags.get("Variant")
        if variant is not None and gobblet.Variant(variant) != gobblet.Variant("gobblet"):
            raise SystemExit(f"reach.py: {path}: a game of {variant}, not 4x4 Gobblet")
        games.append((RESULT_WORDS[pgn.result], pgn.moves))
    return games


def decisive(games, limit, skip=0):
    """The decisive games as (number in the file, winner, moves): the first `limit` (0: all) after
    the first `skip`."""
    chosen = [(i + 1, winner, moves) for i, (winner, moves) in enumerate(games) if winner][skip:]
    return chosen[:limit] if limit else chosen


def cmd_positions(args):
    distances = [int(d) for d in args.distances.split(",")]
    lines = ["# position ; game ; plies before the last move ; the winner (to move)"]
    for number, winner, moves in decisive(read_games(args.pgn), args.games):
        game = gobblet.Game("gobblet", moves=moves)
        if game.result != ("p1win" if winner == 1 else "p2win"):
            raise SystemExit(f"reach.py: game {number}: the moves end in {game.result}, not the recorded result")
        for d in distances:
            ply = len(moves) - d
            if ply < 0:
                continue
            position = game.position_at(ply)
            if int(position.split()[-1]) != winner:
                raise SystemExit(f"reach.py: game {number}, {d} plies before the end: the winner is not to move")
            lines.append(f"{position} ; {number} ; {d} ; {winner}")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines) - 1} positions in {args.out}")


def read_set(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                position, game, distance, winner = (x.strip() for x in line.split(";"))
                rows.append((position, int(game), int(distance), int(winner)))
    return rows


def prover_seconds(position, budget):
    """Seconds the prover takes to prove the side to move wins, or None within `budget`."""
    proof = gobblet.prove(gobblet.Game("gobblet", position=position), seconds=budget, hash_mib=64, threads=1)
    return proof.seconds if proof.outcome == "win" else None


def search_seconds(engine, position, budget):
    """Seconds until the search first reports a mate for the side to move, or None within `budget`."""
    script = (f"setoption name Threads value 1\nsetoption name Hash value 64\nposition fen {position}\n"
              f"go movetime {int(budget * 1000)}\n")
    process = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    process.stdin.write(script)
    process.stdin.flush()
    found = None
    for line in process.stdout:
        m = re.search(r" score mate (\d+)\b.* time (\d+)", line)
        if m and found is None:
            found = int(m.group(2)) / 1000
        if line.startswith("bestmove"):
            break
    process.stdin.write("quit\n")
    process.stdin.close()
    process.wait(timeout=30)
    return found


def cmd_shares(args):
    budgets = [float(b) for b in args.budgets.split(",")]
    rows = read_set(args.set)
    proved, mated = [], []
    print("game  d  prover(s)  search mate(s)")
    for position, game, distance, _ in rows:
        p = prover_seconds(position, max(budgets))
        s = search_seconds(args.engine, position, max(budgets))
        proved.append(p)
        mated.append(s)
        print(f"{game:4} {distance:2}  {'-' if p is None else f'{p:.2f}':>9}  {'-' if s is None else f'{s:.2f}':>14}",
              flush=True)
    print(f"{len(rows)} positions: share proved by the prover / mate found by the search")
    for b in budgets:
        a = sum(1 for t in proved if t is not None and t <= b)
        c = sum(1 for t in mated if t is not None and t <= b)
        print(f"  within {b:g} s: prover {a}/{len(rows)} ({100 * a / len(rows):.0f}%), "
              f"search {c}/{len(rows)} ({100 * c / len(rows):.0f}%)")


GAMES_HEADER = "game  plies  earliest proved ply  (plies before the end)"


def game_row(number, plies, earliest):
    return f"{number:4} {plies:6}  {earliest:19}  ({plies - earliest})"


def print_summary(rows, seconds):
    """The summary of `games` rows [(game, plies, earliest proved ply)]."""
    earliest = [e for _, _, e in rows]
    before = [plies - e for _, plies, e in rows]
    print(f"{len(rows)} decisive games, {seconds:g} s a position: earliest proved ply median "
          f"{statistics.median(earliest):g}, best {min(earliest)}")
    print(f"plies before the end proved: median {statistics.median(before):g}, most {max(before)}")


def cmd_games(args):
    rows = []
    chosen = decisive(read_games(args.pgn), args.games, args.skip)
    print(GAMES_HEADER)
    for number, winner, moves in chosen:
        game = gobblet.Game("gobblet", moves=moves)
        first = None
        for ply in range(len(moves) - 1, -1, -1):
            position = game.position_at(ply)
            proof = gobblet.prove(gobblet.Game("gobblet", position=position), seconds=args.seconds, hash_mib=64,
                                  threads=1)
            side = int(position.split()[-1])
            want = "win" if side == winner else "loss"
            if proof.outcome != want:
                break
            first = ply
        rows.append((number, len(moves), first if first is not None else len(moves)))
        print(game_row(*rows[-1]), flush=True)
    if rows:
        print_summary(rows, args.seconds)


def cmd_join(args):
    games = {}
    for path in args.outputs:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.fullmatch(r" *(\d+) +(\d+) +(\d+) +\((\d+)\)\n?", line)
                if not m:
                    continue
                number, plies, earliest, before = map(int, m.groups())
                if before != plies - earliest or earliest > plies:
                    raise SystemExit(f"reach.py: {path}: a row that does not add up: {line.strip()}")
                if games.get(number, (plies, earliest)) != (plies, earliest):
                    raise SystemExit(f"reach.py: game {number} twice, with different rows")
                games[number] = (plies, earliest)
    if not games:
        raise SystemExit("reach.py: no rows of `reach.py games` in " + ", ".join(args.outputs))
    rows = [(number, *games[number]) for number in sorted(games)]
    print(GAMES_HEADER)
    for row in rows:
        print(game_row(*row))
    print_summary(rows, args.seconds)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--pgn", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--games", type=int, default=0, help="the first N decisive games (0: all)")
    p.add_argument("--distances", default="3,7,11,15")
    p.set_defaults(run=cmd_positions)
    p = sub.add_parser("shares")
    p.add_argument("--set", required=True)
    p.add_argument("--budgets", default="1,10,60")
    p.add_argument("--engine", default="build/release/bin/gobblet")
    p.set_defaults(run=cmd_shares)
    p = sub.add_parser("games")
    p.add_argument("--pgn", required=True)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--games", type=int, default=0, help="the first N decisive games (0: all)")
    p.add_argument("--skip", type=int, default=0,
                   help="leave out the first K decisive games (a scan split over processes or days)")
    p.set_defaults(run=cmd_games)
    p = sub.add_parser("join")
    p.add_argument("--seconds", type=float, required=True, help="the seconds a position the outputs were made with")
    p.add_argument("outputs", nargs="+")
    p.set_defaults(run=cmd_join)
    args = parser.parse_args(argv)
    start = time.monotonic()
    args.run(args)
    if args.command != "join":  # (join's time says nothing of the scan's)
        print(f"({time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
