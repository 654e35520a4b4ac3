#include "minifier/ExportText.h"

#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdio>

namespace fathom::minify {

std::string numberText(double v, const NumberSpelling& spelling, bool floatLiteral) {
  if (std::isnan(v)) return spelling.nan;
  if (std::isinf(v)) return (v < 0 ? "-" : "") + spelling.inf;
  char buffer[64];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);  // shortest round trip
  std::string text(buffer, r.ptr);
  if (floatLiteral && text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string valuesText(const std::vector<double>& values, bool integral, const NumberSpelling& spelling,
                       const std::string& indent) {
  constexpr size_t kWidth = 100;  // characters of values per line
  std::string out;
  size_t lineStart = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    // Integer dtypes hold whole numbers (int64 beyond 2^53 is already rounded in a double).
    const std::string text = integral && std::isfinite(values[i]) ? std::to_string(static_cast<int64_t>(values[i]))
                                                                  : numberText(values[i], spelling, false);
    if (i > 0 && out.size() - lineStart + text.size() + 2 > kWidth) {
      out += ",\n" + indent;
      lineStart = out.size();
    } else if (i > 0) {
      out += ", ";
    }
    out += text;
  }
  return out;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\%03o", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string oneLine(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

std::string identifierFor(const std::string& name, const std::set<std::string>& reserved, std::set<std::string>& used) {
  std::string id;
  for (char c : name) id += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "n" + id;
  if (reserved.count(id)) id += '_';
  std::string candidate = id;
  for (int n = 1; used.count(candidate); ++n) candidate = id + std::to_string(n);
  used.insert(candidate);
  return candidate;
}

}  // namespace fathom::minify
