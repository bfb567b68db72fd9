// @ts-check
// The page's one state (State): everything the board's modules share, made
// once by app.js (createState) and passed down; no module keeps a mutable
// object or binding that another reads or writes. docs/board.md, "State".
//
// Who may touch the page (document, window, elements, storage, the address):
//   render.js, draw.js, graph.js, eval_bar.js, panels.js  drawing (the board, lists, chart, bar, panels)
//   input.js, move_menu.js, list_anchor.js, io_panel.js    events (pointer, keys, controls, menus, the text box)
//   app.js          wires them at start-up
//   settings.js     the controls' values kept in localStorage
//   saved_game.js   the game kept in localStorage
//   address.js      the address (location, history: the link and the token)
//   export_file.js  the clipboard and a file's download
//   sound.js        a move's tone (the browser's audio)
// Every other module is logic: it changes the state and asks the view to
// draw through `state.ui` (the redraw callbacks app.js puts there), or
// returns what the view draws. tests/web/structure_test.mjs checks these rules.

import { createGame } from './game.js';
import { createShown } from './shown.js';
import { createSession, newClient, listen } from './engine_session.js';
import { createClocks } from './clocks.js';
import { createPuzzleRun } from './puzzle_run.js';

/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./engine_session.js').Search} Search */

/**
 * The controls' values (input.js reads them into the state as they change):
 * each player ('human' or 'engine'), the Engine time (`movetime MS` or
 * `clock BASE INC`), the engine's level (its Skill Level for its moves), the
 * analysis lines, Sound, Values (every move's value on the board), the
 * player "learn from your mistakes" asks about.
 * @typedef {{p1: string, p2: string, time: string, level: number, multipv: number, sound: boolean,
 *   allValues: boolean, learnSide: number}} Settings
 */

/**
 * The connection kept (connection.js): the token sessions are opened with,
 * the session lost and no new one open yet, a try under way, tries since the
 * loss, when the next is due (performance.now() ms), its timers, what the
 * banner says, and how the page asks for a token.
 * @typedef {{token: string | null, lost: boolean, trying: boolean, tries: number, due: number, timer: number,
 *   ticker: number, banner: string, askForToken: (why: string) => void}} Link
 */

/**
 * The time a search has run (search_progress.js): the search counted, when
 * it started, its latest count of nodes and the search's time of that count.
 * @typedef {{search: Search | null, started: number, nodes: number, countAt: number}} Progress
 */

/**
 * What clicks on the lists ask for: goTo(ply of the line), goToMove(node),
 * attempt(move), preview(moves of an analysis line), menu(node, button): a
 * move's menu; and the move menu's choices (app.js sets them all).
 * @typedef {{goTo: (ply: number) => void, goToMove: (node: TreeNode) => void, attempt: (move: string) => void,
 *   preview: (moves: string[]) => void, menu: (node: TreeNode, button: HTMLElement) => void,
 *   promote: (node: TreeNode) => void, deleteFrom: (node: TreeNode) => void, comment: (node: TreeNode) => void}}
 *   Actions
 */

/**
 * The view's redraws, for the logic modules (app.js puts render.js's and
 * panels.js's functions here): the position shown, the status line, the
 * analysis lines (cleared, or a search's), the move list, the tablebase's
 * list and its note, the chart and the bar, the variant selector (its
 * value, its list), the controls that follow the state (Engine move,
 * Evaluate, Analyse, the level), the moves the review judged (at the next
 * frame, or now), the review panel, the proof, the connection's banner, the
 * clocks, the Import/Export note (replaced, or with `add` added to), the Import/Export box emptied (a new
 * game: what it held was the game before), the page's "ready" mark, and
 * the puzzle panel (with the status and the hint on the board).
 * @typedef {{redraw: () => void, status: (text: string, kind?: string) => void, clearLines: () => void,
 *   showLines: (s: Search) => void, moveList: () => void, tablebase: () => void, graph: () => void,
 *   tablebaseHint: (err: string | null) => void, variant: (name: string) => void, variants: () => void,
 *   controls: () => void, judged: (node: TreeNode) => void, judgedNow: () => void, reviewPanel: () => void,
 *   proof: () => void, connection: () => void, clocks: () => void, ioStatus: (text: string, add?: boolean) => void,
 *   ioClear: () => void, ready: () => void, puzzle: () => void}} Ui
 */

/**
 * The page's state: the game (game.js), what is shown of it (shown.js), the
 * engine's session and its client (engine_session.js), the controls'
 * values, the clocks (clocks.js), the connection (connection.js), the
 * search's progress (search_progress.js), the tablebase lines found
 * (tb_line.js), the review panel (review_run.js: running, its progress
 * words), why the game could not be kept (saved_game.js, null: it was), the
 * last of the proof database loads (game_io.js: they run one at a time), who
 * judges a move before it is played (a puzzle's try, puzzle_run.js; "learn
 * from your mistakes", review_run.js; true: not played), the puzzle mode
 * (puzzle_run.js), the click actions and the view's redraws.
 * @typedef {object} State
 * @property {import('./game.js').Game} game
 * @property {import('./shown.js').Shown} shown
 * @property {import('./engine_session.js').Session} session
 * @property {import('./ugi.js').UgiClient} ugi
 * @property {Settings} settings
 * @property {import('./clocks.js').Clocks} clocks
 * @property {Link} link
 * @property {Progress} progress
 * @property {{found: Map<string, string[]>, asked: Set<string>}} tbLines
 * @property {{running: boolean, progress: string}} review
 * @property {string | null} savedProblem
 * @property {Promise<unknown>} proofLoads
 * @property {((move: string) => boolean) | null} judge
 * @property {import('./puzzle_run.js').PuzzleRun} puzzle
 * @property {Actions} actions
 * @property {Ui} ui
 */

const nothing = () => {};

// A fresh state: no game, nothing shown, no session yet (its client made, not
// connected), the controls at their defaults; the actions and the redraws do
// nothing until app.js sets them.
/** @returns {State} */
export function createState() {
  /** @type {State} */
  const state = {
    game: createGame(),
    shown: createShown(),
    session: createSession(),
    ugi: newClient(),
    settings: { p1: 'human', p2: 'engine', time: 'movetime 1000', level: 20, multipv: 1, sound: false,
      allValues: false, learnSide: 1 },
    clocks: createClocks(),
    link: { token: null, lost: false, trying: false, tries: 0, due: 0, timer: 0, ticker: 0, banner: '',
      askForToken: nothing },
    progress: { search: null, started: 0, nodes: 0, countAt: 0 },
    tbLines: { found: new Map(), asked: new Set() },
    review: { running: false, progress: '' },
    savedProblem: null,
    proofLoads: Promise.resolve(),
    judge: null,
    puzzle: createPuzzleRun(),
    actions: { goTo: nothing, goToMove: nothing, attempt: nothing, preview: nothing, menu: nothing,
      promote: nothing, deleteFrom: nothing, comment: nothing },
    ui: { redraw: nothing, status: nothing, clearLines: nothing, showLines: nothing, moveList: nothing,
      tablebase: nothing, graph: nothing, tablebaseHint: nothing, variant: nothing, variants: nothing,
      controls: nothing, judged: nothing, judgedNow: nothing, reviewPanel: nothing, proof: nothing,
      connection: nothing, clocks: nothing, ioStatus: nothing, ioClear: nothing, ready: nothing, puzzle: nothing },
  };
  listen(state);
  return state;
}
