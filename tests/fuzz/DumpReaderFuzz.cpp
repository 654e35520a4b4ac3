// libFuzzer entry for the dump reader: any bytes must load or fail with an error (never crash,
// never trip a sanitizer); the fast path (simdjson events, streamed nodes) must give what the
// DOM reader alone gives, the same dump or the same error; and a dump that loads must
// round-trip: its canonical text loads again and serializes to the same bytes. A mismatch
// aborts, so libFuzzer keeps the input.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/dump/Dump.h"
#include "engine/dump/DumpStreamReader.h"

namespace {

[[noreturn]] void roundTripFailure(const char* what, const std::string& first, const std::string& detail) {
  std::fprintf(stderr, "dump round trip broken: %s\n%s\n--- canonical text ---\n%s\n", what,
               detail.c_str(), first.c_str());
  std::abort();
}

std::string firstDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  const size_t from = i > 40 ? i - 40 : 0;
  return "first difference at byte " + std::to_string(i) + ":\n  first:  " + a.substr(from, 120) +
         "\n  second: " + b.substr(from, 120);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto dump = fathom::parseDump(text, "fuzz");
  auto dom = fathom::dumpread::parseDumpDomOnly(text, "fuzz");
  if (dump.ok() != dom.ok())
    roundTripFailure("the fast reader and the DOM reader disagree", std::string(text),
                     dump.ok() ? "DOM reader: " + dom.error().str() : "fast reader: " + dump.error().str());
  if (!dump.ok()) {
    if (dump.error().str() != dom.error().str())
      roundTripFailure("the two readers report different errors", std::string(text), dump.error().str() + "\n" + dom.error().str());
    return 0;
  }

  const std::string first = fathom::serializeDump(*dump);
  auto again = fathom::parseDump(first, "fuzz (serialized)");
  if (!again.ok()) roundTripFailure("the serialized dump does not load", first, again.error().str());
  const std::string second = fathom::serializeDump(*again);
  if (second != first) roundTripFailure("serialize(parse(serialize(d))) != serialize(d)", first, firstDifference(first, second));
  return 0;
}
