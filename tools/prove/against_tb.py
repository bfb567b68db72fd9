#!/usr/bin/python3
"""The provers against the tablebases (docs/proof.md, "Against the tablebases"): every claim of
gobblet.prove and gobblet.prove_not_lost on a sample of positions, compared with the exact value
of a tablebase of the variant (docs/tablebase.md). A single disagreement is a prover bug.

  against_tb.py VARIANT TABLEBASE (--every K [--limit M] | --random N [--seed S])
                [--nodes N] [--not-lost-nodes N] [--seconds S] [--hash MIB]

The sample: --every K takes every K-th position (the first, the (K+1)-th, ...) of the variant's
reachable positions not over, in breadth-first order from the start (each position once, up to
--limit of them: for the small variants); --random N takes N distinct positions, each a position
picked at random in a game of random moves from the start (random.Random(S)). Each position is
taken alone, with no history, as the tablebase values it (a repetition only draws).

On each position: prove (--nodes, one thread) and prove_not_lost for player 1 and for player 2
(--not-lost-nodes each); --seconds caps each proof too. The claims and what the tablebase's value
(for the side to move) must be:

  prove win        a win           prove loss       a loss          prove draw   a draw
  player P held    no loss for P   player P lost    a loss for P

Prints a line per disagreement (the position, the claim, the tablebase's value), then the claims
made and how many agree, the share of the tablebase's wins proved won, losses proved lost and
draws proved drawn (both players held), and the time. Exit status 0 when every claim agrees, 1 on
any disagreement, 2 on bad input. Needs the gobblet Python module (docs/python.md). Tiny runs are
checked by python/tests/test_against_tablebase.py.
"""
import argparse
import collections
import random
import sys
import time

import gobblet

VALUES = ("win", "draw", "loss")
OTHER_SIDE = {"win": "loss", "draw": "draw", "loss": "win"}
# The claims in the order the summary lists them: (kind, what it says).
CLAIMS = (("win", "prove win"), ("loss", "prove loss"), ("draw", "prove draw"),
          ("held", "player P held"), ("lost", "player P lost"))


def reachable_positions(variant, every, limit):
    """Every `every`-th of the positions reachable from the start of `variant` and not over, in
    breadth-first order (the legal moves in the rules core's order), each position text once.
    Stops with SystemExit past `limit` positions (memory bounded: use a random sample)."""
    start = gobblet.Game(variant).position
    seen = {start}
    queue = collections.deque([start])
    order = []
    while queue:
        position = queue.popleft()
        order.append(position)
        game = gobblet.Game(variant, position=position)
        for move in game.legal_moves():
            game.play(move)
            child = game.position
            if child not in seen and not game.is_over:  # one move from no history: never a repetition
                if len(seen) >= limit:
                    raise SystemExit(f"against_tb.py: {variant} has more than {limit} reachable positions "
                                     f"(--limit): take --random N instead")
                seen.add(child)
                queue.append(child)
            game.undo()
    return order[::every]


def random_positions(variant, count, seed):
    """`count` distinct positions not over, each picked uniformly among the positions of a game of
    random moves from the start of `variant` (the game ends when it is over or after 400 plies);
    fewer (all that were found) when 1,000 games in a row found no new one."""
    rng = random.Random(seed)
    found = {}
    misses = 0
    while len(found) < count and misses < 1000:
        game = gobblet.Game(variant)
        positions = []
        while not game.is_over and len(positions) < 400:
            positions.append(game.position)
            game.play(rng.choice(game.legal_moves()))
        picked = rng.choice(positions)
        misses = misses + 1 if picked in found else 0
        found.setdefault(picked, None)
    return list(found)


def value_for(player, side_to_move, value):
    """The tablebase's `value` (for the side to move) as it is for `player` (1 or 2)."""
    return value if player == side_to_move else OTHER_SIDE[value]


def agrees(kind, player, side_to_move, value):
    """Whether a claim of `kind` (CLAIMS; `player` for held and lost) is true where the tablebase
    gives the side to move `value`."""
    if kind in ("win", "loss", "draw"):
        return value == kind
    lost = value_for(player, side_to_move, value) == "loss"
    return lost if kind == "lost" else not lost


class Tally:
    """What a comparison counted: per claim kind the claims made and those that disagree, per
    tablebase value the positions and those proved (won, lost, drawn by both players held), the
    seconds each prover took."""

    def __init__(self):
        self.made = collections.Counter()
        self.disagreements = collections.Counter()
        self.positions = collections.Counter()
        self.proved = collections.Counter()
        self.decided = 0
        self.seconds = collections.Counter()

    @property
    def disagreeing(self):
        return sum(self.disagreements.values())


