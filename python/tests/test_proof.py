"""gobblet.prove() and gobblet.check_certificate(): the prover and its independent checker from Python."""
import re

import pytest

import gobblet

WIN_IN_ONE = ["X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"]  # player 1 makes rank 1 with L@d1


def test_a_win_in_one_is_proved_and_its_move_wins():
    game = gobblet.Game("gobblet", moves=WIN_IN_ONE)
    proof = gobblet.prove(game, nodes=100000)
    assert (proof.outcome, proof.plies) == ("win", 1), proof
    game.play(proof.move)
    assert game.result == "p1win"


def test_gobblers_start_is_proved_and_the_certificate_checks(tmp_path):
    game = gobblet.Game("gobblers")
    proof = gobblet.prove(game, nodes=2000000)
    assert proof.outcome == "win", proof.note
    assert proof.plies >= 13 and proof.plies % 2 == 1  # the tablebase's distance is 13 plies
    assert proof.move in game.legal_moves()
    assert proof.certified  # the checker accepted it before the answer
    path = tmp_path / "gobblers.proof"
    proof.write_certificate(str(path))
    report = gobblet.check_certificate(str(path))
    assert report["accepted"], report
    assert (report["variant"], report["winner"], report["nodes"]) == ("gobblers", "side to move",
                                                                     proof.certificate_nodes)
    assert report["plies"] == proof.plies
    # A certificate cut short is rejected, with the reason.
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 7])
    cut = gobblet.check_certificate(str(path))
    assert not cut["accepted"] and cut["reason"], cut


def test_an_unproved_position_is_unknown_and_has_no_certificate(tmp_path):
    proof = gobblet.prove(gobblet.Game("gobblet"), nodes=2000)
    assert (proof.outcome, proof.plies, proof.move, proof.certificate_nodes) == ("unknown", None, None, 0)
    assert proof.note
    with pytest.raises(ValueError, match="no certificate"):
        proof.write_certificate(str(tmp_path / "none.proof"))


def test_bad_calls_are_clear_errors():
    game = gobblet.Game("gobblet", moves=WIN_IN_ONE + ["L@d1"])
    with pytest.raises(gobblet.GameOverError):
        gobblet.prove(game)
    with pytest.raises(ValueError, match="threads"):
        gobblet.prove(gobblet.Game("gobblers"), threads=0)
    with pytest.raises(ValueError, match="seconds"):
        gobblet.prove(gobblet.Game("gobblers"), seconds=-1)
    with pytest.raises(ValueError, match="nodes"):
        gobblet.prove(gobblet.Game("gobblers"), nodes=0)  # None is no limit; 0 is no budget at all


