// Certificate: a proof that one side wins a position, or that one side
// does not lose it, as a file that a checker knowing only the rules can
// verify (proof/check.h).
//
// The proof is an AND/OR graph over the winner's strategy. At an OR node
// the winner is to move and the certificate names one move; at an AND node
// the loser is to move and the certificate gives one child per legal move
// of the loser, which the checker generates itself (the moves are not
// written). Positions reached twice may share a node (a DAG); every child
// index is larger than its parent's, so the graph can have no cycle.
//
//   file (little-endian):
//   offset size
//      0    8  magic "GBPROOF\n"
//      8    4  version: 1, or 2 when a child is a kDatabaseLeaf (a win);
//              3 a not-lost certificate (below)
//     12    1  winner (for version 3 the defender): 0 the side to move at
//              the root, 1 the other side
//     13    1  V: length of the variant name (1..64)
//     14    2  P: length of the position text (1..512)
//     16    8  N: node count (1..kMaxNodes)
//     24    8  checksum: FNV-1a 64 of the whole file with these 8 bytes zero
//     32    V  variant name (Variant::name(): "gobblet", "3x3:1,5,0")
//   32+V    P  root position (docs/notation.md: "4/4/4/4 1")
//   32+V+P     N nodes, node 0 the root, each:
//       OR  node: 'O' (1) | move code (2, Move::raw()) | child (4)
//       AND node: 'A' (1) | k (2) | k children (4 each), one per legal move
//                 of the loser, in ascending order of the move codes
//   A child is the index of a later node, or
//     kWonLeaf      (0xFFFFFFFF): the position after the move is won by the
//                   winner (Board::winner());
//     kDatabaseLeaf (0xFFFFFFFE, version 2 only): the move is a drop and the
//                   position after it is, canonically, a position a proof
//                   database holds won by the winner (proof/database.h).
//
// A not-lost certificate (version 3) is a closed strategy for the
// defender D: at an OR node D is to move and the node names one move; at
// an AND node the attacker is to move and the node gives one child per
// legal move of the attacker, in ascending order of the move codes. A
// child is the index of ANY node (earlier, later or itself: a cycle is a
// repetition, which draws), or
//     kWonLeaf   (0xFFFFFFFF): the position after the move is won by D;
//     kDrawnLeaf (0xFFFFFFFD): the position after the move has no winner
//                and its side to move has no legal move (a draw);
//     kDatabaseLeaf (0xFFFFFFFE): the position after the move is,
//                canonically, one a proof database holds for D (a held
//                entry) or holds won by D (a win entry), after any move:
//                either holds whatever came before (proof/check.h).
// A draw is two not-lost certificates, one for each side.
//
// The reader takes at most CertificateLimits::maxNodes nodes, and never
// more than the file's size allows, so a forged header cannot make it
// allocate: memory stays in proportion to the file.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/move.h"

namespace gobblet::proof {

inline constexpr char kCertificateMagic[8] = {'G', 'B', 'P', 'R', 'O', 'O', 'F', '\n'};
inline constexpr uint32_t kCertificateVersion = 1;          // a certificate without database leaves
inline constexpr uint32_t kDatabaseCertificateVersion = 2;  // one with database leaves
inline constexpr uint32_t kNotLostCertificateVersion = 3;   // a not-lost certificate
inline constexpr uint32_t kWonLeaf = 0xFFFFFFFF;
inline constexpr uint32_t kDatabaseLeaf = 0xFFFFFFFE;
inline constexpr uint32_t kDrawnLeaf = 0xFFFFFFFD;

// What a certificate proves: that its side wins, or that its side (the
// defender) does not lose.
enum class CertificateKind : uint8_t { kWin, kNotLost };
inline constexpr size_t kCertificateHeaderBytes = 32;
inline constexpr size_t kMaxVariantNameBytes = 64, kMaxPositionBytes = 512;

struct CertificateNode {
  bool orNode = true;
  Move move;                       // OR nodes: the winner's (the defender's) move
  std::vector<uint32_t> children;  // OR: one; AND: one per loser (attacker) move (ascending move codes)
};

struct Certificate {
  CertificateKind kind = CertificateKind::kWin;
  std::string variant;                 // Variant::name()
  std::string position;                // the root, in the engine's notation
  uint8_t winner = 0;                  // 0: the side to move at the root wins (kNotLost: defends); 1: the other side
  std::vector<CertificateNode> nodes;  // node 0 is the root
};

struct CertificateLimits {
  uint64_t maxNodes = uint64_t{1} << 26;
};

// The header as read from a file.
struct CertificateHeader {
  uint32_t version = kCertificateVersion;
  CertificateKind kind = CertificateKind::kWin;  // kNotLost for version 3
  std::string variant, position;
  uint8_t winner = 0;
  uint64_t nodes = 0;
};

// The longest game a win certificate's strategy allows, in plies (the
// longest path from the root to a kWonLeaf); children must be later nodes.
// (A not-lost certificate may cycle: it allows endless games, drawn.)
// A kDatabaseLeaf counts as the ply that reaches it: the database entry's
// own plies are the checker's to add (CheckReport::plies).
int certificatePlies(const Certificate& certificate);

// The file's bytes; for a win, checks that every child index is a later
// node, kWonLeaf or kDatabaseLeaf. The version is 1 unless a child is a
// kDatabaseLeaf (then 2), so a certificate without one has the bytes it
// always had. A not-lost certificate is version 3; its children must be
// nodes (any index), kWonLeaf, kDrawnLeaf or kDatabaseLeaf.
absl::StatusOr<std::string> encodeCertificate(const Certificate& certificate);
absl::Status writeCertificate(const Certificate& certificate, const std::string& path);

// Reads a certificate one node at a time, in file order.
class CertificateReader {
 public:
  // Reads the header and checks it: magic, version (1, 2 or 3), lengths, node count
  // (within `limits` and within what the stream's size can hold), and the
  // checksum over the whole stream (which must be seekable). Errors say
  // what is wrong: DataLoss for a cut or corrupted file, InvalidArgument
  // for a file that is not a certificate or of another version,
  // ResourceExhausted for a node count over the limit.
  static absl::StatusOr<CertificateReader> open(std::istream& in, const CertificateLimits& limits = {});

  const CertificateHeader& header() const { return header_; }
  // The next node (DataLoss if the file ends inside it, InvalidArgument for
  // a bad tag); after the last node, finish() checks nothing follows.
  absl::Status next(CertificateNode& node);
  absl::Status finish();

 private:
  explicit CertificateReader(std::istream& in) : in_(&in) {}
  std::istream* in_;
  CertificateHeader header_;
  uint64_t read_ = 0;
};

// The whole certificate in memory.
absl::StatusOr<Certificate> readCertificate(std::istream& in, const CertificateLimits& limits = {});
absl::StatusOr<Certificate> readCertificateFile(const std::string& path, const CertificateLimits& limits = {});

}  // namespace gobblet::proof
