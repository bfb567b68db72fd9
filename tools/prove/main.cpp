// gobblet-prove: prove a position won or lost, and check proofs.
//
//   gobblet-prove prove --position P [--variant V] [--moves M1,M2,...] [--nodes N] [--time S]
//                       [--hash MIB] [--threads T] [--guide none|eval|net] [--out FILE] [--db DB]
//                       [--not-lost | --draw]
//   gobblet-prove check FILE [--db DB]
//   gobblet-prove db check|stats DB
//   gobblet-prove grow --db DB (--from P | --start) [...]   (tools/prove/grow_command.h)
//
// prove prints "result win|loss|draw|unknown", the plies of the certified
// strategy, the nodes and the time, and writes the certificate of a win or
// a loss to --out; with --db it starts from the proof database DB (created
// if missing) and appends a win or a loss to it, with the positions its
// strategy reaches by a drop (proof/drop_split.h). --not-lost proves that
// the side to move cannot lose, --draw that neither side can
// (proof/not_lost.h), with not-lost certificates (--out FILE; --draw writes
// FILE.1 and FILE.2, player 1's and player 2's); with --db a side the
// database holds is answered from it (0 nodes) and each side proved is
// appended as a held entry. check prints "accepted" or
// "rejected: <reason>" and exits 0 or 1. db: tools/prove/db_command.h. Bad
// usage: one line on standard error, exit status 2. The work is the proof
// library's (proof/); --guide's evaluation is protocol/proof_guide.h's.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/check.h"
#include "proof/database.h"
#include "proof/database_check.h"
#include "proof/not_lost.h"
#include "proof/prover.h"
#include "proof/store_proof.h"
#include "protocol/proof_guide.h"
#include "tools/command_line/command_line.h"
#include "db_command.h"
#include "grow_command.h"

namespace {

using namespace gobblet;
namespace cli = gobblet::cli;

cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet-prove";
  p.summary = "Proves positions won or lost by proof-number search and checks the certificates it writes.";
  p.commands = {
      {"prove",
       "Decides a position: win or loss for the side to move (with a certificate), draw, or unknown within the "
       "budget.",
       {{cli::text("--position", "P", "the position (docs/notation.md; default: the variant's start)"),
         cli::text("--variant", "V", variantNamesText()).withDefault("gobblet"),
         cli::text("--moves", "M1,M2,...", "then play these moves (separated by commas or spaces)"),
         cli::integer("--nodes", "N", 1, int64_t{1} << 50, "stop after N nodes (default: no limit)"),
         cli::text("--time", "S", "stop after S seconds (default: no limit)"),
         cli::integer("--hash", "MIB", 1, 1 << 20, "the transposition table's size in MiB").withDefault(64),
         cli::integer("--threads", "T", 1, 256, "searcher threads sharing the table").withDefault(1),
         cli::integer("--max-depth", "PLIES", 2, 10000, "the longest path a proof may take").withDefault(200),
         cli::choice("--guide", {"none", "eval", "net"},
                     "the evaluation that sets the initial proof numbers and the order of moves: none, eval (the "
                     "hand-written one) or net (the net in 4x4 Gobblet, the hand-written one elsewhere)")
             .withDefault("none"),
         cli::text("--out", "FILE", "write the certificate of a win or a loss to FILE"),
         cli::text("--db", "DB",
                   "start from the proof database DB (created if missing) and append a win or a loss to it, with "
                   "the positions its strategy reaches by a drop; with --not-lost or --draw, each side held"),
         cli::flag("--not-lost", "prove that the side to move cannot lose (a not-lost certificate)"),
         cli::flag("--draw",
                   "prove that neither side can win (two not-lost certificates: --out FILE writes FILE.1 and "
                   "FILE.2)")},
        {}}},
      {"check",
       "Checks a certificate (a win or a not-lost one) by the rules alone: prints accepted or rejected and the "
       "reason; exit status 0 or 1.",
       {{cli::text("--db", "DB", "the proof database the certificate's database leaves name")},
        {cli::positional("FILE", "a certificate written by prove --out")}}},
      prove_program::databaseCommand(),
      prove_program::growCommand(),
  };
  return p;
}

