"""Tablebase files through the module: build, open, probe, rank moves, and
the search's mate scores against them."""

import pytest

import gobblet
from conftest import interrupt


@pytest.fixture(scope="module")
def tictactoe(tmp_path_factory):
    path = tmp_path_factory.mktemp("tb") / "tictactoe.gtb"
    counts = gobblet.build_tablebase("tictactoe", str(path))
    return counts, gobblet.Tablebase(str(path))


def opposite(value):
    return {"win": "loss", "loss": "win", "draw": "draw"}[value]


def test_the_start_value_is_the_builders(tictactoe):
    counts, table = tictactoe
    assert table.variant == gobblet.Variant("tictactoe")
    start = table.probe(gobblet.Game("tictactoe"))
    assert (start.value, start.distance) == (counts.start.value, counts.start.distance)
    assert counts.states == counts.wins + counts.draws + counts.losses


def test_ranked_moves_agree_with_probing_each_child(tictactoe):
    _, table = tictactoe
    game = gobblet.Game("tictactoe", moves=["S@b2", "S@a1"])
    ranked = table.rank_moves(game)
    assert sorted(r.move for r in ranked) == sorted(game.legal_moves())
    order = {"win": 0, "draw": 1, "loss": 2}
    keys = [(order[r.value.value], r.value.distance if r.value.value == "win" else -r.value.distance)
            for r in ranked]
    assert keys == sorted(keys)
    for r in ranked:
        game.play(r.move)
        child = table.probe(game.position)
        game.undo()
        assert r.value.value == opposite(child.value)
        if child.value != "draw":
            assert r.value.distance == child.distance + 1


def test_the_search_proves_what_the_tablebase_says(tictactoe):
    _, table = tictactoe
    game = gobblet.Game("tictactoe")
    while table.probe(game).value == "draw":  # the first moves until a side can force a line
        game.play(game.legal_moves()[0])
    expected = table.probe(game)
    assert not game.is_over and expected.value in ("win", "loss")
    score = gobblet.Engine().search(game, depth=12).score
    assert score.kind == "mate"
    assert score.value == (expected.distance if expected.value == "win" else -expected.distance)


def test_the_engine_uses_a_tablebase(tictactoe):
    _, table = tictactoe
    engine = gobblet.Engine()
    engine.set_tablebase(table)
    result = engine.search(gobblet.Game("tictactoe", moves=["S@b2"]), depth=2)
    assert result.lines[0].tbhits > 0
    engine.set_tablebase(None)


def test_missing_file_raises_file_not_found_naming_it(tmp_path):
    missing = tmp_path / "nothing-here.gtb"
    with pytest.raises(FileNotFoundError, match="nothing-here.gtb"):
        gobblet.Tablebase(str(missing))


def test_a_file_that_is_not_a_tablebase_raises(tmp_path):
    bad = tmp_path / "bad.gtb"
    bad.write_bytes(b"not a tablebase at all" * 10)
    with pytest.raises(gobblet.TablebaseError, match="bad.gtb"):
        gobblet.Tablebase(str(bad))


def test_bad_positions_raise(tictactoe):
    _, table = tictactoe
    with pytest.raises(gobblet.PositionError, match="3/3/3 9"):
        table.probe("3/3/3 9")
    with pytest.raises(gobblet.VariantError, match="gobblers"):
        table.probe(gobblet.Game("gobblers"))
    with pytest.raises(gobblet.VariantError, match="gobblet"):
        gobblet.build_tablebase("gobblet", "/nonexistent/x.gtb")


def test_ctrl_c_stops_a_build_without_a_file(tmp_path):
    # Gobblers takes a minute or more here: SIGINT (Ctrl-C) must raise
    # KeyboardInterrupt soon and leave no file (it ran on to the end).
    path = tmp_path / "gobblers.gtb"
    out, seconds = interrupt(f"gobblet.build_tablebase('gobblers', {str(path)!r}, threads=2)")
    assert out == "interrupted\n"
    assert seconds < 30
    assert list(tmp_path.iterdir()) == []
