#!/usr/bin/python3
"""How far proofs reach in 4x4 Gobblet (docs/proof.md, "Reach"): the prover against the search on
positions of real self-play games, and how early in a game the prover proves its result.

  reach.py positions --pgn GAMES.pgn --out SET.txt [--games N] [--distances 3,7,11,15]
      picks the position set: in each decisive game (the first N), the positions with the winner
      to move d plies before the game's last move, for each d (d = 1 would be a win in one).
  reach.py shares --set SET.txt --budgets 1,10,60 --engine build/release/bin/gobblet [--prover-only]
      per position, the time the prover (one thread, 64 MiB) takes to prove the win and the time
      the search (`go movetime`, one thread, Hash 64) takes to report a mate for the side to move,
      each given the largest budget; prints the share of the set each proves within each budget.
  reach.py games --pgn GAMES.pgn --seconds 60 [--games N] [--skip K]
      per decisive game (the first N after the first K), the earliest ply from which the prover,
      given that many seconds a position, proves the game's result, stepping back from the end one
      ply at a time until a position is not proved; prints each game's and the median and best.
  reach.py draws --pgn GAMES.pgn --seconds 60 [--games N] [--skip K]
      the same for the drawn games: the earliest ply from which both players are proved not to lose
      (gobblet.prove_draw, that many seconds for each player), stepping back from the end.
  reach.py join --seconds 60 OUTPUT.txt...
      the rows of several `games` or `draws` outputs (a scan split with --skip, or stopped and taken
      up again), each game once, in order, and the summary over all of them.

Proof databases filled only from other games (docs/proof.md, "Reach"): the games fall into two
folds by the parity of their number in the file. `games --store-folds DIR` stores every proof of a
game of fold k in DIR/foldk.pdb; `games` and `shares` with `--db-folds DIR` prove the positions of a
game of fold k starting from the other fold's database (read only). `games --db-own DIR` proves each
game's positions from a database of its own, DIR/gameN.pdb, that stores every proof the scan makes
(the game's later positions, and what their strategies reach by a drop). Proving from a database,
`games` writes after each game's row what the database did for its proofs: how many it answered
(the position itself is an entry: no node searched) and how many of the others were searched to
its entries (their certificates have database leaves); `join` adds those lines up.

GAMES.pgn is gobblet-match's --record (PGN). Needs the gobblet Python module
(PYTHONPATH=build/python/python, docs/python.md). Tiny inputs are checked by python/tests/test_proof.py.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
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


class Folds:
    """The two folds' proof databases in DIR (fold0.pdb, fold1.pdb): a game's fold is the parity of
    its number in the file. `reading`: each opened read-only (they must exist), for the games of the
    other fold; else each opened for appending (made if missing), for the proofs of its own."""

    def __init__(self, folder, reading):
        paths = [f"{folder}/fold{k}.pdb" for k in (0, 1)]
        try:
            self.databases = [gobblet.ProofDatabase(p, variant="gobblet", writable=not reading) for p in paths]
        except (OSError, ValueError) as error:
            raise SystemExit(f"reach.py: {error}")
        self.reading = reading
        for p, db in zip(paths, self.databases):
            print(f"# {p}: {len(db)} entries, {'read only, for the other fold' if reading else 'stored to'}",
                  flush=True)

    def of(self, game_number):
        """The database the positions of game `game_number` are proved from (reading) or stored to."""
        fold = game_number % 2
        return self.databases[1 - fold if self.reading else fold]


def prove_in_scan(position, seconds, reading=None, storing=None):
    """gobblet.prove of a position with no history, one thread and 64 MiB, starting from `reading`
    (a ProofDatabase or None); a certified win or loss is stored in `storing` (or nowhere)."""
    proof = gobblet.prove(gobblet.Game("gobblet", position=position), seconds=seconds, hash_mib=64, threads=1,
                          database=reading)
    if storing is not None and proof.certified:
        storing.store(proof)
    return proof


def database_part(proof):
    """What the database did for a proof made from one: "answered" (the position is an entry: no
    node searched), "entries" (searched, and its certificate has database leaves: its version,
    bytes 8..11 after the magic, docs/proof.md "The certificate", is 2), "none" (searched, no
    database leaf), or "unread" (the certificate could not be written and read back: said on
    stderr, the scan goes on)."""
    if proof.nodes == 0:
        return "answered"
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "proof.gbproof")
            proof.write_certificate(path)
            with open(path, "rb") as f:
                header = f.read(12)
    except (OSError, gobblet.TablebaseError) as error:
        print(f"reach.py: a certificate not read back, not counted: {error}", file=sys.stderr, flush=True)
        return "unread"
    version = int.from_bytes(header[8:12], "little")
    if header[:8] != b"GBPROOF\n" or version not in (1, 2):
        raise SystemExit(f"reach.py: a certificate that is not one of version 1 or 2: {header!r}")
    return "entries" if version == 2 else "none"


PARTS = ("answered", "entries", "none", "unread")
PARTS_LINE = re.compile(r"# game (\d+): (\d+) proofs: (\d+) answered by the database, (\d+) searched to its "
                        r"entries, (\d+) without them(?:, (\d+) not read back)?\n?")


def parts_line(label, counts):
    """A `games` line of what the database did (database_part) for `counts` proofs."""
    return (f"# {label}: {sum(counts.values())} proofs: {counts['answered']} answered by the database, "
            f"{counts['entries']} searched to its entries, {counts['none']} without them" +
            (f", {counts['unread']} not read back" if counts["unread"] else ""))


def prover_seconds(position, budget, database=None):
    """Seconds the prover takes to prove the side to move wins, or None within `budget`."""
    proof = prove_in_scan(position, budget, reading=database)
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
    folds = Folds(args.db_folds, reading=True) if args.db_folds else None
    proved, mated = [], []
    print("game  d  prover(s)" + ("" if args.prover_only else "  search mate(s)"))
    for position, game, distance, _ in rows:
        p = prover_seconds(position, max(budgets), folds.of(game) if folds else None)
        s = None if args.prover_only else search_seconds(args.engine, position, max(budgets))
        proved.append(p)
        mated.append(s)
        print(f"{game:4} {distance:2}  {'-' if p is None else f'{p:.2f}':>9}" +
              ("" if args.prover_only else f"  {'-' if s is None else f'{s:.2f}':>14}"), flush=True)
    print(f"{len(rows)} positions: share proved by the prover" + ("" if args.prover_only else
                                                                  " / mate found by the search"))
    for b in budgets:
        a = sum(1 for t in proved if t is not None and t <= b)
        c = sum(1 for t in mated if t is not None and t <= b)
        print(f"  within {b:g} s: prover {a}/{len(rows)} ({100 * a / len(rows):.0f}%)" +
              ("" if args.prover_only else f", search {c}/{len(rows)} ({100 * c / len(rows):.0f}%)"))


GAMES_HEADER = "game  plies  earliest proved ply  (plies before the end)"


def game_row(number, plies, earliest):
    return f"{number:4} {plies:6}  {earliest:19}  ({plies - earliest})"


def print_summary(rows, seconds, drawn=False):
    """The summary of `games` rows [(game, plies, earliest proved ply)], or of `draws` rows (`drawn`),
    where the median and best are over the games with a proved draw."""
    if drawn:
        total = len(rows)
        rows = [row for row in rows if row[2] < row[1]]
        print(f"{total} drawn games, {seconds:g} s a player: a proved draw in {len(rows)}")
        if not rows:
            return
    earliest = [e for _, _, e in rows]
    before = [plies - e for _, plies, e in rows]
    print(f"{len(rows)} {'drawn games with a proved draw' if drawn else 'decisive games'}, {seconds:g} s a "
          f"{'player' if drawn else 'position'}: earliest proved ply median {statistics.median(earliest):g}, "
          f"best {min(earliest)}")
    print(f"plies before the end proved: median {statistics.median(before):g}, most {max(before)}")


def scan_back(moves, proved):
    """The earliest ply from which `proved(position)` holds at every position to the game's end,
    stepping back from the last move's position until it does not (len(moves) if it fails there)."""
    game = gobblet.Game("gobblet", moves=moves)
    first = len(moves)
    for ply in range(len(moves) - 1, -1, -1):
        if not proved(game.position_at(ply)):
            break
        first = ply
    return first


