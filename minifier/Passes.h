// The minifier's pass table (Passes.def): each pass's kebab-case key, the name its progress and
// stats show, a one-line description, its function and whether it runs by default. The driver
// (Minify.cpp) runs the passes MinifyOptions::passes selects (default: defaultPassKeys()), in
// table order; `fathom minify --list-passes` prints the table.
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
  bool byDefault;           // false: only when named (FATHOM_PASS_ON_REQUEST)
};

// Every pass, in the order the driver runs them.
const std::vector<PassInfo>& allPasses();
// The pass with this key, or null.
const PassInfo* findPass(std::string_view key);
// Every key, in table order.
std::vector<std::string> allPassKeys();
// The keys of the passes that run by default, in table order (MinifyOptions::passes' default;
// what --skip-passes removes keys from).
std::vector<std::string> defaultPassKeys();
// "truncate-suffix, remove-outputs, ..." for messages naming the valid keys.
std::string passKeyList();

}  // namespace fathom::minify
