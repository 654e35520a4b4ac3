// The predicate kinds' one table (minifier/PredicateKind.h): names round-trip, the usage line
// reads as it always has, the facts the CLI and exporters ask are the ones documented, and the
// predicate text is parsed into its kind.
#include <gtest/gtest.h>

#include <set>

#include "minifier/PredicateKind.h"
#include "minifier/Predicates.h"

namespace fathom::minify {
namespace {

// Every built-in kind's name parses back to it, and the names are the --predicate spellings; the
// plugin kind has none of its own (a plugin predicate is spelled by its name).
TEST(PredicateKind, NamesRoundTrip) {
  std::set<std::string> names;
  for (const auto& k : allPredicateKinds()) {
    if (k.kind == PredicateKind::Plugin) {
      EXPECT_FALSE(parsePredicateKind(k.name).has_value());
      continue;
    }
    EXPECT_EQ(parsePredicateKind(k.name), k.kind) << k.name;
    EXPECT_EQ(predicateKindName(k.kind), k.name);
    names.insert(k.name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"exception", "crash", "timeout", "accuracy", "mismatch", "guard", "script", "torch"}));
  EXPECT_FALSE(parsePredicateKind("Crash").has_value());
  EXPECT_FALSE(parsePredicateKind("").has_value());
}

// The usage line the CLI's help and errors print, byte for byte.
TEST(PredicateKind, UsageLineListsEveryKind) {
  EXPECT_STREQ(predicateKinds(),
               "exception[:REGEX], crash[:SIGNAL], timeout:SECONDS, accuracy[:TOL|kernels], mismatch[:OP], guard, script:CMD or "
               "torch[:exception|meta]");
}

// crash, timeout and guard need worker subprocesses; crash and timeout are judged by how the run
// ends; mismatch is checked as PyTorch's meta.
TEST(PredicateKind, FactsPerKind) {
  std::set<std::string> workers, endings;
  for (const auto& k : allPredicateKinds()) {
    if (k.needsWorkers) workers.insert(k.name);
    if (k.endsTheRun) endings.insert(k.name);
  }
  EXPECT_EQ(workers, (std::set<std::string>{"crash", "timeout", "guard"}));
  EXPECT_EQ(endings, (std::set<std::string>{"crash", "timeout"}));
  EXPECT_STREQ(predicateKindInfo(PredicateKind::Mismatch).pytorchCheck, "meta");
  EXPECT_STREQ(predicateKindInfo(PredicateKind::Script).pytorchCheck, "exception");
  EXPECT_STREQ(predicateKindInfo(PredicateKind::Accuracy).pytorchCheck, "accuracy");
}

// parsePredicate reads the kind once, with its argument; unknown kinds and bad arguments are
// errors naming the text.
TEST(PredicateKind, ParsePredicateReadsTheKindAndArgument) {
  auto crash = parsePredicate("crash:SIGSEGV");
  ASSERT_TRUE(crash.ok());
  EXPECT_EQ(crash->kind, PredicateKind::Crash);
  EXPECT_EQ(crash->arg, "SIGSEGV");
  auto torch = parsePredicate("torch:meta:aten.t.default");
  ASSERT_TRUE(torch.ok());
  EXPECT_EQ(torch->kind, PredicateKind::Torch);
  EXPECT_EQ(torch->arg, "meta:aten.t.default");
  auto unknown = parsePredicate("segfault");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message, std::string("--predicate must be ") + predicateKinds() + ", not 'segfault'");
  auto badArg = parsePredicate("guard:x");
  ASSERT_FALSE(badArg.ok());
  EXPECT_EQ(badArg.error().message, "--predicate guard:x: guard takes no argument");
}

}  // namespace
}  // namespace fathom::minify
