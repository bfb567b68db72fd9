"""The module's surface: errors for wrong keywords, readable signatures."""

import pydoc
import re

import pytest

import gobblet


@pytest.mark.parametrize("call, bad", [
    (lambda: gobblet.Engine().search(gobblet.Game("gobblers"), dpeth=3), "dpeth"),
    (lambda: gobblet.Engine(hashmib=16), "hashmib"),
    (lambda: gobblet.Game("gobblers", move=["L@b2"]), "move"),
    (lambda: gobblet.prove(gobblet.Game("gobblers"), node=10), "node"),
    (lambda: gobblet.build_tablebase("tictactoe", "/nonexistent/t.gtb", thread=1), "thread"),
])
def test_a_wrong_keyword_is_named_with_the_accepted_ones(call, bad):
    with pytest.raises(TypeError) as raised:
        call()
    message = str(raised.value)
    assert f"unexpected keyword argument '{bad}'" in message
    assert "incompatible" not in message and "Invoked with" not in message
    assert len(message) < 300, message


def test_a_wrong_keyword_lists_what_the_call_takes():
    with pytest.raises(TypeError, match="takes: game, depth, movetime_ms, nodes, mate"):
        gobblet.Engine().search(gobblet.Game("gobblers"), dpeth=3)


def test_help_names_no_cpp_or_private_types():
    for item in (gobblet.Engine, gobblet.Game, gobblet.Variant, gobblet.Tablebase, gobblet.PgnGame, gobblet.prove,
                 gobblet.build_tablebase, gobblet.read_pgn):
        text = pydoc.render_doc(item, renderer=pydoc.plaintext)
        assert not re.search(r"std::|gobblet::|_core\.", text), \
            [line for line in text.splitlines() if re.search(r"std::|gobblet::|_core\.", line)]
    assert gobblet.Engine.__module__ == "gobblet" and gobblet.VariantError.__module__ == "gobblet"
