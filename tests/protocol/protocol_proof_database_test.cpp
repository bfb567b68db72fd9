// The ProofDatabase option (docs/protocol.md): a file that cannot be used
// (missing where none can be made, another variant's, no database, a FIFO)
// is refused with an error and the engine goes on; a cut tail is said and
// dropped; `go prove` starts from the database and adds to it, so that the
// next proof of the same position searches nothing; a `go` at a stored
// position says it is proved and plays the stored win, on every image of
// the stored position (the move mapped onto the real board, and winning
// there by a proof the independent checker accepts); a position whose game has moved pieces since
// its last drop is not answered from the database. `query proof` answers
// with the database's value where it may be used, from the option's file
// or from one the program hosts (--proof-db, checked whole at start: a
// forged one is refused), with the checker's plies, never the file's claim.
// An engine that writes no file (the WebAssembly engine's
// EngineLimits::proofDatabaseReadOnly) opens a writable file read-only,
// makes no missing one, and appends nothing of what `go prove` proves.
// Held entries (not-lost certificates): `go prove` starts its not-lost
// phase from them and appends what it holds; `go` at a position held for
// the side to move plays the entry's strategy at once, then holds it;
// `query proof` says draw, not-lost or not-won.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/database.h"
#include "proof/certified.h"
#include "proof/database_check.h"
#include "proof/database_file.h"
#include "proof/not_lost.h"
#include "proof/prover.h"
#include "proof/store_proof.h"
#include "protocol/engine.h"
#include "tests/support/engine_client.h"
#include "tests/support/scratch_dir.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

// The lines up to readyok after `commands`.
std::vector<std::string> answer(EngineProcess& e, const std::vector<std::string>& commands) {
  for (const std::string& c : commands) e.send(c);
  e.send("isready");
  std::vector<std::string> seen;
  EXPECT_TRUE(e.until("readyok", Ms(60000), &seen)) << "no readyok";
  return seen;
}

// The lines up to bestmove after `commands` (the last a go).
std::vector<std::string> untilBestMove(EngineProcess& e, const std::vector<std::string>& commands) {
  for (const std::string& c : commands) e.send(c);
  std::vector<std::string> seen;
  EXPECT_TRUE(e.until("bestmove ", Ms(120000), &seen)) << "no bestmove";
  return seen;
}

// The first line that starts with `prefix`, if any.
std::optional<std::string> lineStarting(const std::vector<std::string>& lines, const std::string& prefix) {
  for (const std::string& l : lines)
    if (l.rfind(prefix, 0) == 0) return l;
  return std::nullopt;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

// A database of gobblers holding the proof of the start, made by the proof
// library (the engine is what the tests try).
void makeGobblersDatabase(const std::string& path) {
  const Board start(Variant::gobblers());
  auto db = proof::ProofDatabase::open(path, proof::ProofDatabase::Mode::kReadWrite, Variant::gobblers());
  ASSERT_TRUE(db.ok()) << db.status();
  proof::ProverOptions options;
  options.hashMiB = 16;
  auto proved = proof::prove(start, options);
  ASSERT_TRUE(proved.ok() && proved->certificate) << "the start of gobblers is not proved";
  auto stored = proof::storeProof(**db, *proved->certificate);
  ASSERT_TRUE(stored.ok()) << stored.status();
  ASSERT_GT(stored->appended, 1u);
}

TEST(ProtocolProofDatabase, AMissingFileIsMadeWhereItCanBeAndRefusedWhereNot) {
  const testing::ScratchDir dir("pdb_missing");
  EngineProcess e;
  const std::string nowhere = dir.file("no/such/folder/g.pdb");
  std::vector<std::string> seen = answer(e, {"setoption name ProofDatabase value " + nowhere});
  const auto error = lineStarting(seen, "info string error: option ProofDatabase: ");
  ASSERT_TRUE(error) << "no error for " << nowhere;
  EXPECT_NE(error->find("No such file"), std::string::npos) << *error;
  EXPECT_FALSE(std::filesystem::exists(nowhere));
  // In a folder that exists: made, for the variant in force.
  const std::string made = dir.file("g.pdb");
  seen = answer(e, {"setoption name Variant value gobblers", "setoption name ProofDatabase value " + made});
  const auto opened = lineStarting(seen, "info string proof database ");
  ASSERT_TRUE(opened) << "no word on the database";
  EXPECT_NE(opened->find("opened read-write for gobblers: 0 entries"), std::string::npos) << *opened;
  auto db = proof::ProofDatabase::open(made, proof::ProofDatabase::Mode::kRead);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->variant(), Variant::gobblers());
}

