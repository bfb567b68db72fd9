#include "search/evaluate.h"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "eval_weights.h"

namespace gobblet {

namespace {

using namespace eval_weights;

// Each group's first weight number (evaluate.h).
constexpr int kLineFirst = kEvalWeightGroups[0].first;
constexpr int kSafeInLineFirst = kEvalWeightGroups[1].first;
constexpr int kVisibleFirst = kEvalWeightGroups[2].first;
constexpr int kInHandFirst = kEvalWeightGroups[3].first;
constexpr int kCaptiveFirst = kEvalWeightGroups[4].first;
constexpr int kTempoNumber = kEvalWeightGroups[5].first;

// The groups follow each other without gaps and end at kEvalWeightCount.
constexpr bool groupsTileTheNumbers() {
  int next = 0;
  for (const EvalWeightGroup& g : kEvalWeightGroups) {
    if (g.first != next) return false;
    next += g.rows * g.columns;
  }
  return next == kEvalWeightCount;
}
static_assert(groupsTileTheNumbers(), "kEvalWeightGroups (evaluate.h) must number the weights 0, 1, ... in order");

// eval_weights.h's constants, numbered (evaluate.h).
constexpr EvalWeights flattenWeights() {
  EvalWeights w{};
  for (int m = 0; m < 5; ++m)
    for (int o = 0; o < 5; ++o) w[kLineFirst + 5 * m + o] = kLine[m][o];
  for (int rank = 0; rank < 4; ++rank) {
    w[kSafeInLineFirst + rank] = kSafeInLine[rank];
    w[kVisibleFirst + rank] = kVisible[rank];
    w[kInHandFirst + rank] = kInHand[rank];
    w[kCaptiveFirst + rank] = kCaptive[rank];
  }
  w[kTempoNumber] = kTempo;
  return w;
}
constexpr EvalWeights kCompiledWeights = flattenWeights();
static_assert(std::all_of(kCompiledWeights.begin(), kCompiledWeights.end(),
                          [](int w) { return w >= -kMaxEvalWeight && w <= kMaxEvalWeight; }),
              "an evaluation weight beyond kMaxEvalWeight (evaluate.h)");
static_assert(2 * 5 * kMaxEvalWeight < 32767, "line table entries must fit int16_t");

int pow9(int k) {
  int r = 1;
  while (k-- > 0) r *= 9;
  return r;
}

// What one line is worth to `player`, given the digit of each of its n
// squares, as weight counts: the kLine entry it takes (none if an opponent's
// rank-0 piece blocks it) and, if it holds two or more own pieces, the
// kSafeInLine entry of each of them.
struct LineCounts {
  bool counts = false;  // false: blocked, worth nothing
  int missing = 0, opponentPieces = 0;
  int safeByRank[4] = {0, 0, 0, 0};
};
LineCounts lineCounts(const std::array<int, 4>& digits, int n, int sizes, int player) {
  LineCounts c;
  int own = 0;
  for (int i = 0; i < n; ++i) {
    if (digits[i] == 0) continue;
    const int owner = (digits[i] - 1) / 4, size = (digits[i] - 1) % 4;
    const int rank = sizes - 1 - size;
    if (owner == player) {
      ++own;
      ++c.safeByRank[rank];
    } else {
      if (rank == 0) return {};  // an ungobblable blocker
      ++c.opponentPieces;
    }
  }
  c.counts = true;
  c.missing = n - own;
  if (own < 2) std::fill(std::begin(c.safeByRank), std::end(c.safeByRank), 0);
  return c;
}

int lineTotal(const std::array<int, 4>& digits, int n, int sizes, int player) {
  const LineCounts c = lineCounts(digits, n, sizes, player);
  if (!c.counts) return 0;
  int total = kLine[c.missing][c.opponentPieces];
  for (int rank = 0; rank < 4; ++rank) total += kSafeInLine[rank] * c.safeByRank[rank];
  return total;
}

// Generated tables: per board side n (3 or 4), per number of sizes, the line
// pattern scores (player 1 minus player 2).
struct Tables {
  std::vector<int16_t> line[5][5];  // [n][sizes]
  Tables() {
    for (int n = 3; n <= 4; ++n)
      for (int sizes = 1; sizes <= 4; ++sizes) {
        std::vector<int16_t>& t = line[n][sizes];
        t.assign(pow9(n), 0);
        for (int index = 0; index < pow9(n); ++index) {
          std::array<int, 4> digits{};
          bool valid = true;
          for (int i = 0, x = index; i < n; ++i, x /= 9) {
            digits[i] = x % 9;
            if (digits[i] && (digits[i] - 1) % 4 >= sizes) valid = false;
          }
          if (valid) t[index] = static_cast<int16_t>(lineTotal(digits, n, sizes, 0) - lineTotal(digits, n, sizes, 1));
        }
      }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// Per geometry, the squares of each line in order.
struct LineSquares {
  int count = 0;
  std::array<std::array<uint8_t, 4>, kMaxLines> squares{};
  explicit LineSquares(int n) {
    const Geometry& g = geometry(n);
    count = g.numLines;
    for (int l = 0; l < count; ++l) {
      int i = 0;
      for (Mask m = g.lines[l]; m; m &= m - 1) squares[l][i++] = static_cast<uint8_t>(std::countr_zero(m));
    }
  }
};

const LineSquares& lineSquares(int n) {
  static const LineSquares l3(3), l4(4);
  return n == 3 ? l3 : l4;
}

}  // namespace

namespace {

// The evaluation for a board side N and a number of sizes known at compile
// time, so that the loops over sizes, players and line squares unroll.
template <int N, int Sizes>
int evaluateFor(const Board& board) {
  const int16_t* table = tables().line[N][Sizes].data();
  const LineSquares& ls = lineSquares(N);

  // 1. Digits of the visible tops, and the material terms.
  std::array<uint8_t, kMaxSquares> digit{};
  int score = 0;
  Mask covered = 0, tops[2] = {0, 0};  // squares covered by sizes > s; tops seen so far
  for (int s = Sizes - 1; s >= 0; --s) {
    const int rank = Sizes - 1 - s;
    for (int p = 0; p < 2; ++p) {
      const int sign = p == 0 ? 1 : -1;
      const Mask mine = board.pieces(p, s);
      const Mask top = static_cast<Mask>(mine & ~covered);
      score += sign * (kVisible[rank] * std::popcount(top) + kInHand[rank] * board.inHand(p, s));
      for (Mask m = top; m; m &= m - 1) digit[std::countr_zero(m)] = static_cast<uint8_t>(1 + 4 * p + s);
      // Captives: our pieces under a top of the opponent's.
      const Mask buried = static_cast<Mask>(mine & covered);
      if (buried) score -= sign * kCaptive[rank] * std::popcount(static_cast<Mask>(buried & tops[p ^ 1]));
      tops[p] |= top;
    }
    covered |= board.sizeMask(s);
  }

  // 2. Line patterns.
  for (int l = 0; l < 2 * N + 2; ++l) {
    const auto& sq = ls.squares[l];
    int index = 0;
    for (int i = N - 1; i >= 0; --i) index = 9 * index + digit[sq[i]];
    score += table[index];
  }
  return score;
}

}  // namespace

int evaluateForPlayer1(const Board& board) {
  const Variant& v = board.variant();
  if (v.n == 4) {
    if (v.sizes == 4) return evaluateFor<4, 4>(board);
    if (v.sizes == 3) return evaluateFor<4, 3>(board);
    if (v.sizes == 2) return evaluateFor<4, 2>(board);
    return evaluateFor<4, 1>(board);
  }
  if (v.sizes == 4) return evaluateFor<3, 4>(board);
  if (v.sizes == 3) return evaluateFor<3, 3>(board);
  if (v.sizes == 2) return evaluateFor<3, 2>(board);
  return evaluateFor<3, 1>(board);
}

int evaluate(const Board& board) {
  const int s = evaluateForPlayer1(board);
  return (board.sideToMove() == 0 ? s : -s) + kTempo;
}

EvalWeights evalWeights() { return kCompiledWeights; }

// The slow, direct way: each player's counts on their own, the lines from
// their squares rather than from the pattern table. Only the weights are
// shared with evaluate(), which makes the two a cross-check.
EvalFeatures evaluateFeatures(const Board& board) {
  const Variant& v = board.variant();
  const int n = v.n, sizes = v.sizes;
  EvalFeatures f;

  // Visible tops (as base-9 digits for the lines), hand and captives.
  std::array<int, kMaxSquares> digit{};
  for (int sq = 0; sq < n * n; ++sq) {
    int topOwner = -1, topSize = -1;
    for (int s = sizes - 1; s >= 0 && topOwner < 0; --s)
      for (int p = 0; p < 2; ++p)
        if (board.pieces(p, s) >> sq & 1) topOwner = p, topSize = s;
    if (topOwner < 0) continue;
    digit[sq] = 1 + 4 * topOwner + topSize;
    ++f.count[topOwner][kVisibleFirst + sizes - 1 - topSize];
    // Every opponent piece under this top is its captive.
    for (int s = topSize - 1; s >= 0; --s)
      if (board.pieces(topOwner ^ 1, s) >> sq & 1) ++f.count[topOwner][kCaptiveFirst + sizes - 1 - s];
  }
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < sizes; ++s) f.count[p][kInHandFirst + sizes - 1 - s] += board.inHand(p, s);

