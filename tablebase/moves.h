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
  // lineBreakers[m]: the squares q for which m without q holds no line (all
  // nine if m holds none).
  std::array<uint16_t, 512> lineBreakers{};
  explicit MoveRules(const Variant& v) : sizes(v.sizes), perSize(v.perSize), moving(v.moving) {
    for (Mask m = 0; m < 512; ++m)
      if (geometry(3).hasLine(m)) lines[m / 64] |= uint64_t{1} << (m % 64);
    for (Mask m = 0; m < 512; ++m)
      for (int q = 0; q < 9; ++q)
        if (!(m >> q & 1) && hasLine(static_cast<Mask>(m | 1u << q))) winSquares[m] |= static_cast<uint16_t>(1u << q);
    for (Mask m = 0; m < 512; ++m)
      for (int q = 0; q < 9; ++q)
        if (!hasLine(static_cast<Mask>(m & ~(1u << q)))) lineBreakers[m] |= static_cast<uint16_t>(1u << q);
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

// What a state shows, found once for all its moves or un-moves (the
// builder walks billions): where the tops of each size are, whose they
// are, and what each square shows once its top is lifted.
//
//   atLeast[s]  the squares whose top has size >= s (atLeast[3] = 0)
//   shown       visible(st): the squares where ours / theirs are on top
//   under       the squares where the piece right under the top is ours /
//               theirs (neither: the top is alone)
struct Tops {
  Mask atLeast[4];
  Visible shown, under;
};
inline Tops topsOf(const State& st) {
  Tops t;
  atLeastMasks(st, t.atLeast);
  t.shown = visible(st);
  // Under a large top the medium piece, else the small one; under a medium
  // top the small one.
  const Mask large = t.atLeast[2], mediumTop = static_cast<Mask>(t.atLeast[1] & ~large),
             noMedium = static_cast<Mask>(~(st.ours[1] | st.theirs[1]));
  t.under.ours = static_cast<Mask>((large & (st.ours[1] | (st.ours[0] & noMedium))) | (mediumTop & st.ours[0]));
  t.under.theirs = static_cast<Mask>((large & (st.theirs[1] | (st.theirs[0] & noMedium))) | (mediumTop & st.theirs[0]));
  return t;
}

// What the two sides show once the top piece of `sq` is lifted off: the
// square shows what lies under it.
inline Visible lifted(const Tops& t, Mask sq) {
  return {static_cast<Mask>((t.shown.ours & ~sq) | (t.under.ours & sq)),
          static_cast<Mask>((t.shown.theirs & ~sq) | (t.under.theirs & sq))};
}

// A move or un-move names the piece it moves: its size, the square it goes
// to and the square it comes from (0: from the hand, a placement). The
// walks below emit them as such, so that a caller numbering the neighbours
// codes only the layer that changes; childOf / parentOf make the states.
//
// The state a move of `st` leads to, seen from the opponent.
inline State childOf(const State& st, int size, Mask to, Mask from) {
  State c{st.theirs, st.ours};
  c.theirs[size] ^= static_cast<Mask>(to | from);
  return c;
}
// The state whose move (seen from its mover, the opponent of st's side to
// move) led to `st`.
inline State parentOf(const State& st, int size, Mask to, Mask from) {
  State p{st.theirs, st.ours};
  p.ours[size] ^= static_cast<Mask>(to | from);
  return p;
}

// emit(args...), and whether it asks the walk to stop: an emit that
// returns bool stops it by returning true.
template <typename Emit, typename... Args>
inline bool emitStops(Emit& emit, const Args&... args) {
  if constexpr (std::is_same_v<std::invoke_result_t<Emit&, const Args&...>, bool>) {
    return emit(args...);
  } else {
    emit(args...);
    return false;
  }
}

// Calls emit(size, to, from, over, shown) for every move of a state that
// is not over (from == 0: a placement, whose child is one level fuller):
// shown is what the child's two sides show (visible(child)), over is
// outcome(child), both found from the squares the move changes (the
// builder asks them of billions of children).
template <typename Emit>
inline void forEachMove(const MoveRules& r, const State& st, const Tops& tops, Emit&& emit) {
  const Mask* al = tops.atLeast;
  const Visible& v = tops.shown;
  for (int s = 0; s < r.sizes; ++s) {
    const Mask targets = static_cast<Mask>(0x1ff & ~al[s]);
    if (std::popcount(st.ours[s]) < r.perSize) {
      // The mover's piece goes on top: only the mover can show a new line
      // (the state was not over), where `to` completes one.
      const Mask winning = r.winSquares[v.ours];
      for (Mask t = targets; t; t &= t - 1) {
        const Mask to = static_cast<Mask>(t & -t);
        if (emitStops(emit, s, to, Mask{0}, (to & winning) ? -1 : 0,
                      Visible{static_cast<Mask>(v.theirs & ~to), static_cast<Mask>(v.ours | to)}))
          return;
      }
    }
    if (!r.moving) continue;
    for (Mask from = static_cast<Mask>(st.ours[s] & ~al[s + 1]); from; from &= from - 1) {
      const Mask f = static_cast<Mask>(from & -from);
      const Visible left = lifted(tops, f);
      const Mask moverLeft = left.ours, otherLeft = left.theirs;
      // The child is over for the other side (+1) where `to` leaves a line
      // of its, shown by lifting f, uncovered; else for the mover (-1)
      // where `to` completes a line of what the mover shows without f
      // (which holds none: it is part of what the mover shows now).
      const Mask otherWins = static_cast<Mask>(~r.lineBreakers[otherLeft]);
      const Mask moverWins = r.winSquares[moverLeft];
      for (Mask t = targets; t; t &= t - 1) {
        const Mask to = static_cast<Mask>(t & -t);
        if (emitStops(emit, s, to, f,
                      (to & otherWins)   ? 1
                      : (to & moverWins) ? -1
                                         : 0,
                      Visible{static_cast<Mask>(otherLeft & ~to), static_cast<Mask>(moverLeft | to)}))
          return;
      }
    }
  }
}

template <typename Emit>
inline void forEachMove(const MoveRules& r, const State& st, Emit&& emit) {
  forEachMove(r, st, topsOf(st), std::forward<Emit>(emit));
}

// forEachMove with the children made: emit(child, placed, over).
template <typename Emit>
inline void forEachChild(const MoveRules& r, const State& st, Emit&& emit) {
  forEachMove(r, st, [&](int size, Mask to, Mask from, int over, const Visible&) {
    return emitStops(emit, childOf(st, size, to, from), from == 0, over);
  });
}

// The squares on which the opponent of st's side to move could place a
// piece it still holds, on st's tops. A child of
// st, or a parent by board move, has the opponent to move with the same
// pieces in hand and st's tops but on the squares the move changed: such a
// neighbour is won in 1 (by a placement) if one of these squares outside
// the changed ones completes a line of what the opponent shows there
// (placementWinsAround).
inline Mask opponentPlacementSquares(const MoveRules& r, const State& st, const Tops& tops) {
  const Mask* al = tops.atLeast;
  Mask squares = 0;
  for (int s = 0; s < r.sizes; ++s)
    if (std::popcount(st.theirs[s]) < r.perSize) squares |= static_cast<Mask>(~al[s] & 0x1ff);
  return squares;
}
inline Mask opponentPlacementSquares(const MoveRules& r, const State& st) {
  return opponentPlacementSquares(r, st, topsOf(st));
}
// Whether that neighbour, which shows `shown` (its side to move's pieces as
// shown.ours), its move having changed `changed`, is surely won in 1.
inline bool placementWinsAround(const MoveRules& r, Mask opponentSquares, const Visible& shown, Mask changed) {
  return (r.winSquares[shown.ours] & opponentSquares & ~changed) != 0;
}

// Whether the side to move of `st` (a game not over) has a move that wins
// at once: whether forEachChild would emit a child with over < 0. Asked of
// every reached state; found from masks, without making the children.
//   * A placement of size s wins if a square where s may go completes a
//     line of the mover's visible pieces.
//   * A board move of a visible piece of size s from f to t wins if t
//     completes a line of what the mover shows without f (which holds none:
//     it is part of what the mover shows now), and the opponent then shows
//     no line: lifting f may uncover one, which only covering it with t
//     undoes (t among its lineBreakers).
inline bool hasWinInOne(const MoveRules& r, const State& st, const Tops& tops) {
  const Mask* al = tops.atLeast;
  const Visible& v = tops.shown;
  const Mask completing = r.winSquares[v.ours];
  for (int s = 0; s < r.sizes; ++s) {
    const Mask targets = static_cast<Mask>(0x1ff & ~al[s]);
    if (std::popcount(st.ours[s]) < r.perSize && (completing & targets)) return true;
    if (!r.moving) continue;
    for (Mask from = static_cast<Mask>(st.ours[s] & ~al[s + 1]); from; from &= from - 1) {
      const Mask f = static_cast<Mask>(from & -from);
      const Visible left = lifted(tops, f);
      if (r.winSquares[left.ours] & targets & r.lineBreakers[left.theirs]) return true;
    }
  }
  return false;
}
inline bool hasWinInOne(const MoveRules& r, const State& st) { return hasWinInOne(r, st, topsOf(st)); }

// The squares `to` of st's live un-moves by placement: where the
// opponent's top piece can have been placed in a game going on. Lifting it
// leaves the opponent a line unless the piece broke each of its lines and
// what lies under is not the opponent's (lineBreakers), and gives st's side
// to move one where the piece under is ours and completes a line of ours
// (winSquares); none if st's side to move shows a line already.
inline Mask livePlacementUnmoves(const MoveRules& r, const Tops& t) {
  const Visible& v = t.shown;
  if (r.hasLine(v.ours)) return 0;
  Mask to = static_cast<Mask>(v.theirs & ~(t.under.ours & r.winSquares[v.ours]));
  if (r.hasLine(v.theirs)) to &= static_cast<Mask>(r.lineBreakers[v.theirs] & ~t.under.theirs);
  return to;
}

// The kinds of un-moves a walk over a state's parents emits.
enum Unmoves { kPlacements = 1, kBoardMoves = 2, kAllUnmoves = 3 };

// Calls emit(size, to, from, over, shown) for every un-move of `st`: the
// opponent's last move, of its visible piece of `size` now on `to`, was a
// placement (from == 0, the parent is one level emptier) or a board move
// from `from`; shown is visible(parent), over is outcome(parent), both
// found from the squares the un-move changes. In forEachParent's order: sizes up, squares `to` up, the
// placement before the board moves, squares `from` up.
//
// With kLiveOnly, only the un-moves from games going on (over == 0): those
// the builder asks. A piece whose lifting leaves its owner a line has none
// (every un-move of it, placement or board move, leaves that line), so its
// un-moves are not tried: in a finished game most are such.
template <bool kLiveOnly = false, int kKinds = kAllUnmoves, typename Emit>
inline void forEachUnmove(const MoveRules& r, const State& st, const Tops& tops, Emit&& emit) {
  const Mask* al = tops.atLeast;
  if constexpr (kLiveOnly && kKinds == kPlacements) {  // from masks, in the same order
    const Mask live = livePlacementUnmoves(r, tops);
    for (int s = 0; s < r.sizes; ++s)
      for (Mask tos = static_cast<Mask>(live & st.theirs[s] & ~al[s + 1]); tos; tos &= tos - 1) {
        const Mask t = static_cast<Mask>(tos & -tos);
        const Visible left = lifted(tops, t);
        if (emitStops(emit, s, t, Mask{0}, 0, Visible{left.theirs, left.ours})) return;
      }
    return;
  }
  for (int s = 0; s < r.sizes; ++s) {
    const Mask sources = static_cast<Mask>(0x1ff & ~al[s]);
    for (Mask tos = static_cast<Mask>(st.theirs[s] & ~al[s + 1]); tos; tos &= tos - 1) {
      const Mask t = static_cast<Mask>(tos & -tos);
      // The parent is seen from the mover: its ours are st's theirs.
      const Visible left = lifted(tops, t);
      const Mask moverLeft = left.theirs, otherLeft = left.ours;
      if (kLiveOnly && r.hasLine(moverLeft)) continue;
      if constexpr ((kKinds & kPlacements) != 0) {
        const int over = outcome(r, Visible{moverLeft, otherLeft});
        if ((!kLiveOnly || over == 0) && emitStops(emit, s, t, Mask{0}, over, Visible{moverLeft, otherLeft})) return;
      }
      if ((kKinds & kBoardMoves) == 0 || !r.moving) continue;
      // The piece came from f: the mover shows f again, the other side no
      // longer. Live only if neither then shows a line: f completes none of
      // the mover's and breaks every one of the other side's.
      const Mask from =
          kLiveOnly ? static_cast<Mask>(sources & ~r.winSquares[moverLeft] & r.lineBreakers[otherLeft]) : sources;
      for (Mask fs = from; fs; fs &= fs - 1) {
        const Mask f = static_cast<Mask>(fs & -fs);
        const int over =
            kLiveOnly ? 0 : outcome(r, Visible{static_cast<Mask>(moverLeft | f), static_cast<Mask>(otherLeft & ~f)});
        if (emitStops(emit, s, t, f, over,
                      Visible{static_cast<Mask>(moverLeft | f), static_cast<Mask>(otherLeft & ~f)}))
          return;
      }
    }
  }
}

template <bool kLiveOnly = false, int kKinds = kAllUnmoves, typename Emit>
inline void forEachUnmove(const MoveRules& r, const State& st, Emit&& emit) {
  forEachUnmove<kLiveOnly, kKinds>(r, st, topsOf(st), std::forward<Emit>(emit));
}

// forEachUnmove with the parents made: emit(parent, placed, over).
template <bool kLiveOnly = false, typename Emit>
inline void forEachParent(const MoveRules& r, const State& st, Emit&& emit) {
  forEachUnmove<kLiveOnly>(r, st, [&](int size, Mask to, Mask from, int over, const Visible&) {
    return emitStops(emit, parentOf(st, size, to, from), from == 0, over);
  });
}

// forEachParent's live parents only (see there).
template <typename Emit>
inline void forEachLiveParent(const MoveRules& r, const State& st, Emit&& emit) {
  forEachParent<true>(r, st, std::forward<Emit>(emit));
}

// The first un-move of a kind from a game going on, in forEachUnmove's
// order: true with its size and squares (from == 0 for a placement). The
// reach pass asks this parent first and numbers it from its layers' codes,
// without making it.
template <int kKinds>
inline bool firstLiveUnmove(const MoveRules& r, const State& st, const Tops& tops, int* size, Mask* to, Mask* from) {
  bool found = false;
  forEachUnmove<true, kKinds>(r, st, tops, [&](int s, Mask t, Mask f, int, const Visible&) {
    *size = s;
    *to = t;
    *from = f;
    return found = true;
  });
  return found;
}
template <int kKinds>
inline bool firstLiveUnmove(const MoveRules& r, const State& st, int* size, Mask* to, Mask* from) {
  return firstLiveUnmove<kKinds>(r, st, topsOf(st), size, to, from);
}

}  // namespace gobblet::tb
