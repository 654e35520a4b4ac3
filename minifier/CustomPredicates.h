// Failure predicates that plugins add (plugins/api/FathomPlugin.h): `--predicate NAME[:ARG]` for
// a NAME no built-in kind has. They parse as PredicateKind::Plugin with the whole text as the
// argument, and makeOracle asks the plugin's check on each candidate with the run's backend.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <string_view>

#include "engine/core/Result.h"
#include "minifier/Backends.h"
#include "minifier/Minify.h"

namespace fathom::minify {

struct CustomPredicate {
  std::string name;         // what --predicate says; not a built-in kind's name
  std::string description;  // one line
  // Does this candidate still fail? `backend` runs it; `arg`: what followed "NAME:" (or empty).
  std::function<Verdict(const Candidate&, const Backend& backend, const std::string& arg)> check;
  bool needsWorkers = false;  // it may crash or hang: refused with --in-process
};

// Adds one; an error when the name is a built-in kind's or already registered.
Status registerPredicate(CustomPredicate predicate);
const CustomPredicate* findCustomPredicate(std::string_view name);
const std::deque<CustomPredicate>& customPredicates();  // in registration order

}  // namespace fathom::minify
