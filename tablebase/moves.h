// Move and un-move generation on State (the builder's own representation,
// kept independent of engine/movegen so that the two cross-check each other
// in the tests).
//
// A state is seen from the side to move ("ours"). A move of ours gives the
// child seen from the opponent, so children and parents always come back
// with ours/theirs exchanged. Rules (the 3x3 family of engine/movegen.h):
//   * placement: a piece of size s still in hand (placed < perSize) onto any
//     square whose top is smaller than s or empty;
//   * board move (if the variant moves): a visible own piece of size s to
//     any other square whose top is smaller than s or empty;
//   * the game is over when a player shows a line; if both do, the side to
//     move wins (Board::winner()).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "index.h"

namespace gobblet::tb {

struct MoveRules {
  int sizes = 3, perSize = 2;
  bool moving = true;
  // Bit m of the 512: mask m holds a line (Geometry::hasLine, kept here in
  // 64 bytes: the builder asks it for nearly every child and parent).
  std::array<uint64_t, 8> lines{};
  // winSquares[m]: the squares q outside m for which m | q holds a line.
  std::array<uint16_t, 512> winSquares{};
  explicit MoveRules(const Variant& v) : sizes(v.sizes), perSize(v.perSize), moving(v.moving) {
    for (Mask m = 0; m < 512; ++m)
      if (geometry(3).hasLine(m)) lines[m / 64] |= uint64_t{1} << (m % 64);
    for (Mask m = 0; m < 512; ++m)
      for (int q = 0; q < 9; ++q)
        if (!(m >> q & 1) && hasLine(static_cast<Mask>(m | 1u << q))) winSquares[m] |= static_cast<uint16_t>(1u << q);
  }
  bool hasLine(Mask m) const { return lines[m / 64] >> (m % 64) & 1; }
};

// atLeast[s] = squares whose top has size >= s; atLeast[3] = 0.
inline void atLeastMasks(const State& st, Mask atLeast[4]) {
  atLeast[3] = 0;
  for (int s = 2; s >= 0; --s) atLeast[s] = static_cast<Mask>(atLeast[s + 1] | st.ours[s] | st.theirs[s]);
}

// The squares where ours / theirs are on top.
struct Visible {
  Mask ours = 0, theirs = 0;
};
inline Visible visible(const State& st) {
  const Mask large = st.ours[2] | st.theirs[2], medium = large | st.ours[1] | st.theirs[1];
  return {static_cast<Mask>(st.ours[2] | (st.ours[1] & ~large) | (st.ours[0] & ~medium)),
          static_cast<Mask>(st.theirs[2] | (st.theirs[1] & ~large) | (st.theirs[0] & ~medium))};
}

// +1 if the side to move shows a line (it wins), -1 if only the opponent
// does (it lost), 0 if the game goes on.
inline int outcome(const MoveRules& r, const Visible& v) {
  return r.hasLine(v.ours) ? 1 : r.hasLine(v.theirs) ? -1 : 0;
}
inline int outcome(const MoveRules& r, const State& st) { return outcome(r, visible(st)); }

// What square `sq` shows once its top piece, of size `size`, is lifted:
// ours / theirs of the next smaller size there, else nothing.
inline Visible shownUnder(const State& st, int size, Mask sq) {
  for (int s = size - 1; s >= 0; --s) {
    if (st.ours[s] & sq) return {sq, 0};
    if (st.theirs[s] & sq) return {0, sq};
  }
  return {};
}

// What the two sides show once the top piece of `sq`, of size `size`, is
// lifted off (shown is visible(st)): the square shows what lies under it.
inline Visible lifted(const State& st, const Visible& shown, int size, Mask sq) {
  const Visible under = shownUnder(st, size, sq);
  return {static_cast<Mask>((shown.ours & ~sq) | under.ours), static_cast<Mask>((shown.theirs & ~sq) | under.theirs)};
}

// Calls emit(child, placed, over) for every move of a state that is not
// over; placed tells a placement (the child is one level fuller) from a
// board move, over is outcome(child), found from the squares the move
// changes (the builder asks it of billions of children). An emit that
// returns bool stops the walk by returning true.
template <typename Emit>
inline void forEachChild(const MoveRules& r, const State& st, Emit&& emit) {
  auto call = [&](const State& c, bool placed, int over) {
    if constexpr (std::is_same_v<decltype(emit(c, placed, over)), bool>)
      return emit(c, placed, over);
    else
      return emit(c, placed, over), false;
  };
  Mask al[4];
  atLeastMasks(st, al);
  const Visible v = visible(st);
  for (int s = 0; s < r.sizes; ++s) {
    const Mask targets = static_cast<Mask>(0x1ff & ~al[s]);
    if (std::popcount(st.ours[s]) < r.perSize) {
      for (Mask t = targets; t; t &= t - 1) {
        const Mask to = static_cast<Mask>(t & -t);
        State c{st.theirs, st.ours};
        c.theirs[s] |= to;
        // The mover's piece goes on top: only the mover can show a new line
        // (the state was not over).
        if (call(c, true, r.hasLine(static_cast<Mask>(v.ours | to)) ? -1 : 0)) return;
      }
    }
    if (!r.moving) continue;
    for (Mask from = static_cast<Mask>(st.ours[s] & ~al[s + 1]); from; from &= from - 1) {
      const Mask f = static_cast<Mask>(from & -from);
      const Visible left = lifted(st, v, s, f);
      const Mask moverLeft = left.ours, otherLeft = left.theirs;
      for (Mask t = targets; t; t &= t - 1) {
        const Mask to = static_cast<Mask>(t & -t);
        State c{st.theirs, st.ours};
        c.theirs[s] ^= static_cast<Mask>(f | to);
        if (call(c, false, outcome(r, Visible{static_cast<Mask>(otherLeft & ~to), static_cast<Mask>(moverLeft | to)})))
          return;
      }
    }
  }
}

// Whether the side to move of `st` (a game not over) has a move that wins
// at once: whether forEachChild would emit a child with over < 0. Asked of
// every reached state; found from masks, without making the children.
//   * A placement of size s wins if a square where s may go completes a
//     line of the mover's visible pieces.
//   * A board move of a visible piece of size s from f to t wins if t
//     completes a line of what the mover shows without f (and with what f
//     uncovers, if it is the mover's), and the opponent then shows no line:
//     lifting f may uncover one, which only covering it with t undoes.
inline bool hasWinInOne(const MoveRules& r, const State& st) {
  Mask al[4];
  atLeastMasks(st, al);
  const Visible v = visible(st);
  const Mask completing = r.winSquares[v.ours];
  for (int s = 0; s < r.sizes; ++s) {
    const Mask targets = static_cast<Mask>(0x1ff & ~al[s]);
    if (std::popcount(st.ours[s]) < r.perSize && (completing & targets)) return true;
    if (!r.moving) continue;
    for (Mask from = static_cast<Mask>(st.ours[s] & ~al[s + 1]); from; from &= from - 1) {
      const Mask f = static_cast<Mask>(from & -from);
      const Visible left = lifted(st, v, s, f);
      Mask wins = static_cast<Mask>(r.winSquares[left.ours] & targets);
      if (wins && !r.hasLine(left.theirs)) return true;
      for (; wins; wins &= wins - 1)
        if (!r.hasLine(static_cast<Mask>(left.theirs & ~(wins & -wins)))) return true;
    }
  }
  return false;
}

// Calls emit(parent, placed, over) for every state (game not over or over:
// over is outcome(parent), found from the squares the un-move changes) one
// of whose moves leads to `st`: the opponent's last move was the placement
// of one of its visible pieces (placed = true, the parent is one level
// emptier) or a board move of one (placed = false). An emit that returns
// bool stops the walk by returning true.
//
// With kLiveOnly, only the parents that are games going on (over == 0):
// those the builder asks. A piece whose lifting leaves its owner a line has
// none (every un-move of it, placement or board move, leaves that line), so
// its un-moves are not made: in a finished game most are such.
template <bool kLiveOnly = false, typename Emit>
inline void forEachParent(const MoveRules& r, const State& st, Emit&& emit) {
  auto call = [&](const State& p, bool placed, int over) {
    if (kLiveOnly && over != 0) return false;
    if constexpr (std::is_same_v<decltype(emit(p, placed, over)), bool>)
      return emit(p, placed, over);
    else
      return emit(p, placed, over), false;
  };
  Mask al[4];
  atLeastMasks(st, al);
  const Visible v = visible(st);
  for (int s = 0; s < r.sizes; ++s) {
    const Mask sources = static_cast<Mask>(0x1ff & ~al[s]);
    for (Mask to = static_cast<Mask>(st.theirs[s] & ~al[s + 1]); to; to &= to - 1) {
      const Mask t = static_cast<Mask>(to & -to);
      // The parent is seen from the mover: its ours are st's theirs.
      const Visible left = lifted(st, v, s, t);
      const Mask moverLeft = left.theirs, otherLeft = left.ours;
      if (kLiveOnly && r.hasLine(moverLeft)) continue;
      State p{st.theirs, st.ours};
      p.ours[s] ^= t;
      if (call(p, true, outcome(r, Visible{moverLeft, otherLeft}))) return;
      if (!r.moving) continue;
      for (Mask from = sources; from; from &= from - 1) {
        const Mask f = static_cast<Mask>(from & -from);
        State q{st.theirs, st.ours};
        q.ours[s] ^= static_cast<Mask>(t | f);
        if (call(q, false, outcome(r, Visible{static_cast<Mask>(moverLeft | f), static_cast<Mask>(otherLeft & ~f)})))
          return;
      }
    }
  }
}

// The first parent by placement that is a game going on, in
// forEachParent's order (sizes up, squares up): true with the size and the
// square of the opponent's piece whose placement made `st`. The reach pass
// asks this parent first and numbers it from its layers' codes, without
// making it (forEachLiveParent makes every parent it meets, also the
// board-move parents it emits before).
inline bool firstLivePlacementParent(const MoveRules& r, const State& st, int* size, Mask* square) {
  Mask al[4];
  atLeastMasks(st, al);
  const Visible v = visible(st);
  for (int s = 0; s < r.sizes; ++s) {
    for (Mask to = static_cast<Mask>(st.theirs[s] & ~al[s + 1]); to; to &= to - 1) {
      const Mask t = static_cast<Mask>(to & -to);
      const Visible left = lifted(st, v, s, t);
      if (r.hasLine(left.theirs) || r.hasLine(left.ours)) continue;
      *size = s;
      *square = t;
      return true;
    }
  }
  return false;
}

// The first parent by board move that is a game going on, in
// forEachParent's order (sizes up, squares up, then the squares it came
// from up): true with the size of the opponent's piece, the square it went
// to and the square it came from. The reach pass asks it of the states
// whose last move can have been no placement from a game going on (most
// are games won by the side to move, which only lifting a piece can show).
inline bool firstLiveBoardParent(const MoveRules& r, const State& st, int* size, Mask* to, Mask* from) {
  if (!r.moving) return false;
  Mask al[4];
  atLeastMasks(st, al);
  const Visible v = visible(st);
  for (int s = 0; s < r.sizes; ++s) {
    const Mask sources = static_cast<Mask>(0x1ff & ~al[s]);
    for (Mask tos = static_cast<Mask>(st.theirs[s] & ~al[s + 1]); tos; tos &= tos - 1) {
      const Mask t = static_cast<Mask>(tos & -tos);
      const Visible left = lifted(st, v, s, t);
      if (r.hasLine(left.theirs)) continue;  // every un-move of this piece leaves that line
      for (Mask fs = sources; fs; fs &= fs - 1) {
        const Mask f = static_cast<Mask>(fs & -fs);
        if (r.hasLine(static_cast<Mask>(left.theirs | f)) || r.hasLine(static_cast<Mask>(left.ours & ~f))) continue;
        *size = s;
        *to = t;
        *from = f;
        return true;
      }
    }
  }
  return false;
}

// forEachParent's live parents only (see there).
template <typename Emit>
inline void forEachLiveParent(const MoveRules& r, const State& st, Emit&& emit) {
  forEachParent<true>(r, st, std::forward<Emit>(emit));
}

}  // namespace gobblet::tb
