#!/usr/bin/env python3
"""Play a game of Gobblet against the engine in the terminal.

    python3 examples/python/play_against_engine.py --variant gobblers --movetime-ms 500
    python3 examples/python/play_against_engine.py --engine-first
    python3 examples/python/play_against_engine.py --self-play --depth 4   # the engine against itself

Type moves in the notation of docs/notation.md ("L@b2" places a large piece
on b2, "a1b2" moves the top piece of a1 to b2); "undo" takes back your last
move and the engine's reply, "moves" lists the legal moves, "quit" ends.
"""

import argparse
import sys

import gobblet


def board_text(game: gobblet.Game) -> str:
    """The board, top rank first; each square shows its stack bottom to top."""
    side = game.variant.board_size
    names = game.variant.square_names
    stacks = dict(zip(names, game.stacks()))
    width = max(3, max(len(s) for s in stacks.values()))
    rows = []
    for rank in range(side, 0, -1):
        cells = [(stacks[f"{file}{rank}"] or ".").rjust(width) for file in "abcd"[:side]]
        rows.append(f"{rank} " + " ".join(cells))
    rows.append("  " + " ".join(f.rjust(width) for f in "abcd"[:side]))
    return "\n".join(rows)


def engine_move(engine: gobblet.Engine, game: gobblet.Game, args) -> str:
    result = engine.search(game, depth=args.depth, movetime_ms=None if args.depth else args.movetime_ms)
    print(f"engine plays {result.best_move}  (score {result.score}, depth {result.depth})")
    return result.best_move


def ask_move(game: gobblet.Game):
    """A legal move from the user, "undo", or None to quit."""
    while True:
        try:
            text = input(f"player {game.side_to_move} to move> ").strip()
        except EOFError:
            return None
        if text in ("quit", "q"):
            return None
        if text == "moves":
            print(" ".join(game.legal_moves()))
            continue
        if text == "undo":
            return text
        try:
            game.play(text)
            return text
        except gobblet.IllegalMoveError as error:
            print(f"  {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="gobblers", help="any name gobblet accepts (default gobblers)")
    parser.add_argument("--movetime-ms", type=int, default=1000, help="the engine's time per move")
    parser.add_argument("--depth", type=int, help="search to this depth instead of by time")
    parser.add_argument("--engine-first", action="store_true", help="the engine plays player 1")
    parser.add_argument("--self-play", action="store_true", help="the engine plays both sides")
    args = parser.parse_args()

    game = gobblet.Game(args.variant)
    engine = gobblet.Engine()
    engine_side = 1 if args.engine_first else 2
    while not game.is_over:
        print(board_text(game))
        if args.self_play or game.side_to_move == engine_side:
            game.play(engine_move(engine, game, args))
            continue
        answer = ask_move(game)
        if answer is None:
            return 0
        if answer == "undo":
            while game.moves:
                game.undo()
                if game.side_to_move != engine_side:
                    break
    print(board_text(game))
    print(f"{game.result}: {game.end_reason} after {len(game.moves)} moves: {' '.join(game.moves)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
