// Reference rules: a deliberately slow, plain second implementation of the
// rules of the 4x4 family (Gobblet) and the 3x3 family, written from the rules as they
// are stated in words and not from engine/. The tests play the fast
// bitboard core against it; the two agree only if both read the rules the
// same way.
//
// Layout: a Position is a vector of squares (index rank * n + file, rank 0 at
// the bottom, file 0 = "a"); each square is a vector of Pieces listed bottom
// to top. Nothing is incremental and nothing is cached: the supply, the
// visible tops, the lines and the legal moves are recomputed by scanning each
// time they are asked for. Moves are compared with the engine by their TEXT
// ("L@b2", "a1b2"), which this file formats itself.
//
// The only contact with engine/ is at the boundary: Variant is the game
// description, and fromBoard()/toBoard() convert through Board::pieces() and
// Board::addPiece().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/board.h"
#include "engine/variant.h"

namespace gobblet::reference {

inline constexpr int kNobody = -1;

// A piece: owner 0 is player 1, owner 1 is player 2; size 0 is S (smallest).
struct Piece {
  int owner = 0;
  int size = 0;
  friend bool operator==(const Piece&, const Piece&) = default;
};

// A move: a placement from the supply (drop, from = -1) or a board move that
// lifts the top piece of `from` (of size `size`) and puts it on `to`.
struct Move {
  bool drop = true;
  int size = 0;
  int from = -1;
  int to = 0;
  friend bool operator==(const Move&, const Move&) = default;
};

// "a1".."d4": file letter then rank digit from the bottom.
std::string squareText(int n, int square);
// "L@b2" or "a1b2" (size uppercase, squares lowercase).
std::string moveText(int n, const Move& move);

class Position {
 public:
  // The start position: empty board, player 1 to move.
  explicit Position(const Variant& variant);

  // Boundary conversions with the engine's Board.
  static Position fromBoard(const Board& board);
  Board toBoard() const;

  const Variant& variant() const { return variant_; }
  int n() const { return variant_.n; }
  int squareCount() const { return variant_.n * variant_.n; }
  int sideToMove() const { return toMove_; }
  const std::vector<Piece>& square(int sq) const { return squares_[sq]; }
  // The visible piece of a square, if any.
  std::optional<Piece> top(int sq) const;

  // How many pieces of this player and size are on the board (covered or not).
  int onBoard(int player, int size) const;
  // 4x4: the heights of the player's external stacks (perSize of them) (a stack of
  // height k holds S..k-th size and shows the k-th size on top), derived from
  // the board; empty if the counts are impossible. 3x3: empty.
  std::vector<int> stackHeights(int player) const;
  // Sizes the player may take from the supply, ascending, each once.
  std::vector<int> supplySizes(int player) const;

  // Does the player own every visible piece of some full row, column or
  // diagonal?
  bool hasLine(int player) const;
  // The winner of the position judged as "after the complete move": the side
  // to move (who did not make the last move) wins if it has a line, else the
  // other side if it has one; kNobody otherwise.
  int winner() const;
  // Every legal move, distinct by text, sorted by text. A decided position has
  // none.
  std::vector<Move> legalMoves() const;
  std::vector<std::string> legalMoveTexts() const;

  // Plays a legal move / takes back the move just played.
  void play(const Move& move);
  void undo(const Move& move);

  // True if the pieces respect the variant: every square strictly increasing
  // bottom to top, sizes in range, counts within the supply (3x3: at most
  // per_size of a size per player; 4x4: counts perSize nested stacks can
  // produce). Otherwise *why says what is wrong.
  bool valid(std::string* why = nullptr) const;

  // Position text: ranks from the top down separated by '/', digit k for k
  // empty squares, a letter for a lone piece (uppercase = player 1), "[..]"
  // for a stack bottom to top; then a space and the side to move.
  std::string text() const;
  // Strict parser of the canonical text above; on failure returns nullopt
  // and sets *error.
  static std::optional<Position> parse(const Variant& variant, const std::string& text, std::string* error);

  // Low-level editing for building test positions.
  void push(int sq, Piece piece) { squares_[sq].push_back(piece); }
  void setSideToMove(int player) { toMove_ = player; }
  // Removes and returns the top piece of a non-empty square.
  Piece lift(int sq);

  friend bool operator==(const Position&, const Position&) = default;

 private:
  Variant variant_;
  std::vector<std::vector<Piece>> squares_;
  int toMove_ = 0;
};

// The full rows, columns and diagonals of an n x n board, as square lists.
const std::vector<std::vector<int>>& lines(int n);

// Leaves at `depth`: legal moves distinct by text, no moves from a decided
// position, repetition ignored.
uint64_t perft(Position& position, int depth);

}  // namespace gobblet::reference