TEST(ProtocolProofDatabase, AnotherVariantsFileNoDatabaseAndAFifoAreRefused) {
  const testing::ScratchDir dir("pdb_foreign");
  const std::string gobblers = dir.file("gobblers.pdb");
  {
    auto db = proof::ProofDatabase::open(gobblers, proof::ProofDatabase::Mode::kReadWrite, Variant::gobblers());
    ASSERT_TRUE(db.ok()) << db.status();
  }
  const std::string text = dir.file("notes.txt");
  std::ofstream(text) << "not a proof database\n";
  const std::string fifo = dir.file("fifo.pdb");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EngineProcess e;  // (Variant: gobblet)
  std::vector<std::string> seen = answer(e, {"setoption name ProofDatabase value " + gobblers});
  auto error = lineStarting(seen, "info string error: option ProofDatabase: ");
  ASSERT_TRUE(error) << "a database of gobblers taken for gobblet";
  EXPECT_NE(error->find("is a database of gobblers, not of gobblet"), std::string::npos) << *error;
  seen = answer(e, {"setoption name ProofDatabase value " + text});
  error = lineStarting(seen, "info string error: option ProofDatabase: ");
  ASSERT_TRUE(error) << "a text file taken for a database";
  EXPECT_EQ(std::filesystem::file_size(text), 21u) << "the refused file was written to";
  seen = answer(e, {"setoption name ProofDatabase value " + fifo});  // (answer() fails if the engine hangs)
  error = lineStarting(seen, "info string error: option ProofDatabase: ");
  ASSERT_TRUE(error) << "a FIFO taken for a database";
  EXPECT_NE(error->find("not a regular file"), std::string::npos) << *error;
  // None of them is in use: a proof of the start of gobblers (after the
  // variant is chosen) has no database to say anything about.
  seen = untilBestMove(e, {"setoption name Variant value gobblers", "position startpos", "go prove"});
  EXPECT_FALSE(anyContains(seen, "proof database")) << seen.front();
  e.send("quit");
  EXPECT_TRUE(e.waitExit(Ms(10000)));
}

// A file cut in its last record: said, dropped (the entries before it are
// used), and overwritten by the next proof, which leaves a file the
// checker of whole databases accepts.
TEST(ProtocolProofDatabase, ACutTailIsSaidAndDropped) {
  const testing::ScratchDir dir("pdb_tail");
  const std::string path = dir.file("g.pdb");
  ASSERT_NO_FATAL_FAILURE(makeGobblersDatabase(path));
  uint64_t entries = 0;
  {
    auto db = proof::ProofDatabase::open(path, proof::ProofDatabase::Mode::kRead);
    ASSERT_TRUE(db.ok()) << db.status();
    entries = (*db)->entries();
  }
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size - 5);  // the last record (the start's entry) cut
  EngineProcess e;
  std::vector<std::string> seen =
      answer(e, {"setoption name Variant value gobblers", "setoption name ProofDatabase value " + path});
  ASSERT_TRUE(anyContains(seen, "entries")) << "no word on the database";
  EXPECT_TRUE(anyContains(seen, ": " + std::to_string(entries - 1) + " entries"));
  const auto tail = lineStarting(seen, "info string warning: proof database ");
  ASSERT_TRUE(tail) << "the cut tail is not said";
  EXPECT_NE(tail->find("damaged tail of "), std::string::npos) << *tail;
  EXPECT_NE(tail->find("dropped"), std::string::npos) << *tail;
  // The start's entry is gone: proved again, from the entries below it.
  seen = untilBestMove(e, {"position startpos", "go prove"});
  const auto proof = lineStarting(seen, "info string proof win ");
  ASSERT_TRUE(proof) << "the start of gobblers is not proved";
  EXPECT_EQ(proof->find("known"), std::string::npos) << *proof;
  EXPECT_TRUE(anyContains(seen, "info string proof database appended ")) << *proof;
  e.send("quit");
  ASSERT_TRUE(e.waitExit(Ms(10000)));
  const proof::DatabaseReport report = proof::checkDatabase(path);
  EXPECT_TRUE(report.accepted) << report.reason;
  EXPECT_GE(report.entries, entries);
}

