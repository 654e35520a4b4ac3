#include "minifier/PredicateKind.h"

#include <array>
#include <cassert>

namespace fathom::minify {
namespace {

using K = PredicateKind;

// name, usage, needs workers, ends the run, PyTorch's check. In the enum's order.
constexpr std::array<PredicateKindInfo, 9> kKinds{{
    {K::Exception, "exception", "exception[:REGEX]", false, false, "exception"},
    {K::Crash, "crash", "crash[:SIGNAL]", true, true, "crash"},
    {K::Timeout, "timeout", "timeout:SECONDS", true, true, "timeout"},
    {K::Accuracy, "accuracy", "accuracy[:TOL|kernels]", false, false, "accuracy"},
    {K::Mismatch, "mismatch", "mismatch[:OP]", false, false, "meta"},
    {K::Guard, "guard", "guard", true, false, "exception"},
    {K::Script, "script", "script:CMD", false, false, "exception"},
    {K::Torch, "torch", "torch[:exception|meta]", false, false, "exception"},
    {K::Plugin, "plugin", "NAME[:ARG]", false, false, "exception"},  // not parsed by name; not in the usage line
}};

constexpr bool inEnumOrder() {
  for (size_t i = 0; i < kKinds.size(); ++i)
    if (static_cast<size_t>(kKinds[i].kind) != i) return false;
  return true;
}
static_assert(inEnumOrder(), "kKinds lists the kinds in PredicateKind's order");

std::string usageLine() {
  std::string line;
  const size_t builtin = kKinds.size() - 1;
  for (size_t i = 0; i < builtin; ++i) line += (i == 0 ? "" : i + 1 == builtin ? " or " : ", ") + std::string(kKinds[i].usage);
  return line;
}

}  // namespace

std::span<const PredicateKindInfo> allPredicateKinds() { return kKinds; }

const PredicateKindInfo& predicateKindInfo(PredicateKind kind) {
  const auto index = static_cast<size_t>(kind);
  assert(index < kKinds.size());
  return kKinds[index];
}

std::string_view predicateKindName(PredicateKind kind) { return predicateKindInfo(kind).name; }

std::optional<PredicateKind> parsePredicateKind(std::string_view name) {
  for (const auto& k : kKinds)
    if (name == k.name && k.kind != K::Plugin) return k.kind;
  return std::nullopt;
}

const char* predicateKinds() {
  static const std::string line = usageLine();
  return line.c_str();
}

}  // namespace fathom::minify
