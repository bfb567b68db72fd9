#include "tests/support/reference_rules.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <utility>

namespace gobblet::reference {

namespace {

constexpr char kLetters[] = "SMLX";

char pieceLetter(const Piece& p) {
  const char c = kLetters[p.size];
  return p.owner == 0 ? c : static_cast<char>(c - 'A' + 'a');
}

}  // namespace

std::string squareText(int n, int square) {
  std::string s;
  s += static_cast<char>('a' + square % n);
  s += static_cast<char>('1' + square / n);
  return s;
}

std::string moveText(int n, const Move& move) {
  if (move.drop) return std::string(1, kLetters[move.size]) + "@" + squareText(n, move.to);
  return squareText(n, move.from) + squareText(n, move.to);
}

namespace {
std::vector<std::vector<int>> buildLines(int n) {
  std::vector<std::vector<int>> result;
  for (int r = 0; r < n; ++r) {
    std::vector<int> row;
    for (int f = 0; f < n; ++f) row.push_back(r * n + f);
    result.push_back(row);
  }
  for (int f = 0; f < n; ++f) {
    std::vector<int> column;
    for (int r = 0; r < n; ++r) column.push_back(r * n + f);
    result.push_back(column);
  }
  std::vector<int> diagonal, anti;
  for (int i = 0; i < n; ++i) {
    diagonal.push_back(i * n + i);
    anti.push_back(i * n + (n - 1 - i));
  }
  result.push_back(diagonal);
  result.push_back(anti);
  return result;
}
}  // namespace

const std::vector<std::vector<int>>& lines(int n) {
  static const std::vector<std::vector<int>> three = buildLines(3), four = buildLines(4);
  return n == 3 ? three : four;
}

Position::Position(const Variant& variant) : variant_(variant), squares_(variant.n * variant.n) {}

Position Position::fromBoard(const Board& board) {
  Position p(board.variant());
  for (int sq = 0; sq < p.squareCount(); ++sq)
    for (int size = 0; size < p.variant_.sizes; ++size)
      for (int player = 0; player < 2; ++player)
        if (board.pieces(player, size) & (1u << sq)) p.squares_[sq].push_back(Piece{player, size});
  p.toMove_ = board.sideToMove();
  return p;
}

Board Position::toBoard() const {
  Board board(variant_);
  for (int sq = 0; sq < squareCount(); ++sq)
    for (const Piece& piece : squares_[sq]) board.addPiece(piece.owner, piece.size, sq);
  board.setSideToMove(toMove_);
  return board;
}

std::optional<Piece> Position::top(int sq) const {
  if (squares_[sq].empty()) return std::nullopt;
  return squares_[sq].back();
}

int Position::onBoard(int player, int size) const {
  int count = 0;
  for (const auto& square : squares_)
    for (const Piece& piece : square)
      if (piece.owner == player && piece.size == size) ++count;
  return count;
}

std::vector<int> Position::stackHeights(int player) const {
  if (!variant_.stacks) return {};
  // The variant's perSize is its number of stacks, K. Stack i still holds
  // size s iff i < K - onBoard(s) (stacks are emptied largest piece first,
  // so the stacks holding size s+1 are among those holding size s). A
  // stack's sizes must then be S..(height-th size).
  const int stackNumber = variant_.perSize;
  std::vector<int> heights;
  for (int stack = 0; stack < stackNumber; ++stack) {
    int height = 0;
    bool gap = false;
    for (int size = 0; size < variant_.sizes; ++size) {
      const int remaining = stackNumber - onBoard(player, size);
      if (remaining < 0) return {};
      const bool holds = stack < remaining;
      if (holds && gap) return {};  // holds a size above a missing one
      if (holds)
        ++height;
      else
        gap = true;
    }
    heights.push_back(height);
  }
  return heights;
}

std::vector<int> Position::supplySizes(int player) const {
  std::vector<int> sizes;
  if (variant_.stacks) {
    for (int h : stackHeights(player))
      if (h > 0) sizes.push_back(h - 1);  // the top of a stack of height h
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  } else {
    for (int size = 0; size < variant_.sizes; ++size)
      if (variant_.perSize - onBoard(player, size) > 0) sizes.push_back(size);
  }
  return sizes;
}

bool Position::hasLine(int player) const {
  for (const auto& line : lines(n())) {
    bool all = true;
    for (int sq : line)
      if (squares_[sq].empty() || squares_[sq].back().owner != player) {
        all = false;
        break;
      }
    if (all) return true;
  }
  return false;
}

int Position::winner() const {
  const int nonMover = toMove_, mover = toMove_ ^ 1;
  if (hasLine(nonMover)) return nonMover;
  if (hasLine(mover)) return mover;
  return kNobody;
}

std::vector<Move> Position::legalMoves() const {
  std::vector<Move> moves;
  if (winner() != kNobody) return moves;
  const int me = toMove_, opponent = toMove_ ^ 1;

  // Placements from the supply.
  for (int size : supplySizes(me)) {
    for (int sq = 0; sq < squareCount(); ++sq) {
      const auto t = top(sq);
      bool ok = false;
      if (!t) {
        ok = true;
      } else if (t->size < size) {
        if (!variant_.stacks) {
          ok = true;  // 3x3: over any strictly smaller piece
        } else if (t->owner == opponent) {
          // 4x4: only an opponent piece that is one of exactly three visible
          // opponent pieces in some line through it.
          for (const auto& line : lines(n())) {
            if (std::find(line.begin(), line.end(), sq) == line.end()) continue;
            int count = 0;
            for (int x : line) {
              const auto xt = top(x);
              if (xt && xt->owner == opponent) ++count;
            }
            if (count == 3) ok = true;
          }
        }
      }
      if (ok) moves.push_back(Move{true, size, -1, sq});
    }
  }

  // Moves of a visible own piece to another square with an empty or smaller top.
  if (variant_.moving) {
    for (int from = 0; from < squareCount(); ++from) {
      const auto piece = top(from);
      if (!piece || piece->owner != me) continue;
      for (int to = 0; to < squareCount(); ++to) {
        if (to == from) continue;
        const auto t = top(to);
        if (!t || t->size < piece->size) moves.push_back(Move{false, piece->size, from, to});
      }
    }
  }

  // Distinct by text, in text order.
  std::vector<std::pair<std::string, Move>> byText;
  for (const Move& m : moves) byText.emplace_back(moveText(n(), m), m);
  std::sort(byText.begin(), byText.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  moves.clear();
  for (size_t i = 0; i < byText.size(); ++i)
    if (i == 0 || byText[i].first != byText[i - 1].first) moves.push_back(byText[i].second);
  return moves;
}

std::vector<std::string> Position::legalMoveTexts() const {
  std::vector<std::string> texts;
  for (const Move& m : legalMoves()) texts.push_back(moveText(n(), m));
  return texts;
}

void Position::play(const Move& move) {
  if (move.drop) {
    squares_[move.to].push_back(Piece{toMove_, move.size});
  } else {
    assert(!squares_[move.from].empty());
    const Piece piece = squares_[move.from].back();
    squares_[move.from].pop_back();
    squares_[move.to].push_back(piece);
  }
  toMove_ ^= 1;
}

Piece Position::lift(int sq) {
  const Piece piece = squares_[sq].back();
  squares_[sq].pop_back();
  return piece;
}

void Position::undo(const Move& move) {
  toMove_ ^= 1;
  const Piece piece = squares_[move.to].back();
  squares_[move.to].pop_back();
  if (!move.drop) squares_[move.from].push_back(piece);
}

bool Position::valid(std::string* why) const {
  auto fail = [&](const std::string& message) {
    if (why) *why = message;
    return false;
  };
  for (int sq = 0; sq < squareCount(); ++sq) {
    const auto& pieces = squares_[sq];
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].size < 0 || pieces[i].size >= variant_.sizes) return fail("size out of range");
      if (i > 0 && pieces[i].size <= pieces[i - 1].size) return fail("stack not increasing");
    }
  }
  for (int player = 0; player < 2; ++player) {
    if (variant_.stacks) {
      if (stackHeights(player).empty()) return fail("impossible stack counts");
    } else {
      for (int size = 0; size < variant_.sizes; ++size)
        if (onBoard(player, size) > variant_.perSize) return fail("too many pieces");
    }
  }
  return true;
}

