// probe_tablebase FILE [POSITION]: the exact value of POSITION (default: the
// variant's start) from a tablebase file written by `gobblet-tb build`, and
// every legal move with its value, with the gobblet::tablebase library of an
// installed gobblet.
//   probe_tablebase ~/.local/share/gobblet/gobblers.gtb
#include <cstdio>
#include <memory>
#include <string>

#include "engine/notation.h"
#include "tablebase/tablebase.h"

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: probe_tablebase FILE [POSITION]\n");
    return 2;
  }
  const absl::StatusOr<std::shared_ptr<const gobblet::tb::Tablebase>> tablebase = gobblet::tb::open(argv[1]);
  if (!tablebase.ok()) {
    std::fprintf(stderr, "probe_tablebase: %s\n", std::string(tablebase.status().message()).c_str());
    return 1;
  }
  const gobblet::Variant& variant = (*tablebase)->variant();
  absl::StatusOr<gobblet::Board> board =
      argc == 3 ? gobblet::parsePosition(variant, argv[2]) : absl::StatusOr<gobblet::Board>(gobblet::Board(variant));
  if (!board.ok()) {
    std::fprintf(stderr, "probe_tablebase: %s\n", std::string(board.status().message()).c_str());
    return 2;
  }
  std::printf("%s: %s\n", variant.name().c_str(), gobblet::tb::describe((*tablebase)->probe(*board)).c_str());
  for (const gobblet::tb::RankedMove& m : gobblet::tb::rankMoves(**tablebase, *board))
    std::printf("  %s %s\n", gobblet::moveToString(m.move, variant).c_str(), gobblet::tb::describe(m.value).c_str());
  return 0;
}
