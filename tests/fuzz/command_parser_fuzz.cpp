// libFuzzer target for the protocol's input side: arbitrary bytes are split
// into lines by LineBuffer (with a small cap, so the overlong path runs too)
// and every line goes through parseCommand(). Besides crashes and sanitizer
// reports it checks the parser's promises:
//   * an error message is printable ASCII (it is echoed to the controller);
//   * parsed numbers are inside their documented ranges;
//   * parsing is a function of the line (the same line parses the same way);
//   * no line handed out is longer than the cap or contains '\n';
//   * printableText() of any line is printable ASCII within its size cap
//     (the session passes every error message through it).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/command.h"
#include "engine/line_buffer.h"
#include "protocol/session.h"  // kMaxErrorLineBytes

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void checkCommand(std::string_view line) {
  using namespace gobblet;
  for (size_t cap : {size_t{3}, size_t{40}, kMaxErrorLineBytes}) {
    const std::string shown = printableText(line, cap);
    check(shown.size() <= cap);
    for (char c : shown) check(c >= 0x20 && c < 0x7f);
  }
  const auto first = parseCommand(line);
  const auto again = parseCommand(line);
  check(first.ok() == again.ok());
  if (!first.ok()) {
    for (char c : first.status().message()) check(c >= 0x20 && c < 0x7f);
    check(first.status().message() == again.status().message());
    return;
  }
  const Command& c = *first;
  check(c.kind == again->kind);
  const SearchLimits& l = c.limits;
  for (int p = 0; p < 2; ++p) {
    check(l.time[p] >= -1 && l.time[p] <= kMaxTimeMs);
    check(l.inc[p] >= 0 && l.inc[p] <= kMaxTimeMs);
  }
  check(l.depth >= 0 && l.depth <= kMaxGoDepth);
  check(l.mate >= 0 && l.mate <= kMaxGoDepth);
  check(l.moveTime >= -1 && l.moveTime <= kMaxTimeMs);
  check(l.movesToGo >= 0);
  check(c.depth >= 0 && c.depth <= kMaxPerftDepth);
  if (c.kind == CommandKind::kSetOption) check(!c.optionName.empty());
  if (c.kind == CommandKind::kPosition && !c.startpos) check(!c.positionText.empty());
  for (const std::string& m : c.moves) check(!m.empty() && m.find_first_of(" \t\r\n") == std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr size_t kCap = 256;
  gobblet::LineBuffer lines(kCap);
  const gobblet::LineBuffer::OnLine onLine = [&](std::string_view line, bool overlong) {
    check(line.size() <= kCap && line.find('\n') == std::string_view::npos);
    if (!overlong) checkCommand(line);
    return true;
  };
  // Feed in two pieces so that lines split across reads are exercised.
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const size_t half = size / 2;
  lines.feed(bytes.substr(0, half), onLine);
  lines.feed(bytes.substr(half), onLine);
  lines.finish(onLine);
  return 0;
}
