// gobblet.Variant, gobblet.Game and perft: the rules core seen from Python.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "interruptible.h"
#include "engine/variant.h"
#include "errors.h"
#include "protocol/position_display.h"
#include "python_game.h"

namespace py = pybind11;

namespace gobblet::python {

Variant toVariant(const VariantArg& arg) {
  if (const Variant* v = std::get_if<Variant>(&arg)) return *v;
  absl::StatusOr<Variant> parsed = Variant::parse(std::get<std::string>(arg));
  if (!parsed.ok()) throw VariantError(std::string(parsed.status().message()));
  return *parsed;
}

std::string variantName(const Variant& variant) {
  for (const NamedVariant& named : kNamedVariants)
    if (named.variant == variant) return std::string(named.name);
  return variant.name();
}

Board parsePositionOrThrow(const Variant& variant, const std::string& text) {
  absl::StatusOr<Board> board = parsePosition(variant, text);
  if (!board.ok())
    throw PositionError("bad position text for " + variant.name() + ": " + std::string(board.status().message()));
  return *board;
}

PythonGame::PythonGame(const Variant& variant, const std::optional<std::string>& position,
                       const std::vector<std::string>& moves)
    : game_(position ? parsePositionOrThrow(variant, *position) : Board(variant)) {
  for (const std::string& move : moves) play(move);
}

void PythonGame::play(const std::string& moveText) { throwIfMoveRefused(game_.play(moveText)); }

std::string PythonGame::undo() {
  std::vector<Move> moves = game_.moves();
  if (moves.empty()) throw py::index_error("no move to undo: the game is at its start position");
  const Move last = moves.back();
  moves.pop_back();
  Game replayed(game_.start());
  for (Move m : moves) replayed.play(m);
  game_ = replayed;
  return moveToString(last, variant());
}

namespace {

std::vector<std::string> legalMoves(const Board& board) {
  MoveList list;
  generateMoves(board, list);
  std::vector<std::string> out;
  out.reserve(list.size());
  for (Move m : list) out.push_back(moveToString(m, board.variant()));
  return out;
}

void checkPerftDepth(int depth) {
  if (depth < 0 || depth > kMaxPerftDepth)
    throw py::value_error("perft depth " + std::to_string(depth) + " is out of range 0.." +
                          std::to_string(kMaxPerftDepth));
}

// Both perfts run interruptibly (interruptible.h): Ctrl-C stops them.
uint64_t perftOf(const Board& start, int depth) {
  checkPerftDepth(depth);
  return interruptible([&start, depth](const std::atomic<bool>& stop) {
    Board board = start;
    return perft(board, depth, &stop);
  });
}

// Root move text -> leaves below it, in the rules core's order (dicts keep it).
py::dict perftDivideOf(const Board& start, int depth) {
  checkPerftDepth(depth);
  const PerftResult result = interruptible([&start, depth](const std::atomic<bool>& stop) {
    Board board = start;
    return perftDivide(board, depth, &stop);
  });
  py::dict out;
  for (const auto& [move, count] : result.perMove) out[py::str(moveToString(move, start.variant()))] = count;
  return out;
}

// The pieces on each square, bottom to top, in notation letters (upper case
// player 1): "" for an empty square, "sL" for a small 2 under a large 1.
std::vector<std::string> stacksOf(const Board& board) {
  const Variant& v = board.variant();
  std::vector<std::string> out(v.squares());
  for (int sq = 0; sq < v.squares(); ++sq)
    for (int size = 0; size < v.sizes; ++size)
      for (int player = 0; player < 2; ++player)
        if (board.pieces(player, size) & bit(sq))
          out[sq] += static_cast<char>(player == 0 ? kSizeLetters[size] : kSizeLetters[size] + ('a' - 'A'));
  return out;
}

std::vector<std::string> squareNames(const Variant& v) {
  std::vector<std::string> out;
  for (int sq = 0; sq < v.squares(); ++sq) out.push_back(squareName(v, sq));
  return out;
}

void checkPlayer(int player) {
  if (player != 1 && player != 2) throw py::value_error("player " + std::to_string(player) + " is not 1 or 2");
}

int sizeIndex(const Variant& v, const std::string& letter) {
  for (int s = 0; s < v.sizes; ++s)
    if (letter.size() == 1 && (letter[0] == kSizeLetters[s] || letter[0] == kSizeLetters[s] + ('a' - 'A'))) return s;
  throw py::value_error("size '" + letter + "' is not one of this variant's sizes (" +
                        std::string(kSizeLetters, v.sizes) + ")");
}

// The `d` command's picture of the game (protocol/position_display.h).
std::string diagramOf(const Game& game) {
  std::string out;
  for (const std::string& line : describeGame(game)) out += line + "\n";
  return out;
}

std::string variantRepr(const Variant& v) { return "Variant('" + variantName(v) + "')"; }

std::string gameRepr(const PythonGame& g) {
  std::string out = "Game('" + variantName(g.variant()) + "', '" + positionToString(g.game().start()) + "'";
  if (!g.game().moves().empty()) {
    out += ", moves=[";
    for (size_t i = 0; i < g.game().moves().size(); ++i)
      out += (i ? ", '" : "'") + moveToString(g.game().moves()[i], g.variant()) + "'";
    out += "]";
  }
  return out + ")";
}

void bindVariant(py::module_& m) {
  py::class_<Variant>(m, "Variant", R"doc(
A game of the Gobblet family, by name.

``Variant("gobblet")`` (4x4), ``Variant("gobblers")`` (Gobblet Gobblers, 3x3),
``Variant("tictactoe")``, their aliases, or the 3x3 family form
``"3x3:<sizes>,<per_size>,<move 0|1>"``. An unknown name raises VariantError.
)doc")
      .def(py::init([](const std::string& name) { return toVariant(name); }), py::arg("name"),
           "The variant of that name (any name or alias the engine accepts, case-insensitive).")
      .def_property_readonly("name", &variantName,
                             "The name in the engine's list of variants (variant_names(): \"tictactoe\"), else the "
                             "family form (\"3x3:2,2,1\"). Variant(name) gives the same variant back.")
      .def_property_readonly("spec", &Variant::name,
                             "The name the engine writes in files (game records, tablebase file names): the "
                             "canonical name (\"gobblet\", \"gobblers\") or the family form (\"3x3:1,5,0\" for "
                             "tic-tac-toe).")
      .def_property_readonly(
          "board_size", [](const Variant& v) { return int(v.n); }, "Board side: 3 or 4.")
      .def_property_readonly(
          "sizes", [](const Variant& v) { return int(v.sizes); }, "Number of piece sizes.")
      .def_property_readonly(
          "pieces_per_size", [](const Variant& v) { return int(v.perSize); },
          "Pieces of each size each player has (on 4x4 also the number of external stacks: stack_count).")
      .def_property_readonly(
          "stack_count", [](const Variant& v) { return v.stacks ? v.stackCount() : 0; },
          "The external stacks of nested pieces each player has (4x4 family); 0 without external stacks.")
      .def_property_readonly(
          "external_stacks", [](const Variant& v) { return v.stacks; },
          "Are the pieces kept in external stacks, only a stack's top playable, with 4x4 Gobblet's rule for "
          "gobbling from a stack?")
      .def_property_readonly(
          "moving", [](const Variant& v) { return v.moving; }, "May pieces on the board be moved?")
      .def_property_readonly(
          "per_size", [](const Variant& v) { return int(v.perSize); }, "Alias of pieces_per_size (kept for old code).")
      .def_property_readonly(
          "stacks", [](const Variant& v) { return v.stacks; }, "Alias of external_stacks (kept for old code).")
      .def_property_readonly(
          "start_position", [](const Variant& v) { return positionToString(Board(v)); }, "The start position's text.")
      .def_property_readonly("square_names", &squareNames, "Square names in index order (a1, b1, ...).")
      .def("__eq__", [](const Variant& a, const Variant& b) { return a == b; })
      .def("__hash__", [](const Variant& v) { return py::hash(py::str(v.name())); })
      .def("__repr__", &variantRepr)
      .def("__str__", &variantName);

  m.def(
      "variant_names",
      [](bool aliases) {
        std::vector<std::string> out;
        for (const NamedVariant& nv : kNamedVariants) {
          out.emplace_back(nv.name);
          if (aliases)
            for (std::string_view alias : nv.aliases) out.emplace_back(alias);
        }
        return out;
      },
      py::arg("aliases") = false,
      "The names of the named variants (the default, gobblet, first); with aliases=True their other "
      "spellings too. Any 3x3 family form \"3x3:s,p,m\" and 4x4 family form \"4x4:s,k\" is accepted besides.");
}

void bindGame(py::module_& m) {
  py::class_<PythonGame>(m, "Game", R"doc(
A game: a start position and the moves played from it.

The rules are the engine's: legal moves, the result (a line, no legal move,
threefold repetition) and perft come from its rules core. Moves are text:
a placement ``"L@b2"`` or a board move ``"a1b2"`` (docs/notation.md).
)doc")
      .def(py::init(
               [](const VariantArg& variant, const std::optional<std::string>& position,
                  const std::vector<std::string>& moves) { return PythonGame(toVariant(variant), position, moves); }),
           py::arg("variant") = std::string("gobblet"), py::arg("position") = py::none(),
           py::arg("moves") = std::vector<std::string>{},
           "A game of `variant` (a name or a Variant) from `position` (position text; None: the start), "
           "with `moves` played. Raises VariantError, PositionError, IllegalMoveError or GameOverError "
           "naming the bad input.")
      .def_property_readonly("variant", &PythonGame::variant, "The Variant played.")
      .def_property_readonly(
          "position", [](const PythonGame& g) { return positionToString(g.board()); },
          "The current position's text (e.g. \"3/3/3 1\").")
      .def_property_readonly(
          "start_position", [](const PythonGame& g) { return positionToString(g.game().start()); },
          "The text of the position the game started from.")
      .def_property_readonly(
          "moves",
          [](const PythonGame& g) {
            std::vector<std::string> out;
            for (Move mv : g.game().moves()) out.push_back(moveToString(mv, g.variant()));
            return out;
          },
          "The moves played, oldest first.")
      .def_property_readonly(
          "side_to_move", [](const PythonGame& g) { return g.board().sideToMove() + 1; }, "The player to move: 1 or 2.")
      .def_property_readonly(
          "key", [](const PythonGame& g) { return g.board().key(); },
          "The position's 64-bit hash (the engine's Zobrist key).")
      .def(
          "position_at",
          [](const PythonGame& g, int ply) {
            const std::vector<Move>& moves = g.game().moves();
            if (ply < 0) ply += static_cast<int>(moves.size()) + 1;
            if (ply < 0 || ply > static_cast<int>(moves.size()))
              throw py::index_error("ply out of range 0.." + std::to_string(moves.size()));
            Board board = g.game().start();
            for (int i = 0; i < ply; ++i) board.makeMove(moves[i]);
            return positionToString(board);
          },
          py::arg("ply"),
          "The text of the position after the first `ply` moves (0: start_position; negative counts from the "
          "end, -1: the current position). IndexError out of range.")
      .def(
          "legal_moves",
          [](const PythonGame& g) {
            return g.game().result() == GameResult::kNone ? legalMoves(g.board()) : std::vector<std::string>{};
          },
          "The legal moves, as text, in the rules core's order; [] once the game is over "
          "(also after a threefold repetition).")
      .def("play", &PythonGame::play, py::arg("move"),
           "Plays a move given as text (case-insensitive). IllegalMoveError if it is not legal here, "
           "GameOverError if the game has ended; then nothing changes.")
      .def("undo", &PythonGame::undo, "Takes back the last move and returns it; IndexError at the start.")
      .def_property_readonly(
          "result",
          [](const PythonGame& g) -> std::optional<std::string> {
            const GameResult r = g.game().result();
            if (r == GameResult::kNone) return std::nullopt;
            return std::string(resultWord(r));
          },
          "\"p1win\", \"p2win\" or \"draw\" (the protocol's words); None while the game runs.")
      .def_property_readonly(
          "end_reason",
          [](const PythonGame& g) -> std::optional<std::string> {
            EndReason why = EndReason::kNone;
            const GameResult r = g.game().result(&why);
            if (r == GameResult::kNone) return std::nullopt;
            return endReasonText(why, r);
          },
          "How the game ended: \"a line of player 1\" (or 2), \"no legal move\", \"threefold "
          "repetition\"; None while the game runs.")
      .def_property_readonly(
          "is_over", [](const PythonGame& g) { return g.game().result() != GameResult::kNone; }, "Has the game ended?")
      .def_property_readonly(
          "occurrences", [](const PythonGame& g) { return g.game().occurrences(); },
          "How many times the current position has occurred in this game (3: a draw "
          "by repetition).")
      .def(
          "stacks", [](const PythonGame& g) { return stacksOf(g.board()); },
          "The pieces on each square (in square_names order), bottom to top, as size letters: upper "
          "case player 1, lower case player 2; \"\" for an empty square.")
      .def(
          "in_hand",
          [](const PythonGame& g, int player, const std::string& size) {
            checkPlayer(player);
            return g.board().inHand(player - 1, sizeIndex(g.variant(), size));
          },
          py::arg("player"), py::arg("size"),
          "Pieces of `size` (a letter, S M L X) that `player` (1 or 2) has not placed yet.")
      .def(
          "perft", [](const PythonGame& g, int depth) { return perftOf(g.board(), depth); }, py::arg("depth"),
          "Leaf count of the game tree `depth` plies deep from the current position (the rules core's "
          "perft: repetition ignored). Releases the GIL; Ctrl-C stops it (KeyboardInterrupt).")
      .def(
          "perft_divide", [](const PythonGame& g, int depth) { return perftDivideOf(g.board(), depth); },
          py::arg("depth"), "perft split by root move: {move text: leaves}. Releases the GIL; Ctrl-C stops it.")
      .def(
          "copy", [](const PythonGame& g) { return g; }, "An independent copy of the game.")
      .def("__copy__", [](const PythonGame& g) { return g; })
      .def(
          "__deepcopy__", [](const PythonGame& g, py::dict) { return g; }, py::arg("memo"))
      .def(
          "__eq__",
          [](const PythonGame& a, const PythonGame& b) {
            return a.game().start() == b.game().start() && a.game().moves() == b.game().moves();
          },
          py::is_operator(),
          "Games are equal when they are of the same variant, from the same start position, with the same "
          "moves (so the same positions, repetitions and result).")
      .def(
          "diagram", [](const PythonGame& g) { return diagramOf(g.game()); },
          "The board as text (the `d` command's picture, then the position, the side to move, the supplies "
          "and the game's state); also str(game).")
      .def("__str__", [](const PythonGame& g) { return diagramOf(g.game()); })
      .def("__repr__", &gameRepr)
      .attr("__hash__") = py::none();  // a Game changes as it is played: unhashable, as a list

  m.def(
      "perft",
      [](const VariantArg& variant, int depth, const std::optional<std::string>& position) {
        const Variant v = toVariant(variant);
        return perftOf(position ? parsePositionOrThrow(v, *position) : Board(v), depth);
      },
      py::arg("variant"), py::arg("depth"), py::arg("position") = py::none(),
      "perft of `variant` from `position` (None: the start), `depth` plies deep. Releases the GIL; Ctrl-C "
      "stops it.");
}

}  // namespace

void bindRules(py::module_& m) {
  bindVariant(m);
  bindGame(m);
}

}  // namespace gobblet::python
