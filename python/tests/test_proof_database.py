"""gobblet.ProofDatabase: a proof database read and extended from Python, checked whole, and the
prover starting from it."""
import pytest

import gobblet


def test_prove_extends_a_writable_database_and_the_next_proof_reads_it(tmp_path):
    path = str(tmp_path / "gobblers.pdb")
    db = gobblet.ProofDatabase(path, variant="gobblers", writable=True)
    assert (len(db), db.writable, db.variant.name, db.tail) == (0, True, "gobblers", None)
    game = gobblet.Game("gobblers")
    assert db.lookup(game) is None
    first = gobblet.prove(game, database=db)
    assert first.outcome == "win" and first.certified, first.note
    assert first.stored > 1  # the start and the positions its strategy reaches by a drop
    assert len(db) == first.stored
    winner, plies = db.lookup(game)
    assert winner == "side to move" and plies % 2 == 1, plies
    # The next proof of the same position is the stored one: no node searched, nothing new stored.
    again = gobblet.prove(game, database=db)
    assert (again.outcome, again.nodes, again.stored, again.move) == ("win", 0, 0, first.move)
    assert again.plies == plies
    # Read back by a reader of its own, and checked whole by the rules alone.
    reader = gobblet.ProofDatabase(path)
    assert (len(reader), reader.writable) == (len(db), False)
    assert reader.lookup(game)[0] == "side to move"
    report = reader.check()
    assert report["accepted"], report
    assert (report["variant"], report["entries"], report["bad_entry"]) == ("gobblers", len(db), None)
    assert report["won"] + report["lost"] == len(db)
    # A read-only database is read by the prover, and nothing is stored in it.
    read_only = gobblet.prove(game, database=reader)
    assert (read_only.outcome, read_only.nodes, read_only.stored) == ("win", 0, None)


def test_a_proof_is_stored_after_it_is_made_and_only_where_its_leaves_are_held(tmp_path):
    # Proved with no database, stored afterwards: the same entries prove() would have appended.
    game = gobblet.Game("gobblers")
    proof = gobblet.prove(game)
    assert proof.certified and proof.stored is None
    db = gobblet.ProofDatabase(str(tmp_path / "a.pdb"), variant="gobblers", writable=True)
    appended = db.store(proof)
    assert appended > 1 and len(db) == appended
    assert db.lookup(game)[0] == "side to move"
    assert db.store(proof) == 0  # held already
    # A position the database holds is proved from it, by a certificate that names its entries:
    # another database that lacks them refuses it.
    after = gobblet.Game("gobblers", moves=[proof.move])
    reply = after.legal_moves()[0]
    after.play(reply)
    from_db = gobblet.prove(after, database=gobblet.ProofDatabase(db.path))
    assert (from_db.outcome, from_db.nodes, from_db.certified) == ("win", 0, True)
    other = gobblet.ProofDatabase(str(tmp_path / "b.pdb"), variant="gobblers", writable=True)
    with pytest.raises(ValueError, match="ProofDatabase.store"):
        other.store(from_db)
    assert len(other) == 0
    assert db.store(from_db) == 0
    assert gobblet.ProofDatabase(db.path).check()["accepted"]
    # What cannot be stored.
    with pytest.raises(ValueError, match="reading only"):
        gobblet.ProofDatabase(db.path).store(proof)
    unknown = gobblet.prove(gobblet.Game("gobblet"), nodes=100)
    with pytest.raises(ValueError, match="no certified win or loss"):
        db.store(unknown)
    tictactoe = gobblet.ProofDatabase(str(tmp_path / "t.pdb"), variant="tictactoe", writable=True)
    with pytest.raises(ValueError, match="ProofDatabase.store"):
        tictactoe.store(proof)  # a certificate of another variant


def test_every_image_of_a_stored_position_is_found_with_its_winner(tmp_path):
    db = gobblet.ProofDatabase(str(tmp_path / "g.pdb"), variant="gobblers", writable=True)
    game = gobblet.Game("gobblers", moves=["L@b2"])
    proof = gobblet.prove(game, database=db)
    assert proof.outcome == "loss", proof.note
    winner, plies = db.lookup(game)
    assert winner == "other side" and plies % 2 == 0, plies
    # L@b2 L@a1 and its mirror image L@b2 L@c3 (a drop reaches each: stored with the proof).
    a1 = db.lookup(gobblet.Game("gobblers", moves=["L@b2", "L@a1"]))
    c3 = db.lookup(gobblet.Game("gobblers", moves=["L@b2", "L@c3"]))
    assert a1 is not None and a1 == c3
    assert a1[0] == "side to move"
    # By position text too; a game of another variant is refused.
    assert db.lookup(gobblet.Game("gobblers", moves=["L@b2", "L@c1"]).position) is not None
    with pytest.raises(gobblet.VariantError):
        db.lookup(gobblet.Game("gobblet"))


