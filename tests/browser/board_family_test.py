#!/usr/bin/python3
"""The 4x4 family on the board, and every move's exact value drawn on a 3x3 board (issue 39,
item 2), in headless Chromium against `gobblet --http 127.0.0.1:0` with small 3x3 tablebases built
here (board_test.py's server).

Checks, as a person would make them:
- The 4x4 family (`4x4:<sizes>,<stacks>`, docs/notation.md), named in the "other..." field and in
  `#variant=` links: 4x4:2,2, 4x4:1,3 and 4x4:3,1 draw as many reserve stacks as the engine's `d`
  says, with its tops, before and after moves; a piece placed by click and by keyboard, one moved
  on the board; a drop over a piece not in a line refused with the engine's reason, a board move
  gobbling it played; the engine answers a person's moves; a line of four ends the game (the line
  lit, the engine's reason); the PGN names the variant and, imported into another variant's game,
  gives the same game back. The field's placeholder and the help name the family.
- The value of every target without a pick (3x3 with a tablebase): a toggle, kept between visits,
  reachable by keyboard, that draws on each square the best value of any move to it, and under
  each reserve size the best value of placing it; every value drawn equals the best, by the
  engine's own `query values` over stdin, of the moves it stands for.

pytest tests on one page of one headless Chromium (fixtures: conftest.py, and board_test.py's
server with its tablebases). Run as a script, or with pytest itself:

  board_family_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import os
import re
import subprocess
import sys

from board_driver import By, Keys, TIMEOUT, check, check_game_end, run_as_script
# The server with its 3x3 tablebases (fixtures), the WebSocket recorder, the engine over stdin.
from board_test import RECORDER, engine_answer, page_url, tb_dir  # noqa: F401 (fixtures are used by name)


def link(variant, moves=()):
    fragment = "#variant=" + variant.replace(":", "%3A").replace(",", "%2C")
    return fragment + ("&moves=" + ",".join(m.replace("@", "%40") for m in moves) if moves else "")


def engine_d(binary, variant, moves):
    """The engine's `d` after `moves` (stdin): {'supply 1': 'stacks M S', ...}."""
    script = f"setoption name Variant value {variant}\nposition startpos moves {' '.join(moves)}\nd\nquit\n"
    out = subprocess.run([binary], input=script, capture_output=True, text=True, timeout=TIMEOUT).stdout
    fields = {}
    for line in out.splitlines():
        m = re.match(r"(supply [12]|sizes|position): (.*)|(sizes|position) (.*)", line)
        if m:
            fields[m.group(1) or m.group(3)] = m.group(2) or m.group(4)
    check("supply 1" in fields and "supply 2" in fields, f"no supply in the engine's d: {out!r}")
    return fields


def reserve_tops(b, player):
    """The reserve of `player` as drawn: each button's size letter, '-' for an empty stack."""
    return b.d.execute_script(
        "return [...document.querySelectorAll('#reserve-' + arguments[0] + ' .reserve-piece')]"
        ".map((e) => e.dataset.size || '-')", player)


def check_reserves(b, binary, variant, moves):
    fields = engine_d(binary, variant, moves)
    for p in (1, 2):
        expected = fields[f"supply {p}"].split()
        check(expected[0] == "stacks", f"{variant}: a supply of stacks expected, the engine says {expected}")
        shown = reserve_tops(b, p)
        check(shown == expected[1:], f"{variant} after {moves}: player {p}'s reserve drawn {shown}, "
                                     f"the engine's stacks {expected[1:]}")


def open_custom(b, variant):
    """A new game of `variant`, both players people, typed into the 'other...' field."""
    b.select("p1", "human")
    b.select("p2", "human")
    b.select("variant", "custom")
    field = b.d.find_element(By.ID, "custom-variant")
    check(field.is_displayed(), "the other... field is not shown")
    field.send_keys(Keys.CONTROL, "a")  # (what was there is typed over)
    field.send_keys(variant, Keys.ENTER)
    b.wait(f"a new {variant} game", lambda: b.body("ply") == "0" and not b.moves() and b.body("fen") == "4/4/4/4 1")
    b.idle()