// What one `go prove` stored, the next one reads: in the same engine and in
// a new one, the start of gobblers is answered from the database (no node
// searched), with the same move.
TEST(ProtocolProofDatabase, GoProveStoresWhatItProvesAndTheNextProofReadsIt) {
  const testing::ScratchDir dir("pdb_prove");
  const std::string path = dir.file("g.pdb");
  const std::vector<std::string> setup = {"setoption name Variant value gobblers",
                                          "setoption name ProofDatabase value " + path, "position startpos"};
  std::string firstMove;
  {
    EngineProcess e;
    std::vector<std::string> commands = setup;
    commands.push_back("go prove");
    std::vector<std::string> seen = untilBestMove(e, commands);
    const auto first = lineStarting(seen, "info string proof win ");
    ASSERT_TRUE(first) << "the start of gobblers is not proved";
    EXPECT_EQ(first->find("known"), std::string::npos) << *first;
    EXPECT_TRUE(anyContains(seen, "info string proof database appended ")) << *first;
    firstMove = seen.back();
    seen = untilBestMove(e, {"go prove"});
    const auto second = lineStarting(seen, "info string proof win ");
    ASSERT_TRUE(second);
    EXPECT_NE(second->find(" nodes 0 "), std::string::npos) << *second;
    EXPECT_NE(second->find("known: the proof database holds it"), std::string::npos) << *second;
    EXPECT_EQ(seen.back(), firstMove);
  }
  EngineProcess fresh;
  std::vector<std::string> commands = setup;
  commands.push_back("go prove");
  const std::vector<std::string> seen = untilBestMove(fresh, commands);
  const auto again = lineStarting(seen, "info string proof win ");
  ASSERT_TRUE(again) << "the stored proof is not read";
  EXPECT_NE(again->find(" nodes 0 "), std::string::npos) << *again;
  EXPECT_NE(again->find(" checked"), std::string::npos) << *again;
  EXPECT_EQ(seen.back(), firstMove);
  const proof::DatabaseReport report = proof::checkDatabase(path);
  EXPECT_TRUE(report.accepted) << report.reason;
}

// A stored win is played at once, on each of the 16 images of the stored
// position (the 8 symmetries of the square, the players exchanged or not):
// the move is legal on the board given and wins there (the position after
// it proved lost for the side to move, without the database, and its
// certificate accepted by the independent checker); a stored loss is said
// and searched.
TEST(ProtocolProofDatabase, AStoredWinIsPlayedOnEveryImageOfItsPosition) {
  const testing::ScratchDir dir("pdb_play");
  const std::string path = dir.file("g.pdb");
  ASSERT_NO_FATAL_FAILURE(makeGobblersDatabase(path));
  const Variant v = Variant::gobblers();
  // After L@b2 L@a1: player 1 to move, a stored win (a drop reaches it).
  Game game{Board(v)};
  ASSERT_TRUE(game.play("L@b2").ok() && game.play("L@a1").ok());
  const Board stored = game.position();
  EngineProcess e;
  answer(e, {"setoption name Variant value gobblers", "setoption name ProofDatabase value " + path});
  std::vector<std::string> moves;
  for (int s = 0; s < kSymmetries; ++s)
    for (const Board& image : {stored.transformed(s), stored.transformed(s).colorSwapped()}) {
      const std::string fen = positionToString(image);
      const std::vector<std::string> seen = untilBestMove(e, {"position fen " + fen, "go depth 4"});
      ASSERT_TRUE(anyContains(seen, "info string proof win in ")) << fen;
      EXPECT_TRUE(anyContains(seen, "(database)")) << fen;
      const std::string best = seen.back().substr(9);
      auto move = parseMove(image, best);
      ASSERT_TRUE(move.ok()) << fen << ": " << best << " " << move.status();
      MoveList legal;
      generateMoves(image, legal);
      ASSERT_TRUE(legal.contains(*move)) << fen << ": " << best;
      moves.push_back(best);
      Board after = image;
      after.makeMove(*move);
      if (after.winner() == image.sideToMove()) continue;  // (a line made)
      proof::ProverOptions options;
      options.hashMiB = 16;
      auto lost = proof::prove(after, options);
      ASSERT_TRUE(lost.ok()) << lost.status();
      proof::certify(*lost);
      EXPECT_EQ(lost->outcome, proof::Outcome::kLoss) << fen << ": " << best << " does not win (" << lost->note << ")";
      EXPECT_TRUE(lost->certified) << fen << ": " << best;
    }
  std::sort(moves.begin(), moves.end());
  moves.erase(std::unique(moves.begin(), moves.end()), moves.end());
  EXPECT_GT(moves.size(), 1u) << "every image got the same move: none was mapped";
  // The other side's view: after L@b2, player 2 to move has lost.
  const std::vector<std::string> seen = untilBestMove(e, {"position startpos moves L@b2", "go depth 3"});
  EXPECT_TRUE(anyContains(seen, "info string proof loss in ")) << seen.front();
  EXPECT_TRUE(anyContains(seen, "info depth 3 ")) << "a proved loss is still searched";
}