  const LineSquares& ls = lineSquares(n);
  for (int l = 0; l < ls.count; ++l) {
    std::array<int, 4> digits{};
    for (int i = 0; i < n; ++i) digits[i] = digit[ls.squares[l][i]];
    for (int p = 0; p < 2; ++p) {
      const LineCounts c = lineCounts(digits, n, sizes, p);
      if (!c.counts) continue;
      ++f.count[p][kLineFirst + 5 * c.missing + c.opponentPieces];
      for (int rank = 0; rank < 4; ++rank) f.count[p][kSafeInLineFirst + rank] += c.safeByRank[rank];
    }
  }
  f.count[board.sideToMove()][kTempoNumber] = 1;
  return f;
}

// The terms are sums of weight x count over their groups' weights.
EvalTerms evaluateTerms(const Board& board) {
  const EvalFeatures f = evaluateFeatures(board);
  const auto sum = [&](const EvalWeightGroup& g, EvalTerm& term) {
    for (int p = 0; p < 2; ++p)
      for (int i = g.first; i < g.first + g.rows * g.columns; ++i)
        term.player[p] += kCompiledWeights[i] * f.count[p][i];
  };
  EvalTerms t;
  sum(kEvalWeightGroups[0], t.lines);
  sum(kEvalWeightGroups[1], t.lineSafety);
  sum(kEvalWeightGroups[2], t.visible);
  sum(kEvalWeightGroups[3], t.inHand);
  sum(kEvalWeightGroups[4], t.captives);
  t.tempo = kTempo;
  t.forPlayer1 = t.visible.net() + t.inHand.net() + t.captives.net() + t.lines.net() + t.lineSafety.net();
  t.total = (board.sideToMove() == 0 ? t.forPlayer1 : -t.forPlayer1) + t.tempo;
  return t;
}

}  // namespace gobblet
