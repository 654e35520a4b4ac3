// TraceLogRead: one line of a trace log (engine/core/TraceLog.h writes them: one JSON object per
// line with an "event" name) read into plain values (engine/core/TraceValue.h), so a reader outside
// engine/dump - the events' readers (engine/core/TraceEvents.h), the GUI's timeline
// (viz/model/Timeline.h) - needs no JSON library.
//
//   auto line = readTraceLogLine(R"({"event": "cache_hit", "compile_id": 0, "call": "4x64"})");
//   line->find("call")->text();   // "4x64"
#pragma once

#include <string_view>

#include "engine/core/Result.h"
#include "engine/core/TraceValue.h"

namespace fathom {

// The line's object, whose "event" is a string; else an error saying what the line is instead:
// "not JSON ...", "not an event: no \"event\" name", or nested too deep (over 32 levels).
Result<TraceValue> readTraceLogLine(std::string_view line);

}  // namespace fathom
