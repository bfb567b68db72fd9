"""The Engine is gobblet's own: the same evaluation, the same search under
clock limits, the same default tablebase; and the Game's positions by ply,
the tablebase build's threads and progress."""

import subprocess

import pytest

import gobblet


def ask_gobblet(program, commands):
    """What `gobblet` answers on stdin/stdout to `commands`, read until it is
    ready and, after a `go`, until its best move (a `quit` would stop the
    search)."""
    searching = any(command.startswith("go") for command in commands)
    engine = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        engine.stdin.write("\n".join(commands + ["isready"]) + "\n")
        engine.stdin.flush()
        lines, ready, best = [], False, not searching
        while not (ready and best):
            line = engine.stdout.readline()
            assert line, f"gobblet ended early: {lines}"
            lines.append(line.rstrip("\n"))
            ready = ready or line.startswith("readyok")
            best = best or line.startswith("bestmove ")
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        engine.wait(timeout=60)
        return lines
    finally:
        if engine.poll() is None:
            engine.kill()


MOVES = ["X@b2", "X@a1", "X@c3", "X@d4", "X@a4"]


def test_evaluate_gives_what_the_eval_command_gives(cpp_program):
    game = gobblet.Game("gobblet", moves=MOVES)
    evaluation = gobblet.Engine().evaluate(game)
    lines = ask_gobblet(cpp_program("gobblet"), ["position startpos moves " + " ".join(MOVES), "eval"])
    total = [line for line in lines if line.startswith("info string eval total ")]
    assert total, lines
    assert int(total[0].split()[4]) == evaluation.total
    rows = {" ".join(line.split()[3:-3]): [int(cell) for cell in line.split()[-3:]]
            for line in lines if line.startswith("info string eval ") and line.split()[-1].lstrip("-").isdigit()
            and len(line.split()) >= 7 and line.split()[-3].lstrip("-").isdigit()}
    names = {"visible": "visible", "in_hand": "in hand", "captives": "captives", "lines": "lines",
             "line_safety": "line safety"}
    for term, (p1, p2) in evaluation.terms.items():
        assert rows[names[term]] == [p1, p2, p1 - p2], term
    assert sum(p1 - p2 for p1, p2 in evaluation.terms.values()) == evaluation.for_player1
    assert evaluation.side_to_move == 2


def test_a_search_with_clocks_gives_what_go_with_clocks_gives(cpp_program):
    # The depth makes both searches the same; the clocks, long enough not
    # to end either, must be taken as go takes them.
    game = gobblet.Game("gobblet", moves=MOVES)
    result = gobblet.Engine(hash_mib=16).search(game, p1time_ms=600000, p2time_ms=600000, p1inc_ms=1000,
                                                p2inc_ms=1000, depth=5)
    lines = ask_gobblet(cpp_program("gobblet"), [
        "setoption name Hash value 16", "position startpos moves " + " ".join(MOVES),
        "go p1time 600000 p2time 600000 p1inc 1000 p2inc 1000 depth 5"])
    best = [line.split()[1] for line in lines if line.startswith("bestmove ")]
    infos = [line for line in lines if line.startswith("info depth 5 ")]
    assert best == [result.best_move]
    assert infos and " score " + str(result.score) + " " in infos[-1]


def test_the_clock_ends_a_search_without_other_limits():
    game = gobblet.Game("gobblet", moves=MOVES[:4])  # player 1 to move
    result = gobblet.Engine().search(game, p1time_ms=2000, p2time_ms=2000)
    assert result.best_move in game.legal_moves()
    assert result.time_ms < 2000  # a share of the mover's time, not all of it
    # The mover's clock is the one that counts: ten minutes for the other
    # player do not lengthen a search whose mover has a second left.
    for moves, clocks in ((MOVES[:4], {"p1time_ms": 1000, "p2time_ms": 600000}),
                          (MOVES, {"p1time_ms": 600000, "p2time_ms": 1000})):
        position = gobblet.Game("gobblet", moves=moves)
        result = gobblet.Engine().search(position, **clocks)
        assert result.best_move in position.legal_moves()
        assert result.time_ms < 1000, (moves, clocks, result.time_ms)
    with pytest.raises(ValueError, match="p1time_ms is needed"):
        gobblet.Engine().search(game, p2time_ms=1000)
    with pytest.raises(ValueError, match="p1inc_ms -1"):
        gobblet.Engine().search(game, p1time_ms=1000, p1inc_ms=-1)