// prove --not-lost / --draw: the side to move, or both sides, proved not
// to lose. A repetition only draws, so the game's history does not matter.
// With --db, held sides are answered from the database and stored in it.
int proveNotLost(const cli::Arguments& args, const cli::UsageFn& usage, const Board& position) {
  if (args.has("--not-lost") && args.has("--draw")) return usage("--not-lost and --draw exclude each other");
  if (countMoves(position) == 0) return usage("the game is already over: no legal move");
  std::unique_ptr<proof::ProofDatabase> database;
  if (args.has("--db")) {
    auto opened =
        proof::ProofDatabase::open(args.text("--db"), proof::ProofDatabase::Mode::kReadWrite, position.variant());
    if (!opened.ok()) return cli::failure(commandLine(), opened.status().message());
    database = std::move(*opened);
  }
  proof::NotLostOptions options;
  options.maxNodes = static_cast<uint64_t>(args.integer("--nodes"));
  if (args.has("--time") && (!absl::SimpleAtod(args.text("--time"), &options.maxSeconds) || !(options.maxSeconds > 0)))
    return usage("--time wants a positive number of seconds, not \"" + args.text("--time") + "\"");
  options.hashMiB = static_cast<size_t>(args.integer("--hash"));
  options.database = database.get();
  std::printf("position %s\n", positionToString(position).c_str());
  std::vector<int> sides{position.sideToMove()};
  if (args.has("--draw")) sides.push_back(position.sideToMove() ^ 1);
  bool held = true;
  std::vector<proof::Certificate> proved;  // for the database, stored together
  for (int side : sides) {
    auto r = proof::proveNotLost(position, side, options);
    if (!r.ok()) return usage(r.status().message());
    std::printf("player %d %s", side + 1, proof::defenceWord(r->defence));
    if (r->certificate) std::printf(", certificate %zu nodes", r->certificate->nodes.size());
    if (!r->note.empty()) std::printf(" (%s)", r->note.c_str());
    std::printf(", nodes %llu, time %.3f\n", static_cast<unsigned long long>(r->nodes), r->seconds);
    if (args.has("--out") && r->certificate) {
      const std::string file = args.text("--out") + (args.has("--draw") ? "." + std::to_string(side + 1) : "");
      if (auto status = proof::writeCertificate(*r->certificate, file); !status.ok())
        return cli::failure(commandLine(), status.message());
    }
    if (r->certificate) proved.push_back(*r->certificate);
    held = r->defence == proof::Defence::kHeld;
    if (!held) break;
  }
  std::printf("result %s\n", held ? (args.has("--draw") ? "draw" : "not-lost") : "unknown");
  if (database) {
    if (database->tail().bytes > 0)
      std::printf("database tail of %llu bytes dropped: %s\n", static_cast<unsigned long long>(database->tail().bytes),
                  database->tail().reason.c_str());
    auto stored = proof::storeProof(*database, proved);  // each checked again before it is appended
    if (!stored.ok()) return cli::failure(commandLine(), stored.status().message());
    std::printf("database appended %zu of %zu entries, %llu in all\n", stored->appended, stored->offered,
                static_cast<unsigned long long>(database->entries()));
  }
  return 0;
}

