#!/usr/bin/env python3
"""Analyse the games of a PGN file written by gobblet-match.

Replays each game through the rules (checking its Result tag), searches
every position, and lists the moves that lost the most against the
engine's choice.

    build/release/bin/gobblet-match ... --record games.pgn
    python3 examples/python/analyse_pgn.py games.pgn --depth 6 --threshold 100
"""

import argparse
import sys

import gobblet

RESULTS = {"1-0": "p1win", "0-1": "p2win", "1/2-1/2": "draw"}


def as_cp(score: gobblet.Score) -> int:
    """A score as one number for comparing moves: wins above every cp, faster first."""
    if score.kind == "mate":
        return (100000 - abs(score.value)) * (1 if score.value > 0 else -1)
    return score.value


def analyse(pgn: gobblet.PgnGame, args, engine):
    tags, moves = pgn.tags, pgn.moves
    variant = tags.get("Variant", args.variant)
    game = pgn.start(args.variant)  # the Variant and FEN tags
    print(f"game {tags.get('Round', '?')}: {tags.get('Player1', tags.get('White', '?'))} - "
          f"{tags.get('Player2', tags.get('Black', '?'))}, {variant}, {tags.get('Result', '*')}")
    engine.new_game()
    losses = []
    for ply, move in enumerate(moves, start=1):
        if game.is_over:
            print(f"  ply {ply}: {move} after the end ({game.end_reason})")
            break
        before = engine.search(game, depth=args.depth)
        try:
            game.play(move)
        except gobblet.IllegalMoveError as error:
            print(f"  ply {ply}: {error}")
            break
        after = engine.search(game, depth=args.depth)
        # The played move's value for its mover is minus the reply's score.
        played = -as_cp(after.score) if after.score else as_cp(before.score)
        losses.append((as_cp(before.score) - played, ply, move, before.best_move, before.score))
    for loss, ply, move, best, score in sorted(losses, reverse=True):
        if loss >= args.threshold and move != best:
            print(f"  ply {ply}: {move} loses {loss} against {best} ({score})")
    recorded = RESULTS.get(tags.get("Result", "*"))
    if game.result is not None and recorded is not None and recorded != game.result:
        print(f"  the Result tag says {recorded}, the rules {game.result} ({game.end_reason})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--threshold", type=int, default=50, help="report moves losing at least this (cp)")
    parser.add_argument("--variant", default="gobblet", help="for games without a Variant tag")
    args = parser.parse_args()
    engine = gobblet.Engine()
    for pgn in gobblet.read_pgn_file(args.pgn):
        if pgn.error is not None:
            print(f"game at line {pgn.line}: not read: {pgn.error}")
            continue
        analyse(pgn, args, engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