def play(b, move):
    """Plays `move` by clicking its piece (reserve or square) and then its target."""
    ply = int(b.body("ply"))
    side = int(b.body("fen")[-1])
    if move[1] == "@":
        b.click(b.reserve(side, move[0]))
    else:
        b.click(b.square(move[:2]))
    b.click(b.square(move[-2:]))
    b.wait(f"{move} to be played", lambda: int(b.body("ply") or 0) == ply + 1)


def test_family_named_in_the_field(b):
    b.load()
    field = b.d.find_element(By.ID, "custom-variant")
    placeholder, title = field.get_attribute("placeholder") or "", field.get_attribute("title") or ""
    check(placeholder.startswith("4x4:"), f"the other... field's placeholder is {placeholder!r}")
    check("4x4:" in title and "3x3:" in title, f"the other... field's title does not name both families: {title!r}")
    offered = b.d.execute_script("const l = document.getElementById('custom-variant').list;"
                                 "return l ? [...l.options].map((o) => o.value) : []")
    check("4x4:2,3" in offered and "3x3:2,2,1" in offered, f"the field suggests {offered}")
    help_text = b.d.execute_script("return document.getElementById('help').textContent")
    check("4x4:2,3" in help_text, "the help does not name the 4x4 family (4x4:2,3)")


def test_family_reserves_drawn_as_the_engine_says(b, binary):
    for variant, moves in (("4x4:2,2", ["M@a1", "M@d4", "S@b2"]), ("4x4:1,3", ["S@a1", "S@d4", "S@b2"]),
                           ("4x4:3,1", ["L@a1", "L@d4", "M@b2"])):
        b.load(link(variant))
        b.idle()
        check(b.body("variant") == "4x4", f"{variant} is not drawn as a 4x4 game")
        check_reserves(b, binary, variant, [])
        b.select("p1", "human")
        b.select("p2", "human")
        for i, move in enumerate(moves):
            play(b, move)
            check_reserves(b, binary, variant, moves[:i + 1])
        check(b.body("fen") == engine_answer(binary, variant, moves, "query fen"),
              f"{variant}: the board shows {b.body('fen')!r}")


def test_family_by_keyboard_and_gobbling(b, binary, out_dir):
    open_custom(b, "4x4:2,2")
    # Player 1 places an M by the keyboard: Enter on the reserve's M, the arrows, Enter.
    b.reserve(1, "M").send_keys(Keys.ENTER)
    b.wait("the lit targets", lambda: len(b.targets()) == 16)
    active = lambda: b.d.execute_script("const g = document.activeElement.closest('[data-sq]'); return g && g.dataset.sq")
    b.wait("the keyboard on the board", lambda: active() is not None)
    start = active()
    b.d.switch_to.active_element.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_UP)
    goal = chr(ord(start[0]) + 1) + str(int(start[1]) + 1)
    check(active() == goal, f"the arrows went from {start} to {active()}, not {goal}")
    b.d.switch_to.active_element.send_keys(Keys.ENTER)
    b.wait("the keyboard's move", lambda: b.moves() == [f"M@{goal}"])
    play(b, "M@d4")
    play(b, "S@a1")
    # Player 2's M from the reserve may not cover a1's S (not one of three in a line): the target
    # is not lit, and the engine's reason is shown when it is tried.
    b.click(b.reserve(2, "M"))
    check("a1" not in b.targets(), f"a reserve drop over a lone piece is lit: {b.targets()}")
    b.click(b.square("a1"))
    b.wait("the engine's refusal", lambda: "Refused" in b.status())
    check("line" in b.status(), f"the refusal does not give the rule: {b.status()!r}")
    check(b.moves() == [f"M@{goal}", "M@d4", "S@a1"], f"the refused drop changed the game: {b.moves()}")
    # On the board the M gobbles it.
    b.click(b.square("d4"))
    check("a1" in b.targets(), f"d4's M cannot gobble a1's S: targets {b.targets()}")
    b.click(b.square("a1"))
    b.wait("the gobble", lambda: len(b.moves()) == 4)
    label = b.d.find_element(By.CSS_SELECTOR, '[data-sq="a1"] .size-label').text
    check(label == "M+1", f"a1 shows {label!r}, not an M over one piece")
    check_reserves(b, binary, "4x4:2,2", b.moves())
    b.d.save_screenshot(os.path.join(out_dir, "board-family.png"))
    # The field emptied starts no game (it sent an empty variant name).
    played = b.moves()
    field = b.d.find_element(By.ID, "custom-variant")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE, Keys.ENTER)
    b.wait("the hint", lambda: "Type a variant name" in b.status())
    check(b.moves() == played and b.body("fen") == engine_answer(binary, "4x4:2,2", played, "query fen"),
          f"an emptied field changed the game: {b.moves()}")


