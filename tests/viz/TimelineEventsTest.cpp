// viz/model/TimelineEvents: the timeline knows exactly the kinds the trace-log codec writes
// (engine/core/TraceEvents.h), so a new kind cannot be written without the timeline decoding it.
#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "engine/core/TraceEvents.h"
#include "viz/model/TimelineEvents.h"

namespace fathom::viz {
namespace {

TEST(TimelineEvents, KnowsEveryKindTheCodecWrites) {
  std::set<std::string_view> timeline;
  for (int k = 0; k < kTimelineKinds; ++k)
    if (static_cast<TimelineKind>(k) != TimelineKind::Other) timeline.insert(timelineKindName(static_cast<TimelineKind>(k)));
  const std::set<std::string_view> codec(kTraceEventNames.begin(), kTraceEventNames.end());
  EXPECT_EQ(timeline, codec);
  for (std::string_view name : kTraceEventNames) EXPECT_NE(timelineKindOf(name), TimelineKind::Other) << name;
}

}  // namespace
}  // namespace fathom::viz
