#include "engine/printable_text.h"

#include <cstdio>

namespace gobblet {

namespace {

bool isPrintable(unsigned char c) { return c >= 0x20 && c < 0x7f; }

void appendEscaped(std::string& out, unsigned char c) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "\\x%02x", c);
  out += hex;
}

// Appends text to out, non-printable bytes escaped, while out stays within
// `room` bytes; returns how many bytes of text were taken.
size_t appendPrintable(std::string& out, std::string_view text, size_t room) {
  size_t i = 0;
  for (; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (out.size() + (isPrintable(c) ? 1 : 4) > room) break;
    if (isPrintable(c))
      out += static_cast<char>(c);
    else
      appendEscaped(out, c);
  }
  return i;
}

}  // namespace

std::string quoteWord(std::string_view word) {
  constexpr size_t kMaxShown = 48;
  std::string out = "'";
  for (size_t i = 0; i < word.size() && i < kMaxShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(word[i]);
    if (isPrintable(c) && c != '\'' && c != '\\')
      out += static_cast<char>(c);
    else
      appendEscaped(out, c);
  }
  if (word.size() > kMaxShown) out += "...";
  return out + "'";
}

std::string printableText(std::string_view text, size_t maxBytes) {
  std::string out;
  if (appendPrintable(out, text, maxBytes) == text.size()) return out;
  // Too long: cut shorter, leaving room for the "...".
  out.clear();
  appendPrintable(out, text, maxBytes - 3);
  return out + "...";
}

}  // namespace gobblet