def test_family_engine_answers(b):
    open_custom(b, "4x4:3,1")
    b.select("time", "movetime 300")
    b.select("p2", "engine")
    for turn in range(3):
        b.idle()
        b.click(b.d.find_elements(By.CSS_SELECTOR, "#reserve-1 .reserve-piece.legal, .square.source")[0])
        targets = b.targets()
        check(targets, "no target lit")
        ply = int(b.body("ply"))
        b.click(b.square(targets[-1]))
        b.wait("the engine's answer", lambda: int(b.body("ply") or 0) == ply + 2)
    check(len(b.moves()) == 6, f"moves: {b.moves()}")
    b.select("p2", "human")


def test_family_line_ends_the_game_and_pgn_round_trips(b, binary):
    variant = "4x4:2,2"
    moves = ["M@a1", "M@a4", "M@b1", "M@b4", "S@c1", "S@c4", "S@d1"]
    open_custom(b, variant)
    for move in moves:
        play(b, move)
    b.wait("the end of the game", lambda: "wins" in b.status())
    check("Player 1 wins" in b.status(), f"status {b.status()!r}")
    check_game_end(b, variant, moves, lambda v, m, q: engine_answer(binary, v, m, q))
    fen = b.body("fen")
    b.click(b.d.find_element(By.ID, "export-pgn"))
    pgn = b.d.find_element(By.ID, "io-text").get_attribute("value")
    check(f'[Variant "{variant}"]' in pgn, f"the PGN does not name the variant: {pgn!r}")
    check('[Result "1-0"]' in pgn, f"the PGN's result: {pgn!r}")
    # Into a game of another variant: the PGN brings its own back.
    b.load(link("gobblers"))
    b.idle()
    b.import_text(pgn)
    b.wait("the imported game", lambda: b.body("fen") == fen)
    check(b.moves() == moves, f"imported moves {b.moves()}")
    check(b.d.find_element(By.ID, "custom-variant").get_attribute("value") == variant,
          "the variant field does not show the imported variant")
    check("Player 1 wins" in b.status(), f"the imported game's end: {b.status()!r}")
    b.click(b.d.find_element(By.ID, "export-pgn"))
    again = b.d.find_element(By.ID, "io-text").get_attribute("value")
    check(again == pgn, f"the PGN changed through an import:\n{pgn}\n{again}")
    # Kept in the browser: a reload brings the family's game back.
    b.d.refresh()
    b.wait("the game kept", lambda: b.body("ready") == "1" and b.body("fen") == fen and b.moves() == moves)
    check(b.d.find_element(By.ID, "custom-variant").get_attribute("value") == variant,
          "the variant field after a reload")