def test_the_default_tablebase_is_found_as_gobblet_finds_it(tmp_path, monkeypatch):
    monkeypatch.setenv("GOBBLET_TB_DIR", str(tmp_path))
    gobblet.build_tablebase("tictactoe", gobblet.default_tablebase_path("tictactoe"))
    game = gobblet.Game("tictactoe", moves=["S@b2"])

    engine = gobblet.Engine()
    result = engine.search(game, depth=3)
    assert any("loaded for 3x3:1,5,0" in message for message in engine.messages)  # tictactoe
    assert result.lines[0].tbhits > 0
    assert str(result.score) == "cp 0"  # a draw: the tablebase's value

    without = gobblet.Engine(tablebase=None)
    assert without.search(game, depth=3).lines[0].tbhits == 0
    assert not without.messages
    without.set_tablebase("default")
    assert without.search(game, depth=3).lines[0].tbhits > 0
    with pytest.raises(ValueError, match="default"):
        without.set_tablebase("elsewhere")


def test_a_tablebase_of_another_variant_is_not_used(tmp_path):
    path = tmp_path / "t.gtb"
    gobblet.build_tablebase("tictactoe", str(path))
    engine = gobblet.Engine(tablebase=gobblet.Tablebase(str(path)))
    assert engine.search(gobblet.Game("gobblers"), depth=2).lines[0].tbhits == 0
    assert any("not used" in message for message in engine.messages)
    assert engine.search(gobblet.Game("tictactoe"), depth=2).lines[0].tbhits > 0


