// The kinds of --predicate (minifier/Predicates.h), listed once: each kind's name (the text
// before the first ':', as repros, messages and JSON spell it), its usage, and the facts the
// minifier, the CLI and the exporters ask about it. The predicate text is parsed into a kind
// once, where it is read (parsePredicate); everything after compares kinds, never strings.
//
//   auto kind = parsePredicateKind("crash");          // PredicateKind::Crash
//   predicateKindInfo(*kind).needsWorkers             // true: not with --in-process
//   std::string(predicateKindName(*kind))             // "crash"
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace fathom::minify {

// Plugin: a predicate a plugin registered (minifier/CustomPredicates.h), named by its argument.
enum class PredicateKind { Exception, Crash, Timeout, Accuracy, Mismatch, Guard, Script, Torch, Plugin };

struct PredicateKindInfo {
  PredicateKind kind;
  const char* name;   // "timeout"
  const char* usage;  // "timeout:SECONDS": the kind with its argument, as the usage line shows it
  // The candidate runs in a worker subprocess: it may crash or hang (crash, timeout), or its
  // check changes the process's symbols (guard). Not with --in-process.
  bool needsWorkers;
  // The verdict is how the run ends (a signal, the time limit), not what it returns: the
  // exported GoogleTest is a death test.
  bool endsTheRun;
  // The check an exported PyTorch script runs by default (--check KIND): the kind's analogue in
  // PyTorch, "exception" where PyTorch cannot check the kind itself (torch: its argument's).
  const char* pytorchCheck;
};

// Every kind, in the order the usage line lists them.
std::span<const PredicateKindInfo> allPredicateKinds();
const PredicateKindInfo& predicateKindInfo(PredicateKind kind);
std::string_view predicateKindName(PredicateKind kind);
// "crash" -> PredicateKind::Crash; nullopt for a name that is no kind.
std::optional<PredicateKind> parsePredicateKind(std::string_view name);
// The usage line listing every kind: "exception[:REGEX], crash[:SIGNAL], ... or torch[:exception|meta]".
const char* predicateKinds();

}  // namespace fathom::minify