def test_a_missing_certificate_file_raises_and_a_bad_one_is_rejected(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        gobblet.check_certificate(str(tmp_path / "none.proof"))
    assert raised.value.filename == str(tmp_path / "none.proof")
    bad = tmp_path / "bad.proof"
    bad.write_text("not a certificate\n")
    report = gobblet.check_certificate(str(bad))
    assert not report["accepted"] and report["reason"]


def test_tictactoe_is_proved_drawn_and_each_certificate_checks(tmp_path):
    draw = gobblet.prove_draw(gobblet.Game("tictactoe"))
    assert draw.drawn, draw.players
    first, second = draw.players
    assert (first.player, first.result, second.player, second.result) == (1, "held", 2, "held")
    assert first.certificate_nodes > 0 and second.certificate_nodes > 0
    draw.write_certificates(str(tmp_path / "t.proof"))
    for name, defender, player in (("t.proof.1", "side to move", first), ("t.proof.2", "other side", second)):
        report = gobblet.check_certificate(str(tmp_path / name))
        assert report["accepted"], report
        assert (report["kind"], report["defender"], report["winner"]) == ("not lost", defender, None)
        assert (report["variant"], report["nodes"]) == ("3x3:1,5,0", player.certificate_nodes)
    # A forged certificate (one byte of a node changed) is rejected, with the reason.
    forged = tmp_path / "t.proof.1"
    data = bytearray(forged.read_bytes())
    data[-3] ^= 0x01
    forged.write_bytes(bytes(data))
    report = gobblet.check_certificate(str(forged))
    assert not report["accepted"] and report["reason"], report


def test_a_lost_side_is_not_held_and_a_draw_is_not_claimed_for_it(tmp_path):
    # Tic-tac-toe, player 1 with two threats (b1 and c2), player 2 to move: lost.
    game = gobblet.Game("tictactoe", moves=["S@a1", "S@b2", "S@c3", "S@a3", "S@c1"])
    lost = gobblet.prove_not_lost(game)
    assert (lost.player, lost.result, lost.certificate_nodes) == (2, "lost", 0), lost
    assert gobblet.prove_not_lost(game, player=1).result == "held"
    draw = gobblet.prove_draw(game)
    assert not draw.drawn and draw.players[1].result == "lost" and draw.players[0] is None
    with pytest.raises(ValueError, match="no certificate"):
        lost.write_certificate(str(tmp_path / "none.proof"))
    with pytest.raises(ValueError, match="not proved drawn"):
        draw.write_certificates(str(tmp_path / "none.proof"))
    # Out of budget: unknown, with the reason.
    unknown = gobblet.prove_not_lost(gobblet.Game("gobblet"), nodes=100)
    assert unknown.result == "unknown" and unknown.note, unknown


def test_bad_not_lost_calls_are_clear_errors():
    over = gobblet.Game("gobblet", moves=WIN_IN_ONE + ["L@d1"])
    with pytest.raises(gobblet.GameOverError):
        gobblet.prove_not_lost(over)
    with pytest.raises(gobblet.GameOverError):
        gobblet.prove_draw(over)
    with pytest.raises(ValueError, match="player"):
        gobblet.prove_not_lost(gobblet.Game("tictactoe"), player=3)
    with pytest.raises(ValueError, match="nodes"):
        gobblet.prove_draw(gobblet.Game("tictactoe"), nodes=0)
    with pytest.raises(ValueError, match="hash_mib"):
        gobblet.prove_not_lost(gobblet.Game("tictactoe"), hash_mib=0)


def test_the_reach_tool_on_a_tiny_game(tmp_path, cpp_program):
    """tools/prove/reach.py (docs/proof.md, "Reach") on one decisive game and one draw: the set holds
    the decisive game's positions with the winner to move, the prover and the search both win the
    position one ply before the end, and the scan back from the end finds that position proved."""
    import subprocess
    import sys

    from conftest import REPOSITORY

    game = gobblet.Game("gobblet", moves=WIN_IN_ONE + ["L@d1"])
    drawn = gobblet.Game("gobblet", moves=["X@a1", "X@d4"])
    pgn = tmp_path / "games.pgn"
    for number, (g, result) in enumerate(((drawn, "1/2-1/2"), (game, "1-0")), 1):
        with pgn.open("a") as f:
            f.write(f'[Event "gobblet-match"]\n[Round "{number}"]\n[Result "{result}"]\n[Variant "gobblet"]\n\n'
                    + " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(g.moves))
                    + f" {result}\n\n")

    def reach(*args):
        return subprocess.run([sys.executable, str(REPOSITORY / "tools" / "prove" / "reach.py"), *map(str, args)],
                              check=True, capture_output=True, text=True).stdout

    positions = tmp_path / "set.txt"
    reach("positions", "--pgn", pgn, "--out", positions, "--distances", "1,3")
    rows = [line.split(" ; ") for line in positions.read_text().splitlines() if not line.startswith("#")]
    assert [(r[1], r[2], r[3]) for r in rows] == [("2", "1", "1"), ("2", "3", "1")]
    assert rows[0][0] == game.position_at(6)
    shares = reach("shares", "--set", positions, "--budgets", "1", "--engine", cpp_program("gobblet"))
    assert re.search(r"within 1 s: prover [12]/2 \(\d+%\), search [12]/2", shares), shares
    alone = reach("shares", "--set", positions, "--budgets", "1", "--prover-only")
    assert alone.startswith("game  d  prover(s)\n") and "search" not in alone, alone
    assert re.search(r"^   2  1 +\d+\.\d\d$", alone, re.M), alone
    scan = reach("games", "--pgn", pgn, "--seconds", "1")
    assert re.search(r"^1 decisive games, 1 s a position: earliest proved ply median \d+, best [0-6]$", scan, re.M), scan
    assert re.search(r"^   2      7 ", scan, re.M), scan  # game 2 of the file, 7 plies
    # A scan split over processes: the one decisive game skipped leaves none.
    skipped = reach("games", "--pgn", pgn, "--seconds", "1", "--skip", "1")
    assert "decisive games" not in skipped and not re.search(r"^ +2 ", skipped, re.M), skipped
    # The pieces joined: each game once, in order, the summary over all.
    rest = tmp_path / "rest.txt"
    rest.write_text("game  plies  earliest proved ply  (plies before the end)\n  9     40                   30  (10)\n")
    (tmp_path / "scan.txt").write_text(scan)
    joined = reach("join", "--seconds", "1", rest, tmp_path / "scan.txt", rest)
    assert re.findall(r"^ +(\d+) ", joined, re.M) == ["2", "9"], joined
    assert re.search(r"^2 decisive games, 1 s a position: earliest proved ply median \d+(\.5)?, best [0-6]$", joined,
                     re.M), joined
    assert re.search(r"^plies before the end proved: median \d+(\.5)?, most 10$", joined, re.M), joined
    rest.write_text("  9     40                   31  (9)\n")
    other = tmp_path / "other.txt"
    other.write_text("  9     40                   30  (10)\n")
    refused = subprocess.run([sys.executable, str(REPOSITORY / "tools" / "prove" / "reach.py"), "join", "--seconds", "1",
                              str(rest), str(other)], capture_output=True, text=True)
    assert refused.returncode != 0 and "game 9 twice" in refused.stderr, refused
    # The drawn game's scan: the position after its first move, where nothing is proved drawn.
    draws = reach("draws", "--pgn", pgn, "--seconds", "0.2")
    assert re.search(r"^   1      2                    2  \(0\)$", draws, re.M), draws
    assert "1 drawn games, 0.2 s a player: a proved draw in 0" in draws, draws
    # Databases from other games: a second copy of the decisive game (game 3, the other fold) is
    # proved from what the scan of game 2 stored, and the reverse.
    with pgn.open("a") as f:
        f.write(pgn.read_text().split("\n\n", 2)[2])  # game 2's text again
    folds = tmp_path / "folds"
    folds.mkdir()
    stored = reach("games", "--pgn", pgn, "--seconds", "1", "--store-folds", folds)
    assert re.search(r"fold0\.pdb: 0 entries, stored to", stored), stored
    assert len(gobblet.ProofDatabase(str(folds / "fold0.pdb"))) > 0 and len(
        gobblet.ProofDatabase(str(folds / "fold1.pdb"))) > 0
    assert gobblet.ProofDatabase(str(folds / "fold1.pdb")).check()["accepted"]
    from_other = reach("games", "--pgn", pgn, "--seconds", "1", "--db-folds", folds)
    assert re.search(r"fold1\.pdb: [1-9]\d* entries, read only, for the other fold", from_other), from_other
    assert re.findall(r"^ +(\d+) +7 ", from_other, re.M) == ["2", "3"], from_other
    assert "database entries" not in stored, stored  # a scan with no database to prove from says nothing of it
    # Each copy's one proof (the win in one) is an entry of the other fold: answered, nothing searched.
    for number in (2, 3):
        assert f"# game {number}: 1 proofs: 1 answered by the database, 0 searched to its entries, 0 without them\n" \
            in from_other, from_other
    shares = reach("shares", "--set", positions, "--budgets", "1", "--prover-only", "--db-folds", folds)
    assert re.search(r"within 1 s: prover [12]/2 \(\d+%\)$", shares, re.M), shares
    # A database of each game's own: the scan's proofs, stored as it goes back.
    own = tmp_path / "own"
    own.mkdir()
    reach("games", "--pgn", pgn, "--seconds", "1", "--games", "1", "--db-own", own)
    database = gobblet.ProofDatabase(str(own / "game2.pdb"))
    assert len(database) > 0 and database.check()["accepted"]
    assert database.lookup(game.position_at(6)) is not None  # the win in one, the scan's first proof
    # What a database does for a scan's proofs, counted: a game whose player 2 wins at ply 11. From a
    # database of its own, new, the scan proves plies 11 and 9 (each a win in one: no entry met) and
    # ply 10, whose refutation of player 1's L@b2 is ply 11's proof, an entry now (a database leaf);
    # the scan made again from the same database finds each position an entry (answered).
    line = ["X@b1", "X@a4", "L@d4", "L@b3", "X@c1", "X@a3", "X@d3", "L@c2", "L@c3", "X@a1", "L@b2", "L@a2"]
    assert gobblet.Game("gobblet", moves=line).result == "p2win"
    line_pgn = tmp_path / "line.pgn"
    line_pgn.write_text('[Round "1"]\n[Result "0-1"]\n\n' + " ".join(line) + " 0-1\n\n")
    line_own = tmp_path / "line_own"
    line_own.mkdir()
    scans = [reach("games", "--pgn", line_pgn, "--seconds", "1", "--db-own", line_own) for _ in range(2)]
    parts = ["3 proofs: 0 answered by the database, 1 searched to its entries, 2 without them",
             "3 proofs: 3 answered by the database, 0 searched to its entries, 0 without them"]
    for scan, part in zip(scans, parts):
        assert re.search(rf"^   1     12 +9  \(3\)\n# game 1: {part}\n", scan, re.M), scan
        assert f"\n# all games: {part}\n" in scan, scan
    assert "database" not in reach("games", "--pgn", line_pgn, "--seconds", "1")  # none to prove from
    # join keeps each game's line and adds them up; a game's two different lines are refused.
    outputs = [tmp_path / "scan1.txt", tmp_path / "scan2.txt"]
    for path, scan in zip(outputs, scans):
        path.write_text(scan)
    assert reach("join", "--seconds", "1", outputs[0], outputs[0]).endswith(f"# all games: {parts[0]}\n")
    clash = subprocess.run([sys.executable, str(REPOSITORY / "tools" / "prove" / "reach.py"), "join", "--seconds", "1",
                            *map(str, outputs)], capture_output=True, text=True)
    assert clash.returncode != 0 and "game 1 twice, with different database lines" in clash.stderr, clash
    both = subprocess.run([sys.executable, str(REPOSITORY / "tools" / "prove" / "reach.py"), "games", "--pgn", str(pgn),
                           "--store-folds", str(folds), "--db-folds", str(folds)], capture_output=True, text=True)
    assert both.returncode != 0 and "exclude each other" in both.stderr, both
