#include "engine/notation.h"

#include <cassert>
#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/movegen.h"

namespace gobblet {

namespace {

absl::Status invalid(std::string_view what, std::string_view text) {
  return absl::InvalidArgumentError(std::string(what) + " in '" + std::string(text) + "'");
}

// Size index of a size letter (either case), or -1.
int sizeOfLetter(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'S':
      return 0;
    case 'M':
      return 1;
    case 'L':
      return 2;
    case 'X':
      return 3;
    default:
      return -1;
  }
}

}  // namespace

std::string squareName(const Variant& v, int square) {
  return {static_cast<char>('a' + square % v.n), static_cast<char>('1' + square / v.n)};
}

absl::StatusOr<int> parseSquare(const Variant& v, std::string_view text) {
  if (text.size() != 2) return invalid("a square is a file letter and a rank digit", text);
  const int file = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
  const int rank = text[1] - '1';
  if (file < 0 || file >= v.n || rank < 0 || rank >= v.n)
    return invalid(absl::StrCat("no such square on a ", v.n, "x", v.n, " board"), text);
  return rank * v.n + file;
}

std::string moveToString(Move m, const Variant& v) {
  if (m.isNone()) return "(none)";
  if (m.isDrop()) return absl::StrCat(std::string(1, kSizeLetters[m.size()]), "@", squareName(v, m.to()));
  return squareName(v, m.from()) + squareName(v, m.to());
}

namespace {

// Why `move` (of the variant's sizes and squares; the game not decided) is
// not legal, for people: which rule it breaks, as "a piece gobbles only a
// smaller one: b2 shows an L" — said here, in the rules core, so that every
// client (the page, a GUI) gives the same reason. Precondition:
// !isLegal(board, move).
std::string illegalReason(const Board& board, Move move) {
  const Variant& v = board.variant();
  const int us = board.sideToMove(), size = move.size(), to = move.to();
  assert(!isLegal(board, move) && size < v.sizes && to < v.squares());
  const std::string square = squareName(v, to);
  if (move.isDrop() && !(board.placeableSizes(us) & (1u << size))) {
    return absl::StrCat(v.stacks ? "none of your reserve stacks shows an " : "you have no ",
                        std::string(1, kSizeLetters[size]), v.stacks ? " on top" : " left to place");
  }
  if (!move.isDrop() && !v.moving) return "pieces on the board do not move in this variant";
  if (!move.isDrop() && move.from() == to) return "a piece must move to another square";
  int owner = -1;
  const int top = board.top(to, &owner);
  if (top >= size) {
    return v.sizes == 1 ? square + " is taken"  // (one size, as tic-tac-toe: nothing gobbles)
                        : absl::StrCat("a piece gobbles only a smaller one: ", square, " shows an ",
                                       std::string(1, kSizeLetters[top]));
  }
  if (move.isDrop() && v.stacks && top >= 0) {
    return owner == us ? "from the reserve a piece may not cover your own piece (" + square + ")"
                       : "from the reserve a piece may cover an opponent's piece only if it is one of three of "
                         "theirs in a line (" +
                             square + " is not)";
  }
  return "illegal move";
}

}  // namespace

absl::StatusOr<Move> parseMove(const Board& board, std::string_view text) {
  const Variant& v = board.variant();
  Move move;
  if (text.size() == 4 && text[1] == '@') {
    const int size = sizeOfLetter(text[0]);
    if (size < 0 || size >= v.sizes)
      return invalid(absl::StrCat("unknown size '", std::string(text.substr(0, 1)), "' (this variant has ",
                                  std::string(kSizeLetters, v.sizes), ")"),
                     text);
    auto to = parseSquare(v, text.substr(2));
    if (!to.ok()) return to.status();
    move = Move::drop(size, *to);
  } else if (text.size() == 4) {
    auto from = parseSquare(v, text.substr(0, 2));
    if (!from.ok()) return from.status();
    auto to = parseSquare(v, text.substr(2));
    if (!to.ok()) return to.status();
    int owner = -1;
    const int size = board.top(*from, &owner);
    if (size < 0) return invalid("illegal move: the from-square is empty", text);
    if (owner != board.sideToMove()) return invalid("illegal move: the piece on the from-square is not yours", text);
    move = Move::boardMove(size, *from, *to);
  } else {
    return invalid("a move is <size>@<square> (like L@b2) or <from><to> (like a1b2)", text);
  }
  MoveList legal;
  generateMoves(board, legal);
  if (!legal.contains(move)) {
    if (board.winner() != kNoWinner) return invalid("illegal move: the game is already decided", text);
    return invalid("illegal move: " + illegalReason(board, move), text);
  }
  return move;
}

