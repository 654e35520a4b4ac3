// Helpers for JSON text that came from a user: nesting-depth limits (checked before parsing, so
// a hostile file cannot exhaust the stack), parse errors as "line L, column C: ...", and
// messages made safe for one terminal line (no control or non-UTF-8 bytes echoed back).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/core/Result.h"

namespace fathom {

// An error naming line and column when arrays/objects nest deeper than maxDepth.
Status checkJsonDepth(std::string_view text, int maxDepth);
// "line 3, column 17: syntax error ..." from a parser message and byte offset.
std::string describeJsonParseError(std::string_view text, size_t byte, std::string_view parserMessage);
// Replaces control characters and bytes >= 0x80 by '?', so an error stays one printable line.
std::string sanitizeForTerminal(std::string_view s);

}  // namespace fathom
