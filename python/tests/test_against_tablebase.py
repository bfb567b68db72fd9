"""tools/prove/against_tb.py (docs/proof.md, "Against the tablebases"): the provers' claims against
the tablebases of tic-tac-toe and 3x3:1,3,1 (pieces move) agree, with wins, losses and draws
proved; a wrong oracle is caught, so the comparison compares something."""
import importlib.util
import io
import re

import pytest

import gobblet
from conftest import REPOSITORY


def load_tool():
    spec = importlib.util.spec_from_file_location("against_tb", REPOSITORY / "tools" / "prove" / "against_tb.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


against_tb = load_tool()


@pytest.fixture(scope="module")
def tablebases(tmp_path_factory):
    """{variant: its tablebase file}, built here (well under a second each)."""
    folder = tmp_path_factory.mktemp("tb")
    paths = {}
    for variant in ("tictactoe", "3x3:1,3,1"):
        paths[variant] = str(folder / (gobblet.Variant(variant).spec.replace(":", "-").replace(",", "-") + ".gtb"))
        gobblet.build_tablebase(variant, paths[variant], threads=1)
    return paths


def run(*args, value_of=None):
    """The tool's exit status and what it printed."""
    out = io.StringIO()
    status = against_tb.main([str(a) for a in args], value_of=value_of, out=out)
    return status, out.getvalue()


def table(text):
    """{claim or tablebase value: (its numbers)} from the summary's two tables."""
    rows = {}
    for words, numbers in re.findall(r"^(prove \w+|player P \w+|all|win|loss|draw) +((?:\d+ +)*\d+)", text, re.M):
        rows[words] = tuple(int(n) for n in numbers.split())
    return rows


@pytest.mark.parametrize("variant, every, positions", [("tictactoe", 15, 302), ("3x3:1,3,1", 40, 296)])
def test_every_claim_agrees_and_wins_losses_and_draws_are_proved(tablebases, variant, every, positions):
    status, out = run(variant, tablebases[variant], "--every", every, "--nodes", 2000, "--not-lost-nodes", 2000)
    assert status == 0 and "disagreement" not in out, out
    assert f": {positions} positions (one reachable position in {every})" in out, out
    rows = table(out)
    made, agree, disagree = rows["all"]
    assert made > 2 * positions and agree == made and disagree == 0, out
    for kind in ("prove win", "prove loss", "player P held", "player P lost"):
        assert rows[kind][0] > 0 and rows[kind][2] == 0, out
    for value in ("win", "loss", "draw"):
        count, proved = rows[value][:2]
        assert 0 < proved <= count, out  # a tablebase win proved won, a loss lost, a draw held by both
    assert sum(rows[value][0] for value in ("win", "loss", "draw")) == positions, out


def test_a_wrong_oracle_is_caught(tablebases):
    """Wins and losses swapped: every win, loss, held and lost claim that was true is now false, and
    each is said on its own line; a draw claim still agrees."""
    table_file = gobblet.Tablebase(tablebases["tictactoe"])

    def swapped(game):
        return against_tb.OTHER_SIDE[table_file.probe(game).value]

    status, out = run("tictactoe", tablebases["tictactoe"], "--every", 15, "--nodes", 2000, "--not-lost-nodes", 2000,
                      value_of=swapped)
    assert status == 1, out
    rows = table(out)
    for kind in ("prove win", "prove loss", "player P lost"):
        assert rows[kind][0] > 0 and rows[kind][2] == rows[kind][0], out
    assert 0 < rows["player P held"][2] < rows["player P held"][0], out  # a drawn side still holds
    assert rows["prove draw"][0] > 0 and rows["prove draw"][2] == 0, out
    lines = re.findall(r"^disagreement: (\S+ [12]) ; (prove \w+|player [12] \w+) ; tablebase (\w+) for the side to "
                       r"move \(player [12]\)$", out, re.M)
    assert len(lines) == rows["all"][2], out
    position, claim, value = lines[0]
    assert claim == "prove win" and value == "loss"
    assert gobblet.prove(gobblet.Game("tictactoe", position=position), nodes=2000).outcome == "win"
    # Everything a draw: the wins, losses and lost claims disagree.
    status, out = run("tictactoe", tablebases["tictactoe"], "--every", 15, "--nodes", 2000, value_of=lambda g: "draw")
    assert status == 1 and table(out)["prove loss"][2] > 0 and table(out)["player P lost"][2] > 0, out


def test_a_random_sample_is_the_seeds(tablebases):
    first = against_tb.random_positions(gobblet.Variant("3x3:1,3,1"), 60, seed=5)
    assert len(first) == len(set(first)) == 60
    assert against_tb.random_positions(gobblet.Variant("3x3:1,3,1"), 60, seed=5) == first
    assert against_tb.random_positions(gobblet.Variant("3x3:1,3,1"), 60, seed=6) != first
    assert not any(gobblet.Game("3x3:1,3,1", position=p).is_over for p in first)
    status, out = run("3x3:1,3,1", tablebases["3x3:1,3,1"], "--random", 60, "--seed", 5, "--nodes", 2000,
                      "--not-lost-nodes", 2000)
    assert status == 0 and ": 60 positions (60 random positions, seed 5)" in out, out
    # 3x3:1,1,0 has 10 positions not over (the start and a piece dropped): asked for more, the
    # sample is what was found.
    assert len(against_tb.random_positions(gobblet.Variant("3x3:1,1,0"), 20, seed=1)) == 10


def test_bad_input_is_refused(tablebases, capsys):
    assert run("gobblers", tablebases["tictactoe"], "--every", 1)[0] == 2
    assert "is a tablebase of tictactoe, not gobblers" in capsys.readouterr().err
    assert run("tictactoe", tablebases["tictactoe"] + ".missing", "--every", 1)[0] == 2
    assert ".missing" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="more than 100 reachable positions"):
        run("3x3:1,3,1", tablebases["3x3:1,3,1"], "--every", 1, "--limit", 100)
    with pytest.raises(SystemExit):
        run("tictactoe", tablebases["tictactoe"], "--every", 0)
    assert "--every must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run("tictactoe", tablebases["tictactoe"], "--every", 1, "--seconds", 0)
    assert "--seconds must be more than 0" in capsys.readouterr().err