def mapped_kib():
    """This process's mapped memory (VmSize), in KiB."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))


def test_the_hash_table_is_there_when_the_engine_is_made():
    # The table is mapped at construction (its pages become resident as a
    # search stores into them), not by the first search.
    before = mapped_kib()
    small = gobblet.Engine(hash_mib=16)
    small_growth = mapped_kib() - before
    before = mapped_kib()
    engine = gobblet.Engine(hash_mib=512)
    growth = mapped_kib() - before
    assert growth - small_growth >= 400 * 1024, (small_growth, growth)  # 496 MiB, less what else moved
    assert (engine.hash_mib, small.hash_mib) == (512, 16)
    with pytest.raises(ValueError, match="hash_mib 0"):
        gobblet.Engine(hash_mib=0)


def test_position_at_any_ply():
    game = gobblet.Game("gobblet", moves=MOVES)
    replay = gobblet.Game("gobblet")
    assert game.position_at(0) == game.start_position
    for ply, move in enumerate(MOVES, start=1):
        replay.play(move)
        assert game.position_at(ply) == replay.position
    assert game.position_at(-1) == game.position
    with pytest.raises(IndexError):
        game.position_at(len(MOVES) + 1)


def test_build_tablebase_reports_progress_on_every_core_by_default(tmp_path):
    heard = []
    counts = gobblet.build_tablebase("tictactoe", str(tmp_path / "t.gtb"),
                                     progress=lambda phase, done, total: heard.append((phase, done, total)))
    assert counts.states > 0
    assert heard
    assert all(isinstance(phase, str) and 0 <= done <= total for phase, done, total in heard)

    class Enough(Exception):
        pass

    def refuse(*_):
        raise Enough()

    with pytest.raises(Enough):
        gobblet.build_tablebase("tictactoe", str(tmp_path / "u.gtb"), threads=1, progress=refuse)


def test_build_tablebase_takes_the_threads_gobblet_tb_takes(tmp_path):
    # 100,000 threads aborted the interpreter; gobblet-tb takes 1 to 256.
    for threads in (0, 257, 100000):
        with pytest.raises(ValueError, match=f"threads {threads} must be from 1 to 256"):
            gobblet.build_tablebase("tictactoe", str(tmp_path / "t.gtb"), threads=threads)
    assert not (tmp_path / "t.gtb").exists()
    assert gobblet.build_tablebase("tictactoe", str(tmp_path / "t.gtb"), threads=256).states > 0


def test_each_line_carries_the_chances_gobblet_prints_with_uci_showwdl(cpp_program):
    game = gobblet.Game("gobblet", moves=MOVES)
    result = gobblet.Engine(hash_mib=16).search(game, depth=5)
    win, draw, loss = result.lines[0].wdl
    assert win + draw + loss == 1000 and min(win, draw, loss) >= 0
    lines = ask_gobblet(cpp_program("gobblet"), [
        "setoption name Hash value 16", "setoption name UCI_ShowWDL value true",
        "position startpos moves " + " ".join(MOVES), "go depth 5"])
    infos = [line for line in lines if line.startswith("info depth 5 ")]
    assert infos and f" score {result.lines[0].score} wdl {win} {draw} {loss} " in infos[-1]
    # A win in one is certain.
    won = gobblet.Game("gobblet", moves=["X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"])
    assert gobblet.Engine().search(won, depth=3).lines[0].wdl == (1000, 0, 0)


def test_the_net_evaluates_by_default_and_a_bad_net_file_is_refused(tmp_path):
    game = gobblet.Game("gobblet", moves=MOVES)
    engine = gobblet.Engine()
    assert engine.use_nnue is True and engine.eval_file == "<default>"
    with_net = engine.search(game, depth=1).lines[0].score.value
    engine.use_nnue = False
    classic = engine.search(game, depth=1).lines[0].score.value
    assert with_net != classic
    engine.use_nnue = True
    bad = tmp_path / "bad.gnn"
    bad.write_bytes(b"GOBNNUE\0" + bytes(100))
    with pytest.raises(ValueError, match="eval_file: option EvalFile: net file .*version 0"):
        engine.eval_file = str(bad)
    assert engine.eval_file == "<default>"
    assert engine.search(game, depth=1).lines[0].score.value == with_net


def eval_command_net(program, moves, *options):
    """The net's value the `eval` command prints ("info string eval net N (...)")."""
    lines = ask_gobblet(program, [*options, "position startpos moves " + " ".join(moves), "eval"])
    net = [line for line in lines if line.startswith("info string eval net ")]
    assert net, lines
    return int(net[0].split()[4]), net[0]


def test_evaluate_gives_the_evaluation_the_search_uses_the_net_when_it_is_on(cpp_program):
    game = gobblet.Game("gobblet", moves=MOVES)
    engine = gobblet.Engine()
    net, line = eval_command_net(cpp_program("gobblet"), MOVES)
    assert "the search uses it" in line
    evaluation = engine.evaluate(game)
    assert (evaluation.value, evaluation.source, evaluation.net) == (net, "net", net)
    assert evaluation.value != evaluation.total  # the hand-written total differs here
    assert repr(evaluation) == f"<Evaluation value {net} (net; player 2 to move)>"  # the value, not the total
    engine.use_nnue = False
    evaluation = engine.evaluate(game)
    assert (evaluation.value, evaluation.source, evaluation.net) == (evaluation.total, "hand-written", net)
    # A 3x3 game has no net.
    gobblers = gobblet.Engine().evaluate(gobblet.Game("gobblers"))
    assert (gobblers.value, gobblers.source, gobblers.net) == (gobblers.total, "hand-written", None)


def query_wdl(program, moves, *options):
    lines = ask_gobblet(program, [*options, "position startpos moves " + " ".join(moves), "query wdl"])
    response = [line for line in lines if line.startswith("response ")]
    assert response, lines
    return tuple(int(word) for word in response[0].split()[1:])