// A stored position reached by a board move since the game's last drop is
// not answered from the database (its strategy could repeat a position
// the game has had); the same position as the root of a game is.
TEST(ProtocolProofDatabase, APositionWithHistorySinceTheLastDropIsNotAnsweredFromIt) {
  const testing::ScratchDir dir("pdb_history");
  const std::string path = dir.file("g.pdb");
  const char* moves = "L@b2 L@a1 M@c2 a1a3 S@c3 a3a1";  // (the last two: a drop, then a board move)
  Game game{Board(Variant::gobblers())};
  for (const std::string m : {"L@b2", "L@a1", "M@c2", "a1a3", "S@c3", "a3a1"}) ASSERT_TRUE(game.play(m).ok()) << m;
  ASSERT_FALSE(game.positionsSinceLastDrop().empty());
  const std::string fen = positionToString(game.position());
  {
    EngineProcess e;  // stores the position, proved as the root of a game
    const std::vector<std::string> seen =
        untilBestMove(e, {"setoption name Variant value gobblers", "setoption name ProofDatabase value " + path,
                          "position fen " + fen, "go prove"});
    ASSERT_TRUE(anyContains(seen, "info string proof win ")) << fen;
    ASSERT_TRUE(anyContains(seen, "info string proof database appended ")) << fen;
  }
  EngineProcess e;  // a new engine: nothing learned but the database
  answer(e, {"setoption name Variant value gobblers", "setoption name ProofDatabase value " + path});
  std::vector<std::string> seen = untilBestMove(e, {std::string("position startpos moves ") + moves, "go depth 2"});
  EXPECT_FALSE(anyContains(seen, "(database)")) << "answered from the database after a board move";
  seen = untilBestMove(e, {"position fen " + fen, "go depth 2"});
  EXPECT_TRUE(anyContains(seen, "info string proof win in ")) << fen;
  EXPECT_TRUE(anyContains(seen, "(database)")) << fen;
}

// The `response` line `query proof` gives after `commands`.
std::string queryProof(EngineProcess& e, const std::vector<std::string>& commands) {
  std::vector<std::string> all = commands;
  all.push_back("query proof");
  const std::vector<std::string> seen = answer(e, all);
  const std::optional<std::string> response = lineStarting(seen, "response ");
  EXPECT_TRUE(response) << "no response to query proof";
  return response ? response->substr(9) : "";
}

// The plies of a "win N MOVE" or "loss N" answer (-1: neither).
int pliesOf(const std::string& answer, const std::string& outcome) {
  if (answer.rfind(outcome + " ", 0) != 0) return -1;
  return std::stoi(answer.substr(outcome.size() + 1));
}

// What both the option's database and a hosted one answer: the start's win
// (a legal move, after which the database says the opponent loses in
// fewer plies), none where it may not be used or does not apply.
void expectTheStartsValue(EngineProcess& e, const std::vector<std::string>& setup) {
  const std::string start = queryProof(e, setup);
  const int plies = pliesOf(start, "win");
  ASSERT_GE(plies, 13) << start << " (the first player's fastest forced win takes 13 plies)";
  const std::string move = start.substr(start.rfind(' ') + 1);
  Game game{Board(Variant::gobblers())};
  ASSERT_TRUE(game.play(move).ok()) << "not a legal move at the start: " << start;
  const std::string after = queryProof(e, {"position startpos moves " + move});
  const int loss = pliesOf(after, "loss");
  EXPECT_GE(loss, 12) << after;
  EXPECT_LT(loss, plies) << after;
  // A board move since the last drop: a repetition could matter, so none.
  EXPECT_EQ(queryProof(e, {"position startpos moves L@b2 L@a1 M@c2 a1a3 S@c3 a3a1"}), "none");
  // Another variant: none.
  EXPECT_EQ(queryProof(e, {"setoption name Variant value gobblet", "position startpos"}), "none");
}

