// gobblet-match against the real engine: short depth-limited games between
// two settings in both rule sets, every game ended by the rules (no
// forfeits) and every record consistent on replay.
#include <filesystem>

#include <gtest/gtest.h>

#include "match/replay.h"
#include "match/tournament.h"
#include "tests/support/paths.h"

namespace gobblet::match {
namespace {

const std::string kEngine = gobblet::testing::binDir() + "/gobblet";

EngineConfig engine(const std::string& name, int depth) {
  EngineConfig c;
  c.name = name;
  c.command = kEngine;
  c.limits.depth = depth;
  c.options.emplace_back("Hash", "4");
  return c;
}

void playShortMatch(const Variant& variant) {
  ASSERT_TRUE(std::filesystem::exists(kEngine)) << kEngine << " is part of the build";
  TournamentSettings t;
  t.variant = variant;
  t.engines = {engine("depth1", 1), engine("depth2", 2)};
  t.gamesPerPairing = 4;
  t.concurrency = 2;
  t.randomPlies = 2;
  t.seed = 11;
  t.game.timeoutMs = 20000;  // generous: the suite may run slowly under sanitizers
  t.timeouts.handshakeMs = 20000;
  std::vector<GameRecord> records;
  auto state = runTournament(t, [&](const GameRecord& r, const TournamentState&) {
    records.push_back(r);
    return absl::OkStatus();
  });
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ(state->gamesPlayed, 4);
  ASSERT_EQ(records.size(), 4u);
  for (const GameRecord& r : records) {
    EXPECT_FALSE(isForfeit(r.termination)) << formatRecord(r);
    EXPECT_TRUE(verifyRecord(r).ok()) << verifyRecord(r) << "\n" << formatRecord(r);
    EXPECT_EQ(r.bookPlies, 2);
  }
}

TEST(MatchEngine, Gobblers) { playShortMatch(Variant::gobblers()); }
TEST(MatchEngine, Gobblet) { playShortMatch(Variant::gobblet()); }

}  // namespace
}  // namespace gobblet::match
