// search_position VARIANT POSITION MILLISECONDS [MOVE...]: searches a position
// for a fixed time with the Engine every door of gobblet drives
// (gobblet::protocol's protocol/engine.h) and prints each depth's line, then
// the best move. POSITION is "startpos" or a position's text; the MOVEs are
// played from it first.
//   search_position gobblet startpos 500
//   search_position gobblers startpos 200 L@b2
//   search_position gobblet startpos 200 X@b2
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/notation.h"
#include "protocol/engine.h"
#include "protocol/score_words.h"  // scoreWords: "cp 31", "mate 5"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: search_position VARIANT POSITION|startpos MILLISECONDS [MOVE...]\n");
    return 2;
  }
  const auto fail = [](absl::string_view what) {
    std::fprintf(stderr, "search_position: %.*s\n", static_cast<int>(what.size()), what.data());
    return 2;
  };
  // Lines the engine volunteers (a tablebase loaded, an error) go to stderr.
  gobblet::Engine engine(gobblet::EngineLimits{}, [](gobblet::NoticeKind, const std::string& text) {
    std::fprintf(stderr, "engine: %s\n", text.c_str());
  });
  if (absl::Status st = engine.setOption("Variant", argv[1], true); !st.ok()) return fail(st.message());
  const std::string_view position = argv[2];
  const std::vector<std::string> moves(argv + 4, argv + argc);
  if (absl::Status st = engine.setPosition(position == "startpos" ? std::nullopt : std::optional(position), moves);
      !st.ok())
    return fail(st.message());
  char* end = nullptr;
  const long ms = std::strtol(argv[3], &end, 10);
  if (*end != '\0' || ms < 1) return fail("MILLISECONDS must be a whole number of at least 1");
  engine.prepare();  // the hash table and the tablebase, before the clock runs

  const gobblet::Variant variant = engine.options().variant;
  gobblet::SearchLimits limits;
  limits.moveTime = ms;
  // Each depth's line as the search reports it (on the search's thread);
  // the call returns when the search has ended.
  const auto result = engine.searchBlocking(limits, [&](const gobblet::SearchInfo& info) {
    if (info.isFinal) return;
    std::string pv;
    for (gobblet::Move m : info.pv) pv += " " + gobblet::moveToString(m, variant);
    std::printf("depth %d score %s nodes %llu pv%s\n", info.depth, gobblet::scoreWords(info.score).c_str(),
                static_cast<unsigned long long>(info.nodes), pv.c_str());
  });
  if (!result.ok()) return fail(result.status().message());
  std::printf("bestmove %s\n", result->best.isNone() ? "(none)" : gobblet::moveToString(result->best, variant).c_str());
  return 0;
}
