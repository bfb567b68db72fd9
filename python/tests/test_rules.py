"""The rules through the module: variants, positions, moves, results, perft."""

import copy
import subprocess

import pytest

import gobblet
from conftest import documented_perft, interrupt


def test_every_variant_name_the_engine_accepts_gives_its_variant():
    names = gobblet.variant_names(aliases=True)
    assert set(gobblet.variant_names()) <= set(names)
    for name in names:
        variant = gobblet.Variant(name)
        assert gobblet.Variant(variant.name) == variant
        assert gobblet.Variant(name.upper()) == variant
    assert gobblet.Variant("3x3:2,3,1").board_size == 3
    family = gobblet.Variant("4x4: 2, 3")
    assert (family.name, family.board_size, family.sizes, family.per_size) == ("4x4:2,3", 4, 2, 3)
    assert gobblet.Variant("4x4:4,3") == gobblet.Variant("gobblet")
    assert gobblet.Game("gobblers").variant == gobblet.Variant("gobblet gobblers")


def test_unknown_variant_raises_naming_it():
    with pytest.raises(gobblet.VariantError, match="chess"):
        gobblet.Variant("chess")
    with pytest.raises(ValueError, match="3x3:9,9,9"):
        gobblet.Game("3x3:9,9,9")


def test_position_text_round_trips_through_play():
    for name in gobblet.variant_names():
        game = gobblet.Game(name)
        assert game.position == game.variant.start_position
        while not game.is_over and len(game.moves) < 12:
            game.play(game.legal_moves()[len(game.moves) % len(game.legal_moves())])
            again = gobblet.Game(name, position=game.position)
            assert again.position == game.position
            assert again.key == game.key
            assert again.legal_moves() == game.legal_moves()


def test_bad_position_text_raises_naming_it():
    with pytest.raises(gobblet.PositionError, match="3/3/x3 1"):
        gobblet.Game("gobblers", position="3/3/x3 1")
    with pytest.raises(ValueError, match="4/4/4/4 1"):
        gobblet.Game("gobblers", position="4/4/4/4 1")


def test_illegal_move_raises_naming_it_and_changes_nothing():
    game = gobblet.Game("gobblers", moves=["L@b2"])
    before = (game.position, game.moves)
    with pytest.raises(gobblet.IllegalMoveError, match="S@b2"):
        game.play("S@b2")  # a small piece cannot cover a large one
    with pytest.raises(gobblet.IllegalMoveError, match="zz9"):
        game.play("zz9")
    assert (game.position, game.moves) == before


def test_play_and_undo_restore_the_position():
    game = gobblet.Game("gobblet")
    seen = []
    for i in range(10):
        seen.append((game.position, game.key, game.legal_moves()))
        game.play(game.legal_moves()[(7 * i) % len(game.legal_moves())])
    for position, key, moves in reversed(seen):
        game.undo()
        assert (game.position, game.key, game.legal_moves()) == (position, key, moves)
    with pytest.raises(IndexError):
        game.undo()


def test_copies_are_independent():
    game = gobblet.Game("gobblers", moves=["L@b2"])
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        other.play(other.legal_moves()[0])
        assert game.moves == ["L@b2"]


def test_a_line_ends_the_game():
    game = gobblet.Game("tictactoe")
    for move in ["S@a1", "S@a2", "S@b1", "S@b2"]:
        game.play(move)
        assert game.result is None and game.end_reason is None
    game.play("S@c1")
    assert game.is_over
    assert game.result == "p1win"
    assert game.end_reason == "a line of player 1"
    assert game.legal_moves() == []
    with pytest.raises(gobblet.GameOverError, match="already over"):
        game.play("S@c3")
    game.undo()
    assert game.result is None


def test_threefold_repetition_is_a_draw():
    game = gobblet.Game("gobblers", moves=["L@a1", "L@c3"])
    shuffle = ["a1a2", "c3c2", "a2a1", "c2c3"]
    for occurrence in (2, 3):
        for move in shuffle:
            assert not game.is_over
            game.play(move)
        assert game.occurrences == occurrence
    assert game.result == "draw"
    assert game.end_reason == "threefold repetition"
    assert game.legal_moves() == []


def test_stacks_and_pieces_in_hand():
    game = gobblet.Game("gobblers", moves=["S@a1", "L@a1"])
    stacks = game.stacks()
    names = game.variant.square_names
    assert stacks[names.index("a1")] == "Sl"
    assert all(stack == "" for name, stack in zip(names, stacks) if name != "a1")
    assert game.in_hand(1, "S") == game.variant.per_size - 1
    assert game.in_hand(2, "L") == game.variant.per_size - 1
    assert game.in_hand(2, "M") == game.variant.per_size
    with pytest.raises(ValueError, match="3"):
        game.in_hand(3, "S")
    with pytest.raises(ValueError, match="X"):
        game.in_hand(1, "X")  # gobblers has three sizes