int prove(const cli::Arguments& args, const cli::UsageFn& usage) {
  auto variant = Variant::parse(args.text("--variant"));
  if (!variant.ok()) return usage(variant.status().message());
  Board start(*variant);
  if (const std::string text = args.text("--position"); !text.empty()) {
    auto position = parsePosition(*variant, text);
    if (!position.ok()) return usage(position.status().message());
    start = *position;
  }
  Game game(start);
  for (const std::string& m :
       std::vector<std::string>(absl::StrSplit(args.text("--moves"), absl::ByAnyChar(", "), absl::SkipEmpty())))
    if (auto status = game.play(m); !status.ok()) return usage(status.message());
  EndReason reason;
  if (const GameResult over = game.result(&reason); over != GameResult::kNone)
    return usage("the game is already over: " + endReasonText(reason, over));
  if (args.has("--not-lost") || args.has("--draw")) return proveNotLost(args, usage, game.position());
  proof::ProverOptions options;
  options.history = game.positionsSinceLastDrop();  // (the proof holds in this game, its repetitions counted)
  options.maxNodes = static_cast<uint64_t>(args.integer("--nodes"));
  if (args.has("--time") && (!absl::SimpleAtod(args.text("--time"), &options.maxSeconds) || !(options.maxSeconds > 0)))
    return usage("--time wants a positive number of seconds, not \"" + args.text("--time") + "\"");
  options.hashMiB = static_cast<size_t>(args.integer("--hash"));
  options.threads = static_cast<int>(args.integer("--threads"));
  options.maxDepth = static_cast<int>(args.integer("--max-depth"));
  const std::shared_ptr<const proof::ProofGuide> guide =
      makeProofGuide(parseProofGuide(args.text("--guide")).value_or(ProofGuideKind::kNone), *variant);
  options.guide = guide.get();
  std::unique_ptr<proof::ProofDatabase> database;
  if (args.has("--db")) {
    auto opened = proof::ProofDatabase::open(args.text("--db"), proof::ProofDatabase::Mode::kReadWrite, *variant);
    if (!opened.ok()) return cli::failure(commandLine(), opened.status().message());
    database = std::move(*opened);
    options.database = database.get();
  }
  auto result = proof::prove(game.position(), options);
  if (!result.ok()) return usage(result.status().message());
  std::printf("position %s\n", positionToString(game.position()).c_str());
  std::printf("result %s\n", proof::outcomeWord(result->outcome));
  if (result->plies >= 0) std::printf("plies %d\n", result->plies);
  if (!result->note.empty()) std::printf("note %s\n", result->note.c_str());
  std::printf("nodes %llu\n", static_cast<unsigned long long>(result->nodes));
  std::printf("time %.3f\n", result->seconds);
  if (result->certificate) {
    std::printf("certificate %zu nodes\n", result->certificate->nodes.size());
  } else if (!result->certificateStatus.ok()) {
    std::printf("certificate none (%s)\n", std::string(result->certificateStatus.message()).c_str());
  }
  if (args.has("--out") && result->certificate) {
    if (auto status = proof::writeCertificate(*result->certificate, args.text("--out")); !status.ok())
      return cli::failure(commandLine(), status.message());
  }
  if (database) {
    if (database->tail().bytes > 0)
      std::printf("database tail of %llu bytes dropped: %s\n", static_cast<unsigned long long>(database->tail().bytes),
                  database->tail().reason.c_str());
    proof::StoredProof stored;
    if (result->certificate) {  // the root and the positions its strategy reaches by a drop, each checked first
      auto added = proof::storeProof(*database, *result->certificate);
      if (!added.ok()) return cli::failure(commandLine(), added.status().message());
      stored = *added;
    }
    std::printf("database appended %zu of %zu entries, %llu in all\n", stored.appended, stored.offered,
                static_cast<unsigned long long>(database->entries()));
  }
  return 0;
}

int check(const cli::Arguments& args, const cli::UsageFn& usage) {
  std::ifstream in(args.text("FILE"), std::ios::binary);
  if (!in) return usage("cannot open " + args.text("FILE"));
  // A certificate that ends branches at database entries is only as sound
  // as they are: the whole database is checked first, every entry by the
  // rules (proof/database_check.h), so that "accepted" trusts nothing.
  std::unique_ptr<proof::ProofDatabase> database;
  if (args.has("--db")) {
    auto opened = proof::ProofDatabase::open(args.text("--db"), proof::ProofDatabase::Mode::kRead);
    if (!opened.ok()) return usage(opened.status().message());
    const proof::DatabaseReport checked = proof::checkDatabase(args.text("--db"));
    if (!checked.accepted) {
      std::printf("rejected: the database %s: %s\n", args.text("--db").c_str(), checked.reason.c_str());
      return 1;
    }
    database = std::move(*opened);
  }
  // The kind is the header's: a not-lost certificate has its own checker.
  const proof::CheckReport report = proof::checkCertificateOfItsKind(in, database.get());
  const bool notLost = report.kind == proof::CertificateKind::kNotLost;
  if (!report.accepted) {
    std::printf("rejected: %s\n", report.reason.c_str());
    return 1;
  }
  if (notLost) {
    std::printf("accepted: %s %s does not lose %s (%llu nodes)\n", report.variant.c_str(),
                report.winner == 0 ? "the side to move" : "the side not to move", report.position.c_str(),
                static_cast<unsigned long long>(report.nodes));
    return 0;
  }
  std::printf("accepted: %s %s wins %s in at most %d plies (%llu nodes)\n", report.variant.c_str(),
              report.winner == 0 ? "the side to move" : "the side not to move", report.position.c_str(), report.plies,
              static_cast<unsigned long long>(report.nodes));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::runMain(commandLine(), argc, argv, [](const cli::Arguments& args, const cli::UsageFn& usage) {
    if (args.command() == "prove") return prove(args, usage);
    if (args.command() == "db") return prove_program::runDatabaseCommand(args, usage);
    if (args.command() == "grow") return prove_program::runGrowCommand(args, usage);
    return check(args, usage);
  });
}
