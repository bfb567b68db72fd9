// The search's memory: creating a Search touches no hash table (the table
// is allocated at the first setOptions() or go(), at the size asked for),
// and a Hash size that cannot be allocated is an error that leaves the old
// table in use.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "engine/game.h"
#include "engine/movegen.h"
#include "search/search.h"

namespace gobblet {
namespace {

// Resident set size of this process in bytes (from /proc/self/statm).
long residentBytes() {
  long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return read == 2 ? resident * sysconf(_SC_PAGESIZE) : -1;
}

TEST(SearchMemory, CreatingASearchTouchesNoHashTable) {
  constexpr int kSearches = 8;  // eagerly cleared 16 MiB tables would add 128 MiB
  const long before = residentBytes();
  ASSERT_GT(before, 0);
  std::vector<std::unique_ptr<Search>> searches;
  for (int i = 0; i < kSearches; ++i) searches.push_back(std::make_unique<Search>());
  const long grown = residentBytes() - before;
  EXPECT_LT(grown, 16l << 20) << "resident set grew by " << (grown >> 20) << " MiB for " << kSearches << " searches";
  // A fresh Search is usable as it is: newGame, then a search.
  for (auto& s : searches) s->newGame();
  const Game game{Board(Variant::ticTacToe())};
  SearchLimits limits;
  limits.depth = 3;
  const Search::Result r = searches[0]->searchSync(game, limits);
  MoveList list;
  generateMoves(game.position(), list);
  EXPECT_TRUE(list.contains(r.best));
}

// A Hash the machine cannot give (256 TiB: beyond the address space) is an
// error; the previous table stays, options() reports its size, and the
// search goes on with it.
TEST(SearchMemory, HashTooLargeIsAnErrorAndTheOldTableStays) {
  Search search;
  SearchOptions o;
  o.hashMiB = 2;
  ASSERT_TRUE(search.setOptions(o).ok());
  o.hashMiB = 1 << 28;
  o.multiPv = 2;
  const absl::Status status = search.setOptions(o);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(std::string(status.message()).find("keeping 2 MiB"), std::string::npos) << status;
  EXPECT_EQ(search.options().hashMiB, 2);
  EXPECT_EQ(search.options().multiPv, 2);  // the other options are taken
  search.newGame();                        // clears the (old) table
  const Game game{Board(Variant::gobblers())};
  SearchLimits limits;
  limits.depth = 4;
  const Search::Result r = search.searchSync(game, limits);
  MoveList list;
  generateMoves(game.position(), list);
  EXPECT_TRUE(list.contains(r.best));
  EXPECT_EQ(r.info.depth, 4);
}

// The first allocation failing too (a Search that never had a table): the
// error is reported and go() still searches, with a small table.
TEST(SearchMemory, FirstHashTooLargeStillSearches) {
  Search search;
  SearchOptions o;
  o.hashMiB = 1 << 28;
  EXPECT_FALSE(search.setOptions(o).ok());
  EXPECT_GE(search.options().hashMiB, 1);
  EXPECT_LT(search.options().hashMiB, 1 << 28);
  const Game game{Board(Variant::ticTacToe())};
  SearchLimits limits;
  limits.depth = 3;
  EXPECT_FALSE(search.searchSync(game, limits).best.isNone());
}

}  // namespace
}  // namespace gobblet
