// Plugins' failure predicates (see the header).
#include "minifier/CustomPredicates.h"

#include "minifier/PredicateKind.h"

namespace fathom::minify {
namespace {

std::deque<CustomPredicate>& registry() {
  static std::deque<CustomPredicate> all;  // a deque: pointers to entries stay valid as it grows
  return all;
}

}  // namespace

Status registerPredicate(CustomPredicate p) {
  if (p.name.empty() || p.name.find(':') != std::string::npos) return invalidInput("a predicate's name is not empty and has no ':' ('" + p.name + "')");
  if (parsePredicateKind(p.name) || p.name == "plugin") return invalidInput("predicate '" + p.name + "' is a built-in kind");
  if (findCustomPredicate(p.name)) return invalidInput("predicate '" + p.name + "' is already registered");
  if (!p.check) return invalidInput("predicate '" + p.name + "' has no check");
  registry().push_back(std::move(p));
  return {};
}

const CustomPredicate* findCustomPredicate(std::string_view name) {
  for (const auto& p : registry())
    if (p.name == name) return &p;
  return nullptr;
}

const std::deque<CustomPredicate>& customPredicates() { return registry(); }

}  // namespace fathom::minify
