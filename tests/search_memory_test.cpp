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

}  // namespace
}  // namespace gobblet
