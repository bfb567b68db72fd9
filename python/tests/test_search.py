"""The search through the module: limits, MultiPV, callbacks, stop, GIL."""

import os
import subprocess
import sys
import threading
import time

import pytest

import gobblet


def test_a_depth_limited_search_returns_a_legal_move_and_its_line():
    game = gobblet.Game("gobblers", moves=["L@b2"])
    result = gobblet.Engine().search(game, depth=4)
    assert result.best_move in game.legal_moves()
    assert result.depth >= 4
    assert result.nodes > 0
    best = result.lines[0]
    assert best.pv[0] == result.best_move
    assert best.score.kind in ("cp", "mate")
    assert str(best.score).startswith(best.score.kind + " ")
    replay = game.copy()
    for move in best.pv:
        replay.play(move)  # the principal variation is legal


def test_multipv_gives_distinct_ranked_lines():
    game = gobblet.Game("gobblet")
    result = gobblet.Engine().search(game, depth=3, multipv=3)
    assert [line.multipv for line in result.lines] == [1, 2, 3]
    first_moves = [line.pv[0] for line in result.lines]
    assert len(set(first_moves)) == 3
    assert set(first_moves) <= set(game.legal_moves())


def test_the_callback_hears_each_iteration():
    heard = []
    gobblet.Engine().search(gobblet.Game("gobblet"), depth=4, callback=heard.append)
    depths = [line.depth for line in heard]
    assert depths == sorted(depths)
    assert set(range(1, 5)) <= set(depths)


class Refused(Exception):
    pass


def test_an_exception_in_the_callback_stops_the_search_and_propagates():
    engine = gobblet.Engine()

    def refuse(line):
        raise Refused(line.depth)

    with pytest.raises(Refused):
        engine.search(gobblet.Game("gobblet"), callback=refuse)  # no limit: only the exception ends it
    assert not engine.searching
    assert engine.search(gobblet.Game("gobblers"), depth=2).best_move is not None


def test_a_search_without_limits_is_stopped_from_another_thread():
    engine = gobblet.Engine()
    started = threading.Event()

    def stopper():
        started.wait()
        engine.stop()

    thread = threading.Thread(target=stopper)
    thread.start()
    game = gobblet.Game("gobblet")
    result = engine.search(game, callback=lambda line: started.set())
    thread.join()
    assert result.best_move in game.legal_moves()


def test_the_gil_is_released_while_searching():
    # No callback: the only Python code that can run during the search is
    # the other thread's, and only if the search released the GIL.
    engine = gobblet.Engine()

    def stopper():
        while not engine.searching:
            pass
        engine.stop()

    thread = threading.Thread(target=stopper)
    thread.start()
    result = engine.search(gobblet.Game("gobblet"), threads=2)
    thread.join()
    assert result.best_move is not None


def test_node_and_time_limits_end_the_search():
    game = gobblet.Game("gobblet")
    assert gobblet.Engine().search(game, nodes=2000).best_move in game.legal_moves()
    assert gobblet.Engine().search(game, movetime_ms=50).best_move in game.legal_moves()


def test_a_finished_game_has_no_best_move():
    game = gobblet.Game("tictactoe", moves=["S@a1", "S@a2", "S@b1", "S@b2", "S@c1"])
    result = gobblet.Engine().search(game, depth=3)
    assert result.best_move is None
    assert result.lines == []


def test_bad_limits_raise_naming_them():
    engine = gobblet.Engine()
    game = gobblet.Game("gobblers")
    with pytest.raises(ValueError, match="multipv 0"):
        engine.search(game, depth=2, multipv=0)
    with pytest.raises(ValueError, match="depth 0"):
        engine.search(game, depth=0)
    with pytest.raises(ValueError, match="threads 0"):
        gobblet.Engine(threads=0)
    # Beyond what `go` takes: refused as given, never wrapped round to a negative number.
    with pytest.raises(ValueError, match=f"nodes {2**64 - 1} must be from 1 to {2**62}"):
        engine.search(game, nodes=2**64 - 1)
    with pytest.raises(ValueError, match=f"movetime_ms {2**62} must be from 1 to {2**40}"):
        engine.search(game, movetime_ms=2**62)
    assert engine.search(game, nodes=2**62 - 1, depth=1).best_move in game.legal_moves()


