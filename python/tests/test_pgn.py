"""PGN through the module: the match runner's reader and writer (match/pgn.h)."""

import pytest

import gobblet

MOVES = ["L@b2", "S@a1", "L@a3", "S@c1", "M@b1", "M@b3"]


def test_a_written_game_reads_back_with_its_tags_and_moves():
    game = gobblet.Game("gobblers", moves=MOVES)
    text = gobblet.write_pgn(game, player1="me", player2="you", round=3, date="2026.01.02")
    assert text.startswith('[Event "gobblet"]\n[Date "2026.01.02"]\n[Round "3"]\n[Player1 "me"]\n')
    [read] = gobblet.read_pgn(text)
    assert read.error is None and read.line == 1
    assert game.result is None
    assert read.moves == game.moves and read.result == read.tags["Result"] == "*"
    assert (read.tags["Player2"], read.tags["Variant"], read.tags["FEN"]) == ("you", "gobblers", game.start_position)
    assert read.start() == gobblet.Game("gobblers")


def test_a_finished_game_carries_the_rules_result_and_replays():
    game = gobblet.Game("tictactoe", moves=["S@a1", "S@a2", "S@b1", "S@b2", "S@c1"])
    text = gobblet.write_pgn(game)
    [read] = gobblet.read_pgn(text)
    assert read.result == read.tags["Result"] == "1-0" and read.tags["Termination"] == "line"
    assert read.game() == game and read.game().result == "p1win"


def test_comments_variations_and_bad_games_are_read_as_the_match_runner_reads_them(tmp_path):
    text = ('[Event "x"]\n[Result "*"]\n[Variant "gobblers"]\n\n1. L@b2 {a comment} S@a1 (1... M@a1) $1 2. L@a3 *\n\n'
            '[Event "y"]\n[Result\n\n'
            '[Event "z"]\n[Result "0-1"]\n\n1. L@b2 0-1\n')
    first, bad, last = gobblet.read_pgn(text)
    assert first.moves == ["L@b2", "S@a1", "L@a3"] and first.game("gobblers").position_at(-1)
    assert bad.error and "line" in bad.error and bad.line == 7
    assert last.moves == ["L@b2"] and last.result == "0-1"
    with pytest.raises(ValueError, match="could not be read"):
        bad.game()
    with pytest.raises(gobblet.IllegalMoveError):
        gobblet.read_pgn('[Variant "gobblers"]\n\n1. L@b2 L@b2 *\n')[0].game()
    path = tmp_path / "games.pgn"
    path.write_text(text)
    assert [g.moves for g in gobblet.read_pgn_file(str(path))] == [g.moves for g in (first, bad, last)]
    with pytest.raises(FileNotFoundError):
        gobblet.read_pgn_file(str(tmp_path / "none.pgn"))
