// Text that both generated repro forms (ExportGtest.cpp, ExportPyTorch.cpp) are made of: numbers
// that read back to exactly the same value, long value lists wrapped into lines, identifiers
// made from node names. Each language spells NaN and infinity itself, so those are parameters.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace fathom::minify {

struct NumberSpelling {
  std::string nan, inf;  // "NAN" and "INFINITY" in C++, "nan" and "inf" in the Python script
};

// The shortest text that reads back as exactly `v` ("0.1", "1e-05", "-3"); with floatLiteral a
// whole number keeps a ".0", so an argument stays a float in the generated code.
std::string numberText(double v, const NumberSpelling& spelling, bool floatLiteral);
// `values` comma-separated, about 100 characters to a line, each line after the first starting with `indent`
// (integral: written as integers).
std::string valuesText(const std::vector<double>& values, bool integral, const NumberSpelling& spelling,
                       const std::string& indent);
// A string literal that C++ and Python read the same way: double quotes; quote and backslash
// escaped; control characters as 3-digit octal escapes; UTF-8 kept as it is (both languages
// read their source as UTF-8).
std::string quoted(const std::string& text);
// `text` for a comment line: control characters (a newline would end the comment) as spaces.
std::string oneLine(const std::string& text);
// An identifier for node `name`: characters other than [A-Za-z0-9_] become '_', a leading
// digit gets an 'n' prefix, a name in `reserved` a '_' suffix, a clash with one in `used` a number.
// The result is added to `used`.
std::string identifierFor(const std::string& name, const std::set<std::string>& reserved, std::set<std::string>& used);

}  // namespace fathom::minify