def engine_values(binary, tb_dir, variant, moves):
    """The engine's `query values` after `moves` (stdin, with the tablebases): {move: 'W3'|'D'|'L4'}."""
    script = (f"setoption name Variant value {variant}\nposition startpos moves {' '.join(moves)}\n"
              "query values\nquit\n")
    out = subprocess.run([binary, "--tablebase-dir", tb_dir], input=script, capture_output=True, text=True,
                         timeout=TIMEOUT).stdout
    answers = [l.split()[1:] for l in out.splitlines() if l.startswith("response ")]
    check(len(answers) == 1 and len(answers[0]) % 2 == 0, f"one `query values` answer expected: {out!r}")
    words = answers[0]
    values = {}
    for move, value in zip(words[::2], words[1::2]):
        check(re.fullmatch(r"[wl]\d+|d", value), f"an exact value expected for {move}: {value!r}")
        values[move] = value[0].upper() + value[1:]
    return values


def best(values):
    """The best of values ('W3', 'D', 'L4'): the shortest win, a draw, the longest loss."""
    rank = lambda v: (0, int(v[1:])) if v[0] == "W" else (1, 0) if v == "D" else (2, -int(v[1:]))
    return min(values, key=rank)


def drawn_values(b):
    """The values drawn without a pick: {square: text} and {reserve size of the side to move: text}."""
    return b.d.execute_script("""
        const squares = {}, sizes = {};
        for (const t of document.querySelectorAll('#board [data-sq] .square-value')) squares[t.closest('[data-sq]').dataset.sq] = t.textContent;
        for (const p of [1, 2]) for (const e of document.querySelectorAll('#reserve-' + p + ' .reserve-piece')) {
          const v = e.querySelector('.reserve-value');
          if (v) sizes[p + e.dataset.size] = v.textContent;
        }
        return [squares, sizes];""")


def values_toggle(b):
    return b.d.find_element(By.ID, "all-values")