def test_chances_without_a_search_are_query_wdl(cpp_program, tmp_path):
    game = gobblet.Game("gobblet", moves=MOVES)
    chances = gobblet.Engine().chances(game)
    assert sum(chances) == 1000
    assert chances == query_wdl(cpp_program("gobblet"), MOVES)
    engine = gobblet.Engine(options={"Use NNUE": False})
    assert engine.chances(game) == query_wdl(cpp_program("gobblet"), MOVES, "setoption name Use NNUE value false")
    # Exact where the tablebase knows the value: tic-tac-toe is a draw.
    table = tmp_path / "t.gtb"
    gobblet.build_tablebase("tictactoe", str(table))
    exact = gobblet.Engine(tablebase=gobblet.Tablebase(str(table)))
    assert exact.chances(gobblet.Game("tictactoe")) == (0, 1000, 0)


def test_the_options_are_the_protocols_with_their_bounds_and_any_can_be_set(cpp_program):
    engine = gobblet.Engine()
    handshake = [line for line in ask_gobblet(cpp_program("gobblet"), ["ugi"]) if line.startswith("option name ")]
    assert [option.name for option in engine.options] == \
        [line[len("option name "):line.index(" type ")] for line in handshake]
    for option, line in zip(engine.options, handshake):
        words = line[line.index(" type "):].split()
        assert option.type == words[1], line
        if option.type == "spin":
            assert f"default {option.default} min {option.min} max {option.max}" in line
        elif option.type == "check":
            assert f"default {str(option.default).lower()}" in line and option.min is None
        elif option.type == "combo":
            assert " ".join(f"var {choice}" for choice in option.choices) in line
        assert engine.get_option(option.name) == option.default

    engine.set_option("MoveOverhead", 0)
    engine.set_option("uci_limitstrength", True)  # any case, as setoption
    elo = next(option for option in engine.options if option.name == "UCI_Elo")
    engine.set_option("UCI_Elo", elo.min)
    assert (engine.get_option("MoveOverhead"), engine.get_option("UCI_LimitStrength"),
            engine.get_option("UCI_Elo")) == (0, True, elo.min)
    # The options act on the engine, not only on what get_option says: the
    # lowest Elo is level 0, which searches one ply at most (search/skill.h).
    assert engine.search(gobblet.Game("gobblet", moves=MOVES), depth=4).depth <= 1
    assert engine.evaluate(gobblet.Game("gobblet", moves=MOVES)).source == "net"
    engine.set_option("Use NNUE", False)
    assert engine.evaluate(gobblet.Game("gobblet", moves=MOVES)).source == "hand-written"
    with pytest.raises(ValueError, match="MoveOverhead"):
        engine.set_option("MoveOverhead", 10001)
    with pytest.raises(TypeError, match="int"):
        engine.set_option("MoveOverhead", "fast")
    with pytest.raises(KeyError, match="Movetime.*MoveOverhead"):
        engine.set_option("Movetime", 1)
    assert gobblet.Engine(options={"MultiPV": 2}).search(gobblet.Game("gobblers"), depth=2).lines[1].multipv == 2


def test_a_missing_default_tablebase_is_said_in_the_messages(tmp_path, monkeypatch):
    monkeypatch.setenv("GOBBLET_TB_DIR", str(tmp_path))
    engine = gobblet.Engine()
    assert any("no tablebase built for gobblers" in message and "tictactoe" in message
               for message in engine.messages), engine.messages
    engine.search(gobblet.Game("3x3:2,2,1"), depth=2)
    assert any(message.startswith("no tablebase for 3x3:2,2,1: ") for message in engine.messages), engine.messages
    gobblet.build_tablebase("tictactoe", gobblet.default_tablebase_path("tictactoe"))
    built = gobblet.Engine()
    assert not any("tictactoe" in message for message in built.messages), built.messages