def cmd_games(args):
    if sum(1 for a in (args.store_folds, args.db_folds, args.db_own) if a) > 1:
        raise SystemExit("reach.py: --store-folds, --db-folds and --db-own exclude each other (a proof made "
                         "from one database names entries another lacks)")
    reading = Folds(args.db_folds, reading=True) if args.db_folds else None
    storing = Folds(args.store_folds, reading=False) if args.store_folds else None
    from_database = bool(args.db_folds or args.db_own)
    rows = []
    counted = dict.fromkeys(PARTS, 0)  # over the scan: what the database did for its proofs
    print(GAMES_HEADER)
    for number, winner, moves in decisive(read_games(args.pgn), args.games, args.skip):
        own = None
        if args.db_own:  # (prove() appends to a writable database what it proves)
            own = gobblet.ProofDatabase(f"{args.db_own}/game{number}.pdb", variant="gobblet", writable=True)
        parts = dict.fromkeys(PARTS, 0)  # this game's

        def proved(position):
            database = own if own is not None else reading.of(number) if reading else None
            proof = prove_in_scan(position, args.seconds, database, storing.of(number) if storing else None)
            ok = proof.outcome == ("win" if int(position.split()[-1]) == winner else "loss")
            if ok and from_database:
                parts[database_part(proof)] += 1
            return ok

        rows.append((number, len(moves), scan_back(moves, proved)))
        print(game_row(*rows[-1]), flush=True)
        if from_database:
            print(parts_line(f"game {number}", parts), flush=True)
            counted = {k: counted[k] + parts[k] for k in PARTS}
    if rows:
        print_summary(rows, args.seconds)
        if from_database:
            print(parts_line("all games", counted))