def test_every_value_on_the_board_without_a_pick(b, binary, tb_dir, out_dir):
    variant, moves = "3x3:2,2,1", ["M@b2", "S@a1", "S@c3"]
    fen = engine_answer(binary, variant, moves, "query fen")
    b.load(link(variant, moves))
    b.select("p1", "human")
    b.select("p2", "human")
    b.wait(f"the position {fen}", lambda: b.body("fen") == fen)
    b.idle()
    b.wait("the tablebase marks", lambda: b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr"))
    toggle = values_toggle(b)
    if toggle.is_selected():  # (a setting kept from before: off first)
        b.click(toggle)
    check(drawn_values(b) == [{}, {}], f"values drawn with the toggle off: {drawn_values(b)}")
    expected = engine_values(binary, tb_dir, variant, moves)
    check(len(expected) > 4, f"the engine's values: {expected}")
    side = 2  # (three moves played)
    by_square, by_size = {}, {}
    for move, value in expected.items():
        by_square.setdefault(move[-2:], []).append(value)
        if move[1] == "@":
            by_size.setdefault(f"{side}{move[0]}", []).append(value)
    want = [{sq: best(v) for sq, v in by_square.items()}, {k: best(v) for k, v in by_size.items()}]
    # On by the keyboard: Tab to the toggle and Space.
    b.d.execute_script("document.getElementById('all-values').focus()")
    b.d.switch_to.active_element.send_keys(Keys.SPACE)
    b.wait("the values drawn", lambda: drawn_values(b)[0])
    shown = drawn_values(b)
    print(f"values on the board: {shown}")
    b.d.save_screenshot(os.path.join(out_dir, "board-values.png"))
    check(shown == want, f"the values drawn differ from the engine's query values:\n page   {shown}\n engine {want}")
    # Each square says it in words too.
    for sq, value in want[0].items():
        label = b.square(sq).get_attribute("aria-label")
        check(f"best move to it {value}" in label, f"{sq}'s label {label!r} does not give {value}")
    # A pick shows that piece's marks only; dropping it brings the values back.
    b.reserve(2, "M").send_keys(Keys.ENTER)  # (the keyboard goes on to the board)
    b.wait("the M's targets", lambda: b.targets())
    check(not drawn_values(b)[0], "the values stay drawn with a piece picked")
    b.d.switch_to.active_element.send_keys(Keys.ESCAPE)
    b.wait("the values again", lambda: drawn_values(b) == want)
    # Kept between visits.
    b.load(link(variant, moves))
    b.wait("the values after a reload", lambda: drawn_values(b) == want)
    check(values_toggle(b).is_selected(), "the toggle was not kept")
    # The key v turns them off (and on).
    b.d.find_element(By.TAG_NAME, "body").send_keys("v")
    b.wait("the values gone", lambda: drawn_values(b) == [{}, {}])
    check(not values_toggle(b).is_selected(), "v did not turn the toggle off")
    # After a move, the values of the new position.
    b.d.find_element(By.TAG_NAME, "body").send_keys("v")
    play(b, "S@a3")
    after = engine_values(binary, tb_dir, variant, moves + ["S@a3"])
    want_after = {}
    for move, value in after.items():
        want_after.setdefault(move[-2:], []).append(value)
    want_after = {sq: best(v) for sq, v in want_after.items()}
    b.wait("the next position's values", lambda: drawn_values(b)[0] == want_after)
    b.click(values_toggle(b))
    check(not values_toggle(b).is_selected(), "the toggle is still on")


def tablebase_note(b):
    """The note under the analysis about the tablebase: its text if shown, else None."""
    e = b.d.find_element(By.ID, "tb-hint")
    return e.text if e.is_displayed() else None


def test_a_members_tablebase_gives_its_exact_values(b, binary, tb_dir):
    """A 4x4 member whose file is in the server's folder has every move's exact value on the board, as
    3x3 games have (the page asked for them only in 3x3); one without its file says how to build it;
    4x4 Gobblet, which can have none, says nothing of it."""
    variant = "4x4:2,1"
    b.load()
    open_custom(b, variant)
    b.wait("the tablebase's values", lambda: b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr"))
    expected = engine_values(binary, tb_dir, variant, [])
    check(len(expected) == 16, f"the engine's values (16 drops of the stack's top M): {expected}")
    toggle = values_toggle(b)
    if not toggle.is_selected():
        b.click(toggle)
    want = [{sq: best([v for m, v in expected.items() if m.endswith(sq)]) for sq in {m[-2:] for m in expected}},
            {f"1{size}": best([v for m, v in expected.items() if m.startswith(size + "@")])
             for size in {m[0] for m in expected}}]
    b.wait("the values drawn", lambda: drawn_values(b) == want)
    check(tablebase_note(b) is None, f"a note beside the values: {tablebase_note(b)!r}")
    # After a move and the reply: the next position's values.
    play(b, "M@b2")
    play(b, "M@c3")
    after = engine_values(binary, tb_dir, variant, ["M@b2", "M@c3"])
    b.wait("the next position's values",
           lambda: drawn_values(b)[0] == {sq: best([v for m, v in after.items() if m.endswith(sq)])
                                          for sq in {m[-2:] for m in after}})
    b.click(values_toggle(b))
    # A member without its file: the note says which and how to get it.
    open_custom(b, "4x4:1,2")
    b.wait("the note about the missing tablebase", lambda: tablebase_note(b))
    note = tablebase_note(b)
    check("4x4:1,2" in note and "gobblet-tb build 4x4:1,2" in note, f"the note: {note!r}")
    # 4x4 Gobblet: no tablebase can exist, and no note says otherwise.
    b.select("variant", "gobblet")
    b.wait("a gobblet game", lambda: b.body("ply") == "0" and b.body("fen") == "4/4/4/4 1" and not b.moves())
    b.idle()
    b.wait("the note gone", lambda: tablebase_note(b) is None)
    check(b.d.find_element(By.ID, "tb").get_attribute("hidden") is not None, "a tablebase panel for 4x4 Gobblet")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
