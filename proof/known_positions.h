// Known positions: positions already proved won, as a proof database
// (proof/database.h) holds them. A certificate may end a branch at one (a
// kDatabaseLeaf, proof/certificate.h), the checker (proof/check.h) looks
// them up, and the prover (proof/prover.h) treats them as leaves.
//
// A position is found by its canonical form (engine/canonical.h): every
// image of an entry under the board's symmetries and the exchange of the
// players is found, with the winner given relative to its side to move
// (which every image keeps).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "engine/board.h"
#include "proof/certificate.h"

namespace gobblet::proof {

struct KnownPosition {
  uint8_t winner = 0;  // 0: the side to move wins, 1: the other side
  int plies = 0;       // the longest game the entry's strategy allows, its own database leaves' included
  uint64_t where = 0;  // the entry's place (proof/database.h: its record's offset in the file)
};

class KnownPositions {
 public:
  virtual ~KnownPositions() = default;
  // The entry whose position has the canonical form of `board`'s, if any.
  // Safe from several threads at once while nothing is added.
  virtual std::optional<KnownPosition> find(const Board& board) const = 0;
  // The certificate of the entry of `board`'s canonical form, if it can be
  // had (its root is the position as proved, maybe another image of
  // `board`); none by default.
  virtual std::optional<Certificate> storedCertificate(const Board& board) const;
  // Whether `board`'s canonical form is held (proved not lost, proof/
  // database.h) for `defender` (0: its side to move, 1: the other side):
  // what a not-lost certificate's database leaves may name. False by default.
  virtual bool holds(const Board& board, int defender) const;
};

// A position packed exactly: each player's masks, size s in bits 16s..16s+15
// (player 1's in lo, player 2's in hi), and the side to move. The key of
// the prover's table (proof/proof_table.h) and of KnownPositionIndex.
struct PackedPosition {
  uint64_t lo = 0, hi = 0;
  uint8_t stm = 0;
  friend bool operator==(const PackedPosition&, const PackedPosition&) = default;
};
PackedPosition pack(const Board& board);
struct PackedHash {
  size_t operator()(const PackedPosition& p) const {
    return static_cast<size_t>((p.lo * 0x9E3779B97F4A7C15ull) ^ (p.hi * 0xC2B2AE3D27D4EB4Full) ^ p.stm);
  }
};

// Known positions of one variant in memory, by canonical form: about 64
// bytes an entry. A position of another variant is never found.
class KnownPositionIndex : public KnownPositions {
 public:
  explicit KnownPositionIndex(const Variant& variant) : variant_(variant) {}
  // Adds `board`'s canonical form (`board` of the index's variant); false
  // (and nothing changes) if it is there already: the first entry of a
  // position is the one found.
  bool add(const Board& board, const KnownPosition& known);
  std::optional<KnownPosition> find(const Board& board) const override;
  size_t size() const { return map_.size(); }

 private:
  Variant variant_;
  std::unordered_map<PackedPosition, KnownPosition, PackedHash> map_;  // by pack(canonicalBoard(b))
};

}  // namespace gobblet::proof
