#!/usr/bin/env python3
"""Generate labelled positions for training (one JSON object a line).

Plays games from randomised openings with the engine, and writes every
position with the engine's score and best move, the game's final outcome
from the side to move's view (+1 win, 0 draw, -1 loss), and, for a 3x3
variant given --tablebase, the exact value.

    python3 examples/python/generate_training_positions.py --variant gobblers --games 20 --depth 6 > data.jsonl
    python3 examples/python/generate_training_positions.py --variant tictactoe --tablebase tictactoe.gtb --games 5
"""

import argparse
import json
import random
import sys

import gobblet


def outcome_for(result: str, player: int) -> int:
    """+1 / 0 / -1: the final result from `player`'s view."""
    if result == "draw":
        return 0
    return 1 if result == f"p{player}win" else -1


def play_one(engine, args, rng, tablebase):
    """Plays a game; returns its positions' records (outcome filled at the end)."""
    game = gobblet.Game(args.variant)
    records = []
    for _ in range(args.random_plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    while not game.is_over and len(game.moves) < args.max_plies:
        result = engine.search(game, depth=args.depth)
        record = {
            "variant": game.variant.name,
            "position": game.position,
            "side_to_move": game.side_to_move,
            "best_move": result.best_move,
            "score": str(result.score),
            "legal_moves": game.legal_moves(),
        }
        if tablebase is not None:
            probe = tablebase.probe(game)
            record["tablebase"] = {"value": probe.value, "distance": probe.distance}
        records.append(record)
        game.play(result.best_move)
    for record in records:
        record["outcome"] = outcome_for(game.result, record["side_to_move"]) if game.result else None
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="gobblers")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--depth", type=int, default=5, help="search depth per position")
    parser.add_argument("--random-plies", type=int, default=2, help="random moves opening each game")
    parser.add_argument("--max-plies", type=int, default=200, help="games longer than this are cut (outcome null)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tablebase", help="a tablebase file of the variant: exact labels")
    parser.add_argument("--output", help="file to write (default: stdout)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    engine = gobblet.Engine()
    tablebase = gobblet.Tablebase(args.tablebase) if args.tablebase else None
    out = open(args.output, "w") if args.output else sys.stdout
    written = 0
    with out:
        for _ in range(args.games):
            engine.new_game()
            for record in play_one(engine, args, rng, tablebase):
                out.write(json.dumps(record) + "\n")
                written += 1
    print(f"{written} positions from {args.games} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
