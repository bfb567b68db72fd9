"""The programs of examples/python run and say what they should."""

import json
import subprocess
import sys

import gobblet
from conftest import REPOSITORY

EXAMPLES = REPOSITORY / "examples" / "python"


def run(*args):
    return subprocess.run([sys.executable, *map(str, args)], check=True, capture_output=True, text=True).stdout


def test_self_play_of_perfect_tictactoe_ends_as_the_tablebase_says(tmp_path):
    counts = gobblet.build_tablebase("tictactoe", str(tmp_path / "t.gtb"))
    output = run(EXAMPLES / "play_against_engine.py", "--variant", "tictactoe", "--self-play", "--depth", "9")
    expected = {"draw": "draw", "win": "p1win", "loss": "p2win"}[counts.start.value]
    assert output.splitlines()[-1].startswith(expected + ":")


def test_generated_positions_carry_labels(tmp_path):
    table = tmp_path / "t.gtb"
    gobblet.build_tablebase("tictactoe", str(table))
    out = tmp_path / "data.jsonl"
    run(EXAMPLES / "generate_training_positions.py", "--variant", "tictactoe", "--games", "2", "--depth", "3",
        "--tablebase", table, "--output", out)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records
    for record in records:
        game = gobblet.Game(record["variant"], position=record["position"])
        assert record["best_move"] in game.legal_moves()
        assert record["tablebase"]["value"] in ("win", "draw", "loss")
        assert record["outcome"] in (-1, 0, 1)


def write_pgn(path, game, result):
    path.write_text('[Event "gobblet-match"]\n[Round "1"]\n[Player1 "a"]\n[Player2 "b"]\n'
                    f'[Result "{result}"]\n[Variant "{game.variant.name}"]\n[FEN "{game.start_position}"]\n\n'
                    + " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(game.moves))
                    + f" {result}\n")


def test_pgn_analysis_replays_the_games_and_checks_their_result(tmp_path):
    game = gobblet.Game("tictactoe", moves=["S@a1", "S@a2", "S@b1", "S@b2", "S@c1"])
    assert game.result == "p1win"
    pgn = tmp_path / "games.pgn"
    write_pgn(pgn, game, "1-0")
    output = run(EXAMPLES / "analyse_pgn.py", pgn, "--depth", "9")
    assert output.startswith(f"game 1: a - b, {game.variant.name}, 1-0")
    assert "Result tag" not in output and "illegal" not in output
    write_pgn(pgn, game, "0-1")
    assert "the Result tag says p2win, the rules p1win" in run(EXAMPLES / "analyse_pgn.py", pgn, "--depth", "2")