def compare(variant, positions, value_of, budget, out=sys.stdout):
    """Runs the provers on each position of `positions` (texts of `variant`) and compares each
    claim with `value_of(game)`, the value for the side to move ("win", "draw" or "loss"). Writes a
    line to `out` per disagreement; returns the Tally. `budget`: nodes, not_lost_nodes, seconds,
    hash_mib."""
    tally = Tally()
    for position in positions:
        game = gobblet.Game(variant, position=position)
        value = value_of(game)
        if value not in VALUES:
            raise SystemExit(f"against_tb.py: the tablebase has no value for {position} ({value})")
        mover = game.side_to_move
        tally.positions[value] += 1
        claims = []
        proof = gobblet.prove(game, nodes=budget.nodes, seconds=budget.seconds, hash_mib=budget.hash_mib, threads=1)
        tally.seconds["prove"] += proof.seconds
        if proof.outcome != "unknown":
            claims.append((proof.outcome, None))
        held = 0
        for player in (1, 2):
            side = gobblet.prove_not_lost(game, player=player, nodes=budget.not_lost_nodes, seconds=budget.seconds,
                                          hash_mib=budget.hash_mib)
            tally.seconds["not lost"] += side.seconds
            if side.result != "unknown":
                claims.append((side.result, player))
            held += side.result == "held"
        for kind, player in claims:
            tally.made[kind] += 1
            if not agrees(kind, player, mover, value):
                tally.disagreements[kind] += 1
                claim = f"prove {kind}" if player is None else f"player {player} {kind}"
                print(f"disagreement: {position} ; {claim} ; tablebase {value} for the side to move (player {mover})",
                      file=out, flush=True)
        proved = proof.outcome in ("win", "loss") and proof.outcome == value or held == 2 and value == "draw"
        tally.proved[value] += proved
        tally.decided += proof.outcome in ("win", "loss") or held == 2
    return tally


def summary(tally, wall_seconds):
    """The summary's lines: the claims table, the coverage table and the time."""
    lines = ["claim           made   agree  disagree"]
    for kind, words in CLAIMS:
        made, wrong = tally.made[kind], tally.disagreements[kind]
        lines.append(f"{words:<13} {made:>6}  {made - wrong:>6}  {wrong:>8}")
    total = sum(tally.made.values())
    lines.append(f"{'all':<13} {total:>6}  {total - tally.disagreeing:>6}  {tally.disagreeing:>8}")
    lines.append("")
    lines.append("tablebase  positions  proved  coverage")
    for value, words in (("win", "won"), ("loss", "lost"), ("draw", "drawn (both players held)")):
        count, proved = tally.positions[value], tally.proved[value]
        share = f"{100 * proved / count:.1f}%" if count else "-"
        lines.append(f"{value:<9} {count:>10}  {proved:>6}  {share:>8}  {words}")
    count = sum(tally.positions.values())
    lines.append("")
    lines.append(f"{count} positions, {tally.decided} decided (won, lost or both players held); "
                 f"prove {tally.seconds['prove']:.2f} s, not lost {tally.seconds['not lost']:.2f} s, "
                 f"{wall_seconds:.2f} s in all")
    return lines


def main(argv, value_of=None, out=sys.stdout):
    """The command line; returns the exit status. `value_of` (a function of a Game) replaces the
    tablebase's probe (the tests give a wrong one); the tablebase file is opened and checked all
    the same."""
    parser = argparse.ArgumentParser(prog="against_tb.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", help="a variant name or family form (gobblers, tictactoe, 3x3:1,3,1, 4x4:2,2)")
    parser.add_argument("tablebase", help="its tablebase file (gobblet-tb build VARIANT --out FILE)")
    sample = parser.add_mutually_exclusive_group(required=True)
    sample.add_argument("--every", type=int, metavar="K", help="every K-th reachable position, breadth first")
    sample.add_argument("--random", type=int, metavar="N", help="N positions of random games")
    parser.add_argument("--seed", type=int, default=1, help="the random sample's seed (default 1)")
    parser.add_argument("--limit", type=int, default=2_000_000,
                        help="--every refuses a variant of more reachable positions (default 2000000)")
    parser.add_argument("--nodes", type=int, default=20_000, help="prove's budget a position (default 20000)")
    parser.add_argument("--not-lost-nodes", type=int, default=20_000,
                        help="prove_not_lost's budget a player (default 20000)")
    parser.add_argument("--seconds", type=float, default=None, help="a cap on each proof's time (default none)")
    parser.add_argument("--hash", type=int, default=16, dest="hash_mib", help="MiB a proof (default 16)")
    args = parser.parse_args(argv)
    for name in ("every", "random", "limit", "nodes", "not_lost_nodes", "hash_mib"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-').replace('hash-mib', 'hash')} must be at least 1")
    if args.seconds is not None and not args.seconds > 0:
        parser.error("--seconds must be more than 0")
    try:
        variant = gobblet.Variant(args.variant)
        tablebase = gobblet.Tablebase(args.tablebase)
    except (ValueError, OSError) as error:
        print(f"against_tb.py: {error}", file=sys.stderr)
        return 2
    if tablebase.variant != variant:
        print(f"against_tb.py: {args.tablebase} is a tablebase of {tablebase.variant.name}, not {variant.name}",
              file=sys.stderr)
        return 2
    started = time.monotonic()
    if args.every is not None:
        positions = reachable_positions(variant, args.every, args.limit)
        drawn = f"one reachable position in {args.every}"
    else:
        positions = random_positions(variant, args.random, args.seed)
        drawn = f"{args.random} random positions, seed {args.seed}"
    print(f"# {variant.name}, {args.tablebase}: {len(positions)} positions ({drawn}); prove {args.nodes} nodes, "
          f"not lost {args.not_lost_nodes} nodes a player, hash {args.hash_mib} MiB"
          + (f", at most {args.seconds} s a proof" if args.seconds else ""), file=out, flush=True)
    probe = value_of or (lambda game: tablebase.probe(game).value)
    tally = compare(variant, positions, probe, args, out)
    print("\n".join(summary(tally, time.monotonic() - started)), file=out)
    return 1 if tally.disagreeing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