std::string positionToString(const Board& board) {
  const Variant& v = board.variant();
  std::string out;
  for (int r = v.n - 1; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < v.n; ++f) {
      const int sq = r * v.n + f;
      std::string pieces;
      for (int s = 0; s < v.sizes; ++s)
        for (int p = 0; p < 2; ++p)
          if (board.pieces(p, s) & bit(sq))
            pieces += p == 0 ? kSizeLetters[s] : static_cast<char>(std::tolower(kSizeLetters[s]));
      if (pieces.empty()) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      out += pieces.size() == 1 ? pieces : "[" + pieces + "]";
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (r) out += '/';
  }
  out += board.sideToMove() == 0 ? " 1" : " 2";
  return out;
}

absl::StatusOr<Board> parsePosition(const Variant& v, std::string_view text) {
  Board board(v);
  board.clear();
  const std::string_view original = text;
  while (!text.empty() && absl::ascii_isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && absl::ascii_isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  const size_t space = text.find(' ');
  if (space == std::string_view::npos)
    return invalid("a position is the board, a space, and the side to move (1 or 2)", original);
  const std::string_view ranks = text.substr(0, space);
  std::string_view side = text.substr(space + 1);
  while (!side.empty() && side.front() == ' ') side.remove_prefix(1);
  if (side != "1" && side != "2")
    return invalid(absl::StrCat("side to move must be 1 or 2, not '", std::string(side), "'"), original);

  int rank = v.n - 1, file = 0;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const char c = ranks[i];
    const std::string where = absl::StrCat(" at character ", i + 1);
    if (c == '/') {
      if (file != v.n)
        return invalid(absl::StrCat("rank ", rank + 1, " has ", file, " squares, expected ", v.n, where), original);
      if (--rank < 0) return invalid(absl::StrCat("more than ", v.n, " ranks", where), original);
      file = 0;
      continue;
    }
    if (c >= '1' && c <= '9') {
      if (i > 0 && ranks[i - 1] >= '1' && ranks[i - 1] <= '9')
        return invalid(absl::StrCat("two digits in a row (a run of empty squares is one digit)", where), original);
      file += c - '0';
      if (file > v.n)
        return invalid(absl::StrCat("rank ", rank + 1, " has more than ", v.n, " squares", where), original);
      continue;
    }
    if (file >= v.n)
      return invalid(absl::StrCat("rank ", rank + 1, " has more than ", v.n, " squares", where), original);
    const int square = rank * v.n + file;
    // One piece, or a bracketed stack listed bottom to top.
    std::string_view stack = ranks.substr(i, 1);
    if (c == '[') {
      const size_t close = ranks.find(']', i);
      if (close == std::string_view::npos) return invalid(absl::StrCat("unclosed '['", where), original);
      stack = ranks.substr(i + 1, close - i - 1);
      if (stack.empty()) return invalid(absl::StrCat("empty stack '[]'", where), original);
      if (stack.size() == 1)
        return invalid(absl::StrCat("a single piece is written without brackets", where), original);
      i = close;
    }
    int previous = -1;
    for (char letter : stack) {
      const int size = sizeOfLetter(letter);
      if (size < 0 || size >= v.sizes)
        return invalid(absl::StrCat("unknown piece '", std::string(1, letter), "' (this variant has sizes ",
                                    std::string(kSizeLetters, v.sizes), ")", where),
                       original);
      if (size <= previous)
        return invalid(
            absl::StrCat("stack on ", squareName(v, square), " is not strictly increasing from bottom to top", where),
            original);
      previous = size;
      board.addPiece(std::isupper(static_cast<unsigned char>(letter)) ? 0 : 1, size, square);
    }
    ++file;
  }
  if (rank != 0 || file != v.n) return invalid(absl::StrCat("expected ", v.n, " ranks of ", v.n, " squares"), original);
  board.setSideToMove(side == "1" ? 0 : 1);
  if (!board.countsValid()) {
    for (int p = 0; p < 2; ++p)
      for (int s = 0; s < v.sizes; ++s)
        if (board.placed(p, s) > v.perSize)
          return invalid(absl::StrCat("player ", p + 1, " has ", board.placed(p, s), " pieces of size ",
                                      std::string(1, kSizeLetters[s]), ", more than the supply of ", v.perSize),
                         original);
    std::string order;  // "#S <= #M <= #L <= #X <= 3"
    for (int s = 0; s < v.sizes; ++s) absl::StrAppend(&order, "#", std::string(1, kSizeLetters[s]), " <= ");
    return invalid(
        absl::StrCat("impossible stack counts: a player's pieces on the board cannot have come from ", v.stackCount(),
                     " nested stacks (for each player, ", order, v.stackCount(), " must hold)"),
        original);
  }
  return board;
}

}  // namespace gobblet