def cmd_draws(args):
    chosen = [(i + 1, moves) for i, (winner, moves) in enumerate(read_games(args.pgn)) if not winner][args.skip:]
    rows = []
    print(GAMES_HEADER)
    for number, moves in chosen[:args.games] if args.games else chosen:

        def proved(position):
            return gobblet.prove_draw(gobblet.Game("gobblet", position=position), seconds=args.seconds,
                                      hash_mib=64).drawn

        rows.append((number, len(moves), scan_back(moves, proved)))
        print(game_row(*rows[-1]), flush=True)
    if rows:
        print_summary(rows, args.seconds, drawn=True)


def cmd_join(args):
    games, parts = {}, {}
    for path in args.outputs:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = PARTS_LINE.fullmatch(line)
                if m:
                    counts = dict(zip(PARTS, (int(n or 0) for n in m.groups()[2:])))
                    if sum(counts.values()) != int(m[2]):
                        raise SystemExit(f"reach.py: {path}: a line that does not add up: {line.strip()}")
                    if parts.get(int(m[1]), counts) != counts:
                        raise SystemExit(f"reach.py: game {m[1]} twice, with different database lines")
                    parts[int(m[1])] = counts
                    continue
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
    if parts and (set(parts) != set(games) or args.drawn):
        raise SystemExit("reach.py: database lines for some games and not others (outputs of scans with and "
                         "without a database?)")
    rows = [(number, *games[number]) for number in sorted(games)]
    print(GAMES_HEADER)
    for row in rows:
        print(game_row(*row))
        if parts:
            print(parts_line(f"game {row[0]}", parts[row[0]]))
    print_summary(rows, args.seconds, drawn=args.drawn)
    if parts:
        print(parts_line("all games", {k: sum(c[k] for c in parts.values()) for k in PARTS}))


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
    p.add_argument("--prover-only", action="store_true", help="no search: the prover's times only")
    p.add_argument("--db-folds", metavar="DIR", help="prove from the other fold's database in DIR")
    p.set_defaults(run=cmd_shares)
    p = sub.add_parser("games")
    p.add_argument("--pgn", required=True)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--games", type=int, default=0, help="the first N decisive games (0: all)")
    p.add_argument("--skip", type=int, default=0,
                   help="leave out the first K decisive games (a scan split over processes or days)")
    p.add_argument("--store-folds", metavar="DIR", help="store each game's proofs in its fold's database in DIR")
    p.add_argument("--db-folds", metavar="DIR", help="prove from the other fold's database in DIR")
    p.add_argument("--db-own", metavar="DIR", help="prove from, and store in, a database of each game's own in DIR")
    p.set_defaults(run=cmd_games)
    p = sub.add_parser("draws")
    p.add_argument("--pgn", required=True)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--games", type=int, default=0, help="the first N drawn games (0: all)")
    p.add_argument("--skip", type=int, default=0, help="leave out the first K drawn games")
    p.set_defaults(run=cmd_draws)
    p = sub.add_parser("join")
    p.add_argument("--seconds", type=float, required=True, help="the seconds a position the outputs were made with")
    p.add_argument("--drawn", action="store_true", help="the outputs are of `draws`")
    p.add_argument("outputs", nargs="+")
    p.set_defaults(run=cmd_join)
    args = parser.parse_args(argv)
    start = time.monotonic()
    args.run(args)
    if args.command != "join":  # (join's time says nothing of the scan's)
        print(f"({time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