std::string Position::text() const {
  std::string out;
  for (int rank = n() - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < n(); ++file) {
      const auto& pieces = squares_[rank * n() + file];
      if (pieces.empty()) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      if (pieces.size() == 1) {
        out += pieceLetter(pieces[0]);
      } else {
        out += '[';
        for (const Piece& p : pieces) out += pieceLetter(p);
        out += ']';
      }
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (rank > 0) out += '/';
  }
  out += toMove_ == 0 ? " 1" : " 2";
  return out;
}

std::optional<Position> Position::parse(const Variant& variant, const std::string& text, std::string* error) {
  auto fail = [&](const std::string& message) -> std::optional<Position> {
    if (error) *error = message;
    return std::nullopt;
  };
  Position p(variant);
  const int n = variant.n;
  const size_t space = text.find(' ');
  if (space == std::string::npos) return fail("no side to move");
  const std::string side = text.substr(space + 1);
  if (side == "1")
    p.toMove_ = 0;
  else if (side == "2")
    p.toMove_ = 1;
  else
    return fail("bad side to move");

  const std::string board = text.substr(0, space);
  int rank = n - 1, file = 0;
  for (size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (c == '/') {
      if (file != n) return fail("rank of wrong length");
      if (--rank < 0) return fail("too many ranks");
      file = 0;
    } else if (c >= '1' && c <= '9') {
      if (i > 0 && board[i - 1] >= '0' && board[i - 1] <= '9') return fail("two digits in a row");
      file += c - '0';
      if (file > n) return fail("rank too long");
    } else if (c == '[') {
      const size_t close = board.find(']', i);
      if (close == std::string::npos) return fail("unclosed bracket");
      if (close - i - 1 < 2) return fail("bracket with fewer than two pieces");
      if (file >= n) return fail("rank too long");
      for (size_t j = i + 1; j < close; ++j) {
        const char* at = std::find(kLetters, kLetters + variant.sizes, static_cast<char>(std::toupper(board[j])));
        if (at == kLetters + variant.sizes) return fail("unknown letter in a stack");
        p.squares_[rank * n + file].push_back(Piece{std::isupper(board[j]) ? 0 : 1, static_cast<int>(at - kLetters)});
      }
      ++file;
      i = close;
    } else {
      const char* at = std::find(kLetters, kLetters + variant.sizes, static_cast<char>(std::toupper(c)));
      if (!std::isalpha(c) || at == kLetters + variant.sizes) return fail("unknown letter");
      if (file >= n) return fail("rank too long");
      p.squares_[rank * n + file].push_back(Piece{std::isupper(c) ? 0 : 1, static_cast<int>(at - kLetters)});
      ++file;
    }
  }
  if (rank != 0 || file != n) return fail("too few ranks or short last rank");
  std::string why;
  if (!p.valid(&why)) return fail(why);
  return p;
}

uint64_t perft(Position& position, int depth) {
  if (depth == 0) return 1;
  const std::vector<Move> moves = position.legalMoves();
  if (depth == 1) return moves.size();
  uint64_t nodes = 0;
  for (const Move& m : moves) {
    position.play(m);
    nodes += perft(position, depth - 1);
    position.undo(m);
  }
  return nodes;
}

}  // namespace gobblet::reference