TEST(ProtocolProofDatabase, QueryProofAnswersFromTheOptionsFileAndFromAHostedOne) {
  const testing::ScratchDir dir("pdb_query");
  const std::string path = dir.file("g.pdb");
  makeGobblersDatabase(path);
  {
    EngineProcess e;
    EXPECT_EQ(queryProof(e, {"setoption name Variant value gobblers", "position startpos"}), "none")
        << "a value without a database";
    expectTheStartsValue(e, {"setoption name ProofDatabase value " + path, "position startpos"});
  }
  EngineProcess hosted({"--proof-db", path});
  expectTheStartsValue(hosted, {"setoption name Variant value gobblers", "position startpos"});
  // What the hosted file holds is played as proved, as from the option's.
  const std::vector<std::string> seen =
      untilBestMove(hosted, {"setoption name Variant value gobblers", "position startpos", "go movetime 200"});
  EXPECT_TRUE(anyContains(seen, "info string proof win in ")) << "no word of the hosted database";
}

// A database whose one record claims the start of gobblers won in 3 plies
// (its certificate's longest game is 13 or more): its checksums are right.
std::string writeClaimOfThreePlies(const testing::ScratchDir& dir) {
  proof::ProverOptions options;
  options.hashMiB = 16;
  auto proved = proof::prove(Board(Variant::gobblers()), options);
  EXPECT_TRUE(proved.ok() && proved->certificate);
  auto bytes = proof::encodeCertificate(*proved->certificate);
  EXPECT_TRUE(bytes.ok());
  const std::string path = dir.file("claim.pdb");
  std::ofstream(path, std::ios::binary) << proof::encodeDatabaseHeader(Variant::gobblers())
                                        << proof::encodeRecord(3, *bytes);
  return path;
}

TEST(ProtocolProofDatabase, AFileClaimingFewerPliesIsRefusedHostedAndCorrectedAsAnOption) {
  const testing::ScratchDir dir("pdb_claim");
  const std::string path = writeClaimOfThreePlies(dir);
  auto opened = proof::ProofDatabase::open(path, proof::ProofDatabase::Mode::kRead);
  ASSERT_TRUE(opened.ok()) << opened.status();
  ASSERT_EQ((*opened)->find(Board(Variant::gobblers()))->plies, 3) << "the forgery is not read as written";
  {
    EngineProcess hosted({"--proof-db", path});
    ASSERT_TRUE(hosted.waitExit(Ms(30000))) << "the engine started on a forged database";
    EXPECT_TRUE(WIFEXITED(hosted.exitStatus()) && WEXITSTATUS(hosted.exitStatus()) == 2);
    const std::optional<std::string> why = hosted.err().readUntil("gobblet: --proof-db", Ms(5000));
    ASSERT_TRUE(why) << "no word of why";
    EXPECT_NE(why->find("the checker counts"), std::string::npos) << *why;
  }
  EngineProcess e;  // the option's file: the user's own, answered with the checker's count
  const std::string start = queryProof(
      e, {"setoption name Variant value gobblers", "setoption name ProofDatabase value " + path, "position startpos"});
  EXPECT_GE(pliesOf(start, "win"), 13) << start;
  const std::vector<std::string> seen = untilBestMove(e, {"go movetime 200"});
  EXPECT_FALSE(anyContains(seen, "in 3 plies")) << "the file's claim was said";
}

