#include "engine/dump/JsonText.h"

namespace fathom {
namespace {
// 1-based line and column of a byte offset.
std::pair<size_t, size_t> lineColumn(std::string_view text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
  }
  return {line, col};
}
}  // namespace

Status checkJsonDepth(std::string_view text, int maxDepth) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '{') {
      if (++depth > maxDepth) {
        auto [line, col] = lineColumn(text, i);
        return invalidInput("line " + std::to_string(line) + ", column " + std::to_string(col) +
                            ": JSON nested deeper than " + std::to_string(maxDepth) + " levels");
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return {};
}

std::string sanitizeForTerminal(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) out += (c < 0x20 || c >= 0x7f) ? '?' : static_cast<char>(c);
  return out;
}

std::string describeJsonParseError(std::string_view text, size_t byte, std::string_view parserMessage) {
  // nlohmann's byte is 1-based and points just past the offending character.
  auto [line, col] = lineColumn(text, byte > 0 ? byte - 1 : 0);
  std::string msg(parserMessage);
  // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." -> "syntax error ..."
  if (auto p = msg.find(": "); p != std::string::npos && msg.starts_with("[json.exception")) msg = msg.substr(p + 2);
  if (byte >= text.size()) msg = "unexpected end of file (truncated JSON?): " + msg;
  return "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + sanitizeForTerminal(msg);
}

}  // namespace fathom
