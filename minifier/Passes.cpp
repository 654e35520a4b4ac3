#include "minifier/Passes.h"

namespace fathom::minify {

const std::vector<PassInfo>& allPasses() {
  static const std::vector<PassInfo> passes = {
#define FATHOM_PASS(key, name, description, function) {key, name, description, &function, true},
#define FATHOM_PASS_ON_REQUEST(key, name, description, function) {key, name, description, &function, false},
#include "minifier/Passes.def"
  };
  return passes;
}

const PassInfo* findPass(std::string_view key) {
  for (const auto& p : allPasses())
    if (key == p.key) return &p;
  return nullptr;
}

std::vector<std::string> allPassKeys() {
  std::vector<std::string> keys;
  for (const auto& p : allPasses()) keys.emplace_back(p.key);
  return keys;
}

std::vector<std::string> defaultPassKeys() {
  std::vector<std::string> keys;
  for (const auto& p : allPasses())
    if (p.byDefault) keys.emplace_back(p.key);
  return keys;
}

std::string passKeyList() {
  std::string list;
  for (const auto& p : allPasses()) list += (list.empty() ? "" : ", ") + std::string(p.key);
  return list;
}

}  // namespace fathom::minify
