"""gobblet.puzzles(), check_puzzle() and check_puzzles(): the puzzle set with proofs from Python."""
import shutil

import pytest

import gobblet


@pytest.fixture(scope="module")
def shipped():
    return gobblet.puzzles()


def test_the_package_ships_at_least_500_graded_puzzles(shipped):
    assert len(shipped) >= 500
    assert [p.id for p in shipped] == list(range(1, len(shipped) + 1))
    assert {p.rating for p in shipped} <= {1, 2, 3, 4, 5}
    assert [p.rating for p in shipped] == sorted(p.rating for p in shipped)  # easiest first


def test_a_puzzles_line_is_played_from_its_game_to_the_solvers_win(shipped):
    for puzzle in shipped[:: max(1, len(shipped) // 25)]:
        game = puzzle.game()
        assert game.position == puzzle.position
        assert puzzle.line[0] == puzzle.solution and len(puzzle.line) == puzzle.plies
        solver = "p1win" if puzzle.position.endswith(" 1") else "p2win"
        for move in puzzle.line:
            game.play(move)
        assert game.result == solver, puzzle


def test_one_puzzle_checks_by_the_rules_alone(shipped):
    report = gobblet.check_puzzle(shipped[0])
    assert report["accepted"], report
    assert report["alternatives"] > 0 and report["nodes"] > 0


def test_a_damaged_set_is_rejected_and_a_bad_line_named(tmp_path, shipped):
    folder = tmp_path / "set"
    shutil.copytree(gobblet._PUZZLES_FOLDER, folder)
    assert gobblet.check_puzzles(folder)["accepted"] is True
    with open(folder / "proofs.bin", "r+b") as proofs:
        proofs.seek(200)
        byte = proofs.read(1)
        proofs.seek(200)
        proofs.write(bytes([byte[0] ^ 1]))
    report = gobblet.check_puzzles(folder)
    assert report["accepted"] is False
    assert report["rejections"] and report["rejections"][0].startswith("puzzle 1: "), report
    assert gobblet.check_puzzle(shipped[0], folder)["accepted"] is False

    text = (folder / "puzzles.txt").read_text().splitlines()
    first = next(i for i, line in enumerate(text) if not line.startswith("#"))
    fields = text[first].split("\t")
    fields[1] = "9"
    text[first] = "\t".join(fields)
    (folder / "puzzles.txt").write_text("\n".join(text) + "\n")
    with pytest.raises(ValueError, match=f"puzzles line {first + 1}: rating \"9\" is not 1 to 5"):
        gobblet.puzzles(folder / "puzzles.txt")


def test_a_missing_set_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        gobblet.puzzles(tmp_path)
    with pytest.raises(FileNotFoundError):
        gobblet.check_puzzles(tmp_path)
