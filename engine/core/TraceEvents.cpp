// TraceEvents (see the header): what is not a template.
#include "engine/core/TraceEvents.h"

namespace fathom {

bool isTraceEnvelopeKey(std::string_view key) {
  bool found = false;
  TraceEnvelope envelope;
  TraceEnvelope::visit(envelope, [&](std::string_view k, const auto&) { found = found || k == key; });
  return found;
}

}  // namespace fathom
