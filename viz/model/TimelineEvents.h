// TimelineEvents: one trace-log line, decoded by its kind - its summary line, its other fields as
// text, what it names (dump, graph, node, call) and a recompile's failing guards (Timeline.h).
// readTimeline then places it in its run and compile session and fills in what the event leaves
// to its compile (the dump and graph of a guard's node).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/TraceValue.h"
#include "viz/model/Timeline.h"

namespace fathom::viz {

// `j` is a line's object (engine/dump/TraceLogRead.h); fields other than "event" may be missing or
// of any type. Known kinds are read with their structs (engine/core/TraceEvents.h).
TimelineEvent decodeTimelineEvent(const TraceValue& j, int line);

// A failing guard as older logs wrote it, one text line per guard ("entry #0: s0 >= 2  [range]
// with s0 = 1; from %slice_1 = aten.slice.Tensor  at m.cpp:9; why: ..."); what it lacks stays empty.
FailingGuard failingGuardFromText(const std::string& text);

// "12.3 ms", "0.85 ms", "1.2 s"
std::string formatMs(double ms);
// "1 entry", "2 entries", "3 failing guards": how the timeline counts things.
std::string plural(int64_t n, std::string_view word);

}  // namespace fathom::viz
