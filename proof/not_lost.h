// The not-lost prover: proves that a side, the defender, cannot lose a
// position, and writes the proof as a not-lost certificate
// (proof/certificate.h, version 3) that the checker accepts
// (checkNotLostCertificate, proof/check.h) before it is returned. A draw is
// both sides proved not lost.
//
//   NotLostOptions options;
//   options.maxNodes = 1'000'000;
//   auto draw = proveDraw(board, options);
//   if (draw.ok() && draw->drawn) writeCertificate(*draw->sides[0].certificate, "p1.proof");
//
// The search solves the game for the defender on the fly, over the
// positions its current strategy reaches. Every position is assumed held
// (the defender does not lose) until it is shown lost (the attacker forces
// a line): at the defender's positions the strategy names one move, the
// first not yet shown lost (a move that wins or leaves no legal move
// first, then moves to positions already in the graph, then moves that
// threaten a line; never one that lets the attacker make a line at once);
// at the attacker's positions it needs every move. The positions it
// reaches are expanded, last reached first, until none is left: then the
// strategy is closed and the root held; or the root is lost. A position is
// lost when the attacker has a move to a lost position (or a line at
// once), or when every move of the defender leads to one; a loss is passed
// up at once, and a defender position whose move it was takes its next.
//
// The graph-history problem. A line may return to a position already in
// the graph (a cycle: a repetition, which draws): the strategy simply
// points back at it, and it stays assumed held. Held is never stored as a
// fact before the search ends: it is an assumption that a loss below
// withdraws, and only the closed strategy, checked whole, is claimed. A
// lost result rests on no assumption at all: it is a forced line of the
// attacker, built from lines and other losses only, so it holds whatever
// the path and is kept. Repetitions never count against the defender, so
// neither the path to a position nor the game's earlier history changes
// what is held (see below).
//
// With a proof database (NotLostOptions::database, proof/database.h), a
// root it holds for the defender (any image: by canonical form) is answered
// from it with no node searched: its stored certificate moved onto this
// board and checked again (storedNotLost, proof/store_proof.h). Whatever
// the game's history: a repetition only ever draws. Below the root, a
// position it holds for the defender, or holds won by the defender, is a
// leaf of the search and of the certificate (a kDatabaseLeaf, which the
// checker looks up in the same database), after any move: a held position
// holds whatever came before, and a repetition can at worst turn the
// defender's stored win into a draw, never into a loss.
//
// What a held result is worth in a game: see proof/check.h (a repetition
// only ever draws, so the game's earlier positions cannot make the
// defender lose). A lost result is the prover's claim (no certificate):
// the win prover (proof/prover.h) is the one that certifies wins.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "proof/certificate.h"

namespace gobblet::proof {

class ProofDatabase;

struct NotLostOptions {
  uint64_t maxNodes = 0;                    // positions searched, all passes together (0: no limit)
  double maxSeconds = 0;                    // wall time (0: no limit)
  size_t hashMiB = 64;                      // the graph of positions (about 256 bytes a position)
  const std::atomic<bool>* stop = nullptr;  // stops the search when set (may be null)
  const ProofDatabase* database = nullptr;  // answers a root it holds; its positions are leaves (may be null)
};

enum class Defence { kHeld, kLost, kUnknown };
// "held", "lost", "unknown".
const char* defenceWord(Defence defence);

struct NotLostResult {
  Defence defence = Defence::kUnknown;
  uint64_t nodes = 0;  // positions searched
  double seconds = 0;
  std::string note;  // kUnknown: why
  // kHeld: the certificate, accepted by checkNotLostCertificate.
  std::optional<Certificate> certificate;
};

// Proves that `defender` (0 or 1, a player) cannot lose `board` (answered
// from options.database where it holds the root for `defender`).
// InvalidArgument if the game is over there (a line, or no legal move) or
// `defender` is no player.
absl::StatusOr<NotLostResult> proveNotLost(const Board& board, int defender, const NotLostOptions& options = {});

struct DrawResult {
  bool drawn = false;      // both sides proved not lost, each with its certificate
  NotLostResult sides[2];  // by player (0: player 1); the second is not tried once the first is lost or unknown
};

// A draw: proveNotLost for the side to move, then for the other side,
// each with the options' budget. InvalidArgument if the game is over.
absl::StatusOr<DrawResult> proveDraw(const Board& board, const NotLostOptions& options = {});

}  // namespace gobblet::proof