@pytest.mark.parametrize("call", [
    "gobblet.Engine().search(gobblet.Game('gobblet'), movetime_ms=20000)",
    "gobblet.Engine(threads=2).search(gobblet.Game('gobblet'))",
    "gobblet.perft('gobblet', 9)",
    "gobblet.build_tablebase('gobblers', '', threads=2)",  # (no path: no file)
])
def test_a_daemon_thread_working_at_exit_ends_cleanly(call):
    # The interpreter exits while a daemon thread is in a long call: the
    # call is stopped and the process exits 0 (it died of SIGSEGV: the
    # process's static objects were destroyed under the call's threads).
    script = ("import os, threading, time, gobblet\n"
              f"threading.Thread(target=lambda: {call}, daemon=True).start()\n"
              "time.sleep(0.3)\n")
    for _ in range(3):
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
        assert done.returncode == 0, done.stderr
        assert time.monotonic() - started < 30


def test_skill_levels_weaken_the_engine_reproducibly():
    game = gobblet.Game("gobblet")
    game.play("X@d4")
    engine = gobblet.Engine(skill_level=3, skill_seed=1)
    assert (engine.skill_level, engine.skill_seed) == (3, 1)
    moves = set()
    for seed in range(1, 13):
        engine.skill_seed = seed
        first = engine.search(game, movetime_ms=2000)
        assert first.depth <= 2  # the depth cap of level 3 (strength 3.95: 1 + 3 // 2), 1 when it misses the reply
        assert engine.search(game, movetime_ms=2000).best_move == first.best_move
        moves.add(first.best_move)
    assert len(moves) >= 3
    engine.skill_level = 20
    assert engine.search(game, depth=4).depth == 4
    with pytest.raises(ValueError, match="skill_level 21"):
        engine.skill_level = 21
    with pytest.raises(ValueError, match="skill_level -1"):
        gobblet.Engine(skill_level=-1)


WIN_IN_ONE = ["X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"]  # player 1 makes rank 1 with L@d1


def test_go_mate_finds_the_win_and_ends_by_itself():
    game = gobblet.Game("gobblet", moves=WIN_IN_ONE)
    result = gobblet.Engine().search(game, mate=1)
    assert result.best_move == "L@d1"
    assert (result.score.kind, result.score.value) == ("mate", 1)
    with pytest.raises(ValueError, match="mate 0"):
        gobblet.Engine().search(game, mate=0)


def test_a_ponder_search_waits_for_ponder_hit():
    engine = gobblet.Engine()
    game = gobblet.Game("gobblers", moves=["L@b2"])
    found = []
    thread = threading.Thread(target=lambda: found.append(engine.search(game, depth=2, ponder=True)))
    thread.start()
    time.sleep(0.5)
    assert thread.is_alive()  # a depth-2 search would be over: pondering goes on until told
    engine.ponder_hit()
    thread.join(60)
    assert not thread.is_alive() and found[0].best_move in game.legal_moves()


def test_scores_have_a_point_of_view():
    game = gobblet.Game("gobblet", moves=WIN_IN_ONE[:5])  # player 2 to move, player 1 threatens
    score = gobblet.Engine().search(game, depth=3).score
    assert (score.turn, score.player) == (2, 2)
    assert score.relative == score
    for player in (1, 2):
        seen = score.pov(player)
        assert seen.player == player and seen.turn == 2 and seen.kind == score.kind
        assert seen.value == (score.value if player == 2 else -score.value)
        assert seen.relative == score
    assert score.player1() == score.pov(1) and score.player2() == score
    assert str(score.player1()) == f"{score.kind} {-score.value}"
    with pytest.raises(ValueError, match="player 3"):
        score.pov(3)
