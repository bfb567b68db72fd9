// Printable text: what the engine may echo back of its input.
//
// Error messages quote the controller's words, and the rules core quotes
// them again (parsePosition(), parseMove(), Variant::parse() end with
// "in '<the raw text>'"). Raw bytes sent back could drive a terminal
// (escape sequences) or corrupt a controller's log, and a 60 KB position
// would come back as a 60 KB line. So every echo goes through here: bytes
// outside printable ASCII (0x20..0x7e) are written as \xNN, and the text is
// cut to a fixed size with "..." at the end.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gobblet {

// The word in single quotes, safe to echo back: bytes outside printable
// ASCII, the quote and the backslash become \xNN (so the quoted text is
// unambiguous) and anything beyond 48 bytes of the word is cut ("...").
std::string quoteWord(std::string_view word);

// `text` with every byte outside printable ASCII written \xNN (other bytes,
// including quotes and backslashes, as they are), at most `maxBytes` long:
// a longer result is cut at a byte boundary that does not split an escape,
// and ends with "...". maxBytes must be at least 3.
std::string printableText(std::string_view text, size_t maxBytes);

}  // namespace gobblet