TEST(ProtocolProofDatabase, AReadOnlyEngineMakesNoFileAndAppendsNothing) {
  const testing::ScratchDir dir("pdb_read_only");
  const std::string path = dir.file("g.pdb");
  makeGobblersDatabase(path);
  const uintmax_t bytes = std::filesystem::file_size(path);
  EngineLimits limits;
  limits.proofDatabaseReadOnly = true;
  std::vector<std::string> notes;  // (the prover's come from its thread, before its onDone)
  Engine engine(limits, [&notes](NoticeKind, const std::string& text) { notes.push_back(text); });
  ASSERT_TRUE(engine.setOption("Variant", "gobblers", true).ok());
  const std::string missing = dir.file("missing.pdb");
  const absl::Status refused = engine.setOption("ProofDatabase", missing, true);
  EXPECT_NE(refused.message().find("No such file"), std::string::npos) << refused;
  EXPECT_FALSE(std::filesystem::exists(missing)) << "a file was made";
  ASSERT_TRUE(engine.setOption("ProofDatabase", path, true).ok());
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.back().find("' opened read-only for gobblers: "), std::string::npos) << notes.back();
  // A position it does not hold (player 1's small piece in a corner), proved and not appended.
  ASSERT_TRUE(engine.setPosition(std::nullopt, {"S@a1"}).ok());
  ASSERT_TRUE(engine.proofDatabase() && !engine.proofDatabaseWritable());
  ASSERT_FALSE(engine.proofDatabase()->find(engine.game().position())) << "held: nothing to append";
  std::promise<bool> proved;
  ProveCallbacks callbacks;
  callbacks.onDone = [&proved](const absl::StatusOr<proof::ProofResult>& result, Move, const ProvedDefence&) {
    proved.set_value(result.ok() && result->certified);
  };
  ASSERT_TRUE(engine.prove(ProveLimits{0, 60000}, std::move(callbacks)).ok());
  ASSERT_TRUE(proved.get_future().get()) << "not proved";
  EXPECT_EQ(std::filesystem::file_size(path), bytes) << "appended to";
  for (const std::string& note : notes) EXPECT_EQ(note.find("appended"), std::string::npos) << note;
}

// A tic-tac-toe database holding the start for `defenders` (players, 0 or
// 1), made by the proof library.
void makeHeldDatabase(const std::string& path, const std::vector<int>& defenders) {
  const Variant variant = Variant::ticTacToe();
  auto db = proof::ProofDatabase::open(path, proof::ProofDatabase::Mode::kReadWrite, variant);
  ASSERT_TRUE(db.ok()) << db.status();
  std::vector<proof::Certificate> held;
  for (int defender : defenders) {
    auto proved = proof::proveNotLost(Board(variant), defender);
    ASSERT_TRUE(proved.ok() && proved->defence == proof::Defence::kHeld) << "player " << defender + 1;
    held.push_back(*proved->certificate);
  }
  auto stored = proof::storeProof(**db, held);
  ASSERT_TRUE(stored.ok()) << stored.status();
  ASSERT_EQ(stored->appended, defenders.size());
}

// `go prove` proves tic-tac-toe's start drawn and appends both held
// entries; the next proof's not-lost phase answers both from them (fewer
// nodes, nothing new appended). A fresh engine on the file answers `query
// proof` "draw M" and `go` with M at once ("proof draw (database)", nodes
// 0, an exact 0), and the moves after it are held too.
TEST(ProtocolProofDatabase, AProvedDrawIsStoredAndPlayedFromTheDatabase) {
  const testing::ScratchDir dir("pdb_draw");
  const std::string path = dir.file("t.pdb");
  const std::vector<std::string> setup = {"setoption name Variant value tictactoe",
                                          "setoption name ProofDatabase value " + path, "position startpos"};
  std::string move;
  {
    EngineProcess e;
    std::vector<std::string> commands = setup;
    commands.push_back("go prove nodes 1000000");
    std::vector<std::string> seen = untilBestMove(e, commands);
    const auto first = lineStarting(seen, "info string proof draw ");
    ASSERT_TRUE(first) << "tic-tac-toe's start is not proved drawn";
    const auto appended = lineStarting(seen, "info string proof database appended ");
    ASSERT_TRUE(appended) << "the draw is not stored";
    EXPECT_EQ(*appended, "info string proof database appended 2 of 2 entries, 2 in all");
    move = seen.back().substr(9);
    seen = untilBestMove(e, {"go prove nodes 1000000"});
    const auto second = lineStarting(seen, "info string proof draw ");
    ASSERT_TRUE(second) << "not proved drawn again";
    EXPECT_LT(std::stoll(second->substr(second->find(" nodes ") + 7)),
              std::stoll(first->substr(first->find(" nodes ") + 7)))
        << "the not-lost phase did not start from the database: " << *first << " / " << *second;
    EXPECT_TRUE(anyContains(seen, "info string proof database appended 0 of 2 entries, 2 in all"));
  }
  auto opened = proof::ProofDatabase::open(path, proof::ProofDatabase::Mode::kRead);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_TRUE((*opened)->drawn(Board(Variant::ticTacToe())));
  EngineProcess fresh;
  EXPECT_EQ(queryProof(fresh, setup), "draw " + move);
  std::vector<std::string> seen = untilBestMove(fresh, {"go movetime 60000"});
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3], "info string proof draw (database)");
  EXPECT_NE(seen[seen.size() - 2].find(" score cp 0 nodes 0 "), std::string::npos) << seen[seen.size() - 2];
  EXPECT_EQ(seen.back(), "bestmove " + move);
  // The other side's first legal reply; then the strategy's move, held.
  Game game{Board(Variant::ticTacToe())};
  ASSERT_TRUE(game.play(move).ok());
  MoveList replies;
  generateMoves(game.position(), replies);
  ASSERT_GT(replies.size(), 0u);
  const std::string reply = moveToString(replies[0], game.position().variant());
  seen = untilBestMove(fresh, {"position startpos moves " + move + " " + reply, "go movetime 60000"});
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3], "info string proof draw (held)");
  EXPECT_NE(seen[seen.size() - 2].find(" nodes 0 "), std::string::npos) << seen[seen.size() - 2];
}