@pytest.mark.parametrize("name", ["gobblers", "gobblet", "4x4:1,1", "4x4:2,2", "4x4:3,1"])
def test_perft_equals_the_documented_numbers(name):
    expected = documented_perft()[name]
    assert len(expected) >= 4
    for depth, leaves in enumerate(expected[:4], start=1):
        assert gobblet.perft(name, depth) == leaves
        assert gobblet.Game(name).perft(depth) == leaves


def python_perft(game, depth):
    """perft walked in Python with legal_moves, play and undo."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += python_perft(game, depth - 1)
        game.undo()
    return total


def test_perft_of_the_module_equals_a_walk_with_play_and_undo():
    game = gobblet.Game("gobblers", moves=["M@b2", "L@b2"])
    assert python_perft(game, 2) == game.perft(2)
    assert len(game.legal_moves()) == game.perft(1)


def test_perft_divide_equals_the_cpp_tool(cpp_program):
    position = gobblet.Game("gobblet", moves=["X@a1", "X@b2", "L@c3"]).position
    output = subprocess.run(
        [cpp_program("gobblet-perft"), "--variant", "gobblet", "--position", position, "3"],
        check=True, capture_output=True, text=True).stdout
    tool = {}
    for line in output.splitlines():
        word, count = line.split(": ") if ": " in line else line.split(" ")
        tool[word] = int(count)
    divide = gobblet.Game("gobblet", position=position).perft_divide(3)
    assert tool.pop("nodes") == sum(divide.values())
    assert tool == divide


def test_perft_depth_out_of_range_raises():
    with pytest.raises(ValueError, match="-1"):
        gobblet.perft("gobblers", -1)


@pytest.mark.parametrize("call", ["gobblet.perft('gobblet', 9)", "gobblet.Game('gobblet').perft_divide(9)"])
def test_ctrl_c_stops_a_perft(call):
    # A perft of hours: SIGINT (Ctrl-C) must raise KeyboardInterrupt soon,
    # as it does in a search (it ran on, the GIL released, never looking).
    out, seconds = interrupt(call)
    assert out == "interrupted\n"
    assert seconds < 30


def test_a_variant_has_its_registry_name_and_its_spec():
    tictactoe = gobblet.Variant("tic-tac-toe")
    assert (tictactoe.name, tictactoe.spec, str(tictactoe)) == ("tictactoe", "3x3:1,5,0", "tictactoe")
    assert repr(tictactoe) == "Variant('tictactoe')"
    assert gobblet.Variant(tictactoe.spec) == tictactoe
    assert (gobblet.Variant("gobblers").name, gobblet.Variant("gobblers").spec) == ("gobblers", "gobblers")
    family = gobblet.Variant("3x3:2,2,1")
    assert family.name == family.spec == "3x3:2,2,1"


def test_variant_piece_counts_have_clear_names_and_the_old_ones_stay():
    gobblet_4x4 = gobblet.Variant("gobblet")
    assert (gobblet_4x4.pieces_per_size, gobblet_4x4.stack_count, gobblet_4x4.external_stacks) == (3, 3, True)
    small = gobblet.Variant("4x4:2,1")
    assert (small.pieces_per_size, small.stack_count, small.external_stacks) == (1, 1, True)
    gobblers = gobblet.Variant("gobblers")
    assert (gobblers.pieces_per_size, gobblers.stack_count, gobblers.external_stacks) == (2, 0, False)
    for variant in (gobblet_4x4, small, gobblers):  # the old names, aliases
        assert (variant.per_size, variant.stacks) == (variant.pieces_per_size, variant.external_stacks)


def test_games_compare_by_their_moves_and_are_unhashable():
    game = gobblet.Game("gobblers", moves=["L@b2", "S@a1"])
    assert game == gobblet.Game("gobblet gobblers", moves=["L@b2", "S@a1"])
    assert game == game.copy()
    assert game != gobblet.Game("gobblers", moves=["L@b2"])
    assert game != gobblet.Game("gobblers", position=game.position)  # same position, another game
    assert game != gobblet.Game("tictactoe") and game != "gobblers"
    with pytest.raises(TypeError):
        hash(game)


def test_a_game_prints_as_a_board_diagram(cpp_program):
    moves = ["L@b2", "S@a1"]
    game = gobblet.Game("gobblers", moves=moves)
    picture = subprocess.run([cpp_program("gobblet")], input="setoption name Variant value gobblers\n"
                             "position startpos moves " + " ".join(moves) + "\nd\nquit\n",
                             capture_output=True, text=True, check=True).stdout
    assert str(game) == game.diagram()
    assert str(game).splitlines() == [line for line in picture.splitlines() if line.strip()][:len(str(game).splitlines())]
    assert " L " in str(game) and "position " + game.position in str(game)