def test_a_cut_tail_is_dropped_and_the_checker_names_it(tmp_path):
    path = tmp_path / "g.pdb"
    db = gobblet.ProofDatabase(str(path), variant="gobblers", writable=True)
    assert gobblet.prove(gobblet.Game("gobblers"), database=db).stored > 1
    entries = len(db)
    del db
    path.write_bytes(path.read_bytes()[:-5])
    cut = gobblet.ProofDatabase(str(path))
    assert len(cut) == entries - 1
    assert cut.tail is not None and cut.tail["bytes"] > 0 and cut.tail["reason"], cut.tail
    report = cut.check()
    assert not report["accepted"] and report["bad_entry"] == entries - 1, report
    # Appending cuts the damaged tail and writes the proof again: a whole file once more.
    writer = gobblet.ProofDatabase(str(path), variant="gobblers", writable=True)
    assert gobblet.prove(gobblet.Game("gobblers"), database=writer).stored >= 1
    assert writer.check()["accepted"]


def test_bad_databases_are_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        gobblet.ProofDatabase(str(tmp_path / "missing.pdb"))
    with pytest.raises(ValueError, match="variant"):
        gobblet.ProofDatabase(str(tmp_path / "new.pdb"), writable=True)
    gobblet.ProofDatabase(str(tmp_path / "g.pdb"), variant="gobblers", writable=True)
    with pytest.raises(ValueError, match="not of gobblet"):
        gobblet.ProofDatabase(str(tmp_path / "g.pdb"), variant="gobblet")
    text = tmp_path / "notes.txt"
    text.write_text("not a proof database\n")
    with pytest.raises(ValueError):
        gobblet.ProofDatabase(str(text))
    with pytest.raises(gobblet.VariantError):
        gobblet.prove(gobblet.Game("gobblet"), database=gobblet.ProofDatabase(str(tmp_path / "g.pdb")))


def test_a_proved_draw_is_stored_and_looked_up_as_held(tmp_path):
    # After a corner, tic-tac-toe is a draw: both players' not-lost certificates stored as held entries.
    path = str(tmp_path / "t.pdb")
    db = gobblet.ProofDatabase(path, variant="tictactoe", writable=True)
    game = gobblet.Game("tictactoe", position="S2/3/3 2")
    draw = gobblet.prove_draw(game)
    assert draw.drawn
    assert db.lookup(game) is None
    assert db.store(draw) == 2 and len(db) == 2
    assert db.store(draw) == 0  # held already
    # Every image: a rotation, and the players exchanged.
    for position in ("S2/3/3 2", "2S/3/3 2", "s2/3/3 1"):
        assert db.lookup(gobblet.Game("tictactoe", position=position)) == ("draw", None), position
    # A win is never read from a held entry: the prover searches it.
    assert gobblet.prove(game, database=db).nodes > 0
    report = gobblet.ProofDatabase(path).check()
    assert report["accepted"], report
    assert (report["entries"], report["won"], report["lost"]) == (2, 0, 0)
    assert (report["held"], report["held_by_other"], report["drawn"]) == (1, 1, 1)
    # One player only: the side to move, with a line to make, holds; the other does not.
    one = gobblet.ProofDatabase(str(tmp_path / "one.pdb"), variant="tictactoe", writable=True)
    threat = gobblet.Game("tictactoe", position="SS1/ss1/3 1")
    assert one.store(gobblet.prove_not_lost(threat)) == 1
    assert one.lookup(threat) == ("side to move holds", None)
    assert one.lookup(gobblet.Game("tictactoe", position="ss1/SS1/3 2")) == ("side to move holds", None)
    with pytest.raises(ValueError, match="no player was proved to hold"):
        one.store(gobblet.prove_not_lost(threat, player=2))
    with pytest.raises(ValueError, match="reading only"):
        gobblet.ProofDatabase(path).store(draw)


def test_the_draw_provers_start_from_a_database_and_extend_it(tmp_path):
    # prove_draw(database=) appends both held entries; asked again, each side is answered from the
    # database (no position searched) and nothing is appended twice.
    path = str(tmp_path / "t.pdb")
    db = gobblet.ProofDatabase(path, variant="tictactoe", writable=True)
    game = gobblet.Game("tictactoe", position="S2/3/3 2")
    assert gobblet.prove_draw(game).stored is None  # no database, nothing stored
    draw = gobblet.prove_draw(game, database=db)
    assert draw.drawn and draw.stored == 2 and len(db) == 2
    assert db.lookup(game) == ("draw", None)
    again = gobblet.prove_draw(game, database=db)
    assert again.drawn and again.stored == 0
    assert [side.nodes for side in again.players] == [0, 0]
    one = gobblet.prove_not_lost(gobblet.Game("tictactoe", position="2S/3/3 2"), player=1, database=db)
    assert (one.result, one.nodes, one.stored) == ("held", 0, 0)  # an image of the stored position
    assert gobblet.ProofDatabase(path).check()["accepted"]
    # Read-only: answered from it, nothing stored; another variant's database is refused.
    read_only = gobblet.ProofDatabase(path)
    assert gobblet.prove_not_lost(game, database=read_only).stored is None
    with pytest.raises(gobblet.VariantError):
        gobblet.prove_draw(gobblet.Game("gobblers"), database=db)
