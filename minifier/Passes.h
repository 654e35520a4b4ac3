// The minifier's pass table (Passes.def): each pass's kebab-case key, the name its progress and
// stats show, a one-line description and its function. The driver (Minify.cpp) runs the passes
// MinifyOptions::passes selects, in table order; `fathom minify --list-passes` prints the table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fathom::minify {

class PassContext;

// Each pass: true when it made the best candidate (context.best()) smaller or simpler.
#define FATHOM_PASS(key, name, description, function) bool function(PassContext& context);
#include "minifier/Passes.def"

struct PassInfo {
  const char* key;          // kebab-case: --passes, --skip-passes, --list-passes
  const char* name;         // progress lines, MinifyStats::passesThatHelped
  const char* description;  // one line
  bool (*run)(PassContext&);
};

// Every pass, in the order the driver runs them.
const std::vector<PassInfo>& allPasses();
// The pass with this key, or null.
const PassInfo* findPass(std::string_view key);
// Every key, in table order (MinifyOptions::passes' default).
std::vector<std::string> allPassKeys();
// "truncate-suffix, remove-outputs, ..." for messages naming the valid keys.
std::string passKeyList();

}  // namespace fathom::minify
