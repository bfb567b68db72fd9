// ProvedMoves: the strategy of the last certified proof (`go prove`), so
// that the engine plays a proved result as one: at any position where the
// strategy has its side to move, a `go` answers with the strategy's move
// at once instead of searching. The strategy is a win's, or a not-lost
// one's (the side cannot lose; with the other side proved not lost too, a
// draw).
//
//   win certificate (proof/certificate.h), replayed from its root by the rules:
//     OR  node (winner to move)  -> kept: position -> (move, plies to the win)
//     AND node (loser to move)   -> every reply leads to a kept OR node or a won position
//   plies: the longest game the strategy allows from that position (the
//   certificate's own bound, as `go prove` reports it at the root); a
//   branch that ends at a proof database's entry (a kDatabaseLeaf) counts
//   the entry's plies, and the strategy there is the entry's (the engine
//   learns it when the game gets there: see Engine::go()).
//
//   not-lost certificate (version 3), replayed breadth first from its root
//   (children may name any node: a cycle is a repetition):
//     OR  node (defender to move) -> kept: position -> (move, plies 0)
//     AND node (attacker to move) -> every reply leads to a kept OR node,
//                                    a won position, a drawn one, or a
//                                    proof database's entry (a
//                                    kDatabaseLeaf: the engine asks the
//                                    database there, Engine::go())
//
// A win's strategy never repeats a position, so it wins whatever the
// repetition rule, unless the game had seen some of its positions before
// it entered the strategy: moveFor() then gives nothing (the search plays).
// A not-lost strategy holds whatever the game's history: a repetition only
// ever draws, which is no loss (proof/not_lost.h).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/board.h"
#include "engine/game.h"
#include "engine/move.h"
#include "proof/certificate.h"
#include "proof/known_positions.h"

namespace gobblet {

class ProvedMoves {
 public:
  // What the strategy proves for its side: a win, a draw (the other side
  // cannot win either), or only that its side cannot lose.
  enum class Claim { kWin, kDraw, kNotLost };

  struct Proved {
    Move move;
    int plies = 0;  // kWin: at most this many plies to the win, this move included; else 0
    Claim claim = Claim::kWin;
  };

  // The largest certificate kept (~130 bytes a node while it is replayed):
  // a larger proof is still answered, and then the search plays on.
  static constexpr size_t kMaxNodes = size_t{1} << 18;

  // Keeps the strategy of `certificate` (a certified one: proof/certified.h)
  // instead of the one before; a certificate of another variant than
  // `variant`, of more than `maxNodes` nodes, that does not replay, or with
  // a database leaf that `database` (the one it was certified with) does
  // not hold, leaves none.
  void learn(const proof::Certificate& certificate, const Variant& variant,
             const proof::KnownPositions* database = nullptr, size_t maxNodes = kMaxNodes);
  // Keeps the strategy of a certified not-lost certificate (accepted by
  // checkNotLostCertificate, proof/check.h) instead of the one before:
  // `drawn` says that the other side was proved not lost too (Claim::kDraw,
  // else kNotLost). A win certificate, another variant, more than
  // `maxNodes` nodes, or one that does not replay leaves none.
  void learnNotLost(const proof::Certificate& certificate, const Variant& variant, bool drawn,
                    size_t maxNodes = kMaxNodes);
  void clear();

  // The strategy's move at the game's position, if the strategy covers it
  // with its side to move and (a win's) the game's positions are none of
  // the strategy's before the game entered it and each of them once since.
  std::optional<Proved> moveFor(const Game& game) const;

 private:
  struct Entry {
    Board position;
    Proved proved;
  };
  std::unordered_multimap<uint64_t, Entry> winnerToMove_;  // its side to move, by Board::key()
  std::unordered_set<uint64_t> keys_;                      // every position of a win's strategy
  Claim claim_ = Claim::kWin;
};

}  // namespace gobblet