// One side held only: the side to move's entry is "not-lost M" (and `go`
// plays M at once, "proof not-lost (database)", a lower bound), the other
// side's "not-won"; neither where the database holds nothing.
TEST(ProtocolProofDatabase, ASideHeldAloneIsNotLostForItAndNotWonForTheOther) {
  const testing::ScratchDir dir("pdb_held");
  const std::string first = dir.file("first.pdb"), second = dir.file("second.pdb");
  ASSERT_NO_FATAL_FAILURE(makeHeldDatabase(first, {0}));
  ASSERT_NO_FATAL_FAILURE(makeHeldDatabase(second, {1}));
  EngineProcess e;
  const std::string mine = queryProof(e, {"setoption name Variant value tictactoe",
                                          "setoption name ProofDatabase value " + first, "position startpos"});
  ASSERT_EQ(mine.rfind("not-lost ", 0), 0u) << mine;
  const std::string move = mine.substr(9);
  std::vector<std::string> seen = untilBestMove(e, {"go movetime 60000"});
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3], "info string proof not-lost (database)");
  EXPECT_NE(seen[seen.size() - 2].find(" score cp 0 lowerbound nodes 0 "), std::string::npos) << seen[seen.size() - 2];
  EXPECT_EQ(seen.back(), "bestmove " + move);
  EXPECT_EQ(queryProof(e, {"position startpos moves " + move}), "none");
  EXPECT_EQ(queryProof(e, {"setoption name ProofDatabase value " + second, "position startpos"}), "not-won");
  seen = untilBestMove(e, {"go depth 3"});
  EXPECT_FALSE(anyContains(seen, "(database)")) << "the other side's entry was played";
}

// A read-only engine's `go prove` reads held entries and appends none:
// the start, held for player 1 alone, proved drawn; the file unchanged.
TEST(ProtocolProofDatabase, AReadOnlyEngineAppendsNoHeldEntry) {
  const testing::ScratchDir dir("pdb_held_read_only");
  const std::string path = dir.file("t.pdb");
  ASSERT_NO_FATAL_FAILURE(makeHeldDatabase(path, {0}));
  const uintmax_t bytes = std::filesystem::file_size(path);
  EngineProcess hosted({"--proof-db", path});
  const std::vector<std::string> seen =
      untilBestMove(hosted, {"setoption name Variant value tictactoe", "position startpos", "go prove nodes 1000000"});
  EXPECT_TRUE(lineStarting(seen, "info string proof draw ")) << "not proved drawn";
  EXPECT_FALSE(anyContains(seen, "appended")) << "a hosted database was appended to";
  EXPECT_EQ(std::filesystem::file_size(path), bytes) << "appended to";
}

}  // namespace
}  // namespace gobblet
