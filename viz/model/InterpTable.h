// InterpTable: the fake-vs-real table of one node for the interpreter panel - each field (dtype,
// sizes, strides, storage offset) as recorded (symbolic), evaluated under the symbols the real
// inputs bound, and as really produced, the fields the interpreter reported as mismatching, and a
// summary of the real values (min, max, mean, NaN and Inf counts, the first few). A node that has
// not run shows the recorded side alone; under a check report, the report's recorded and real.
#pragma once

#include <string>
#include <vector>

#include "engine/dump/CheckReportJson.h"
#include "engine/interp/DebugSession.h"
#include "engine/interp/FakeRealTable.h"

namespace fathom::viz {

struct InterpTable {
  std::string graph, node;  // node without '%'
  std::string call;         // "%getitem = getitem(%native_layer_norm, 0)"
  std::string status;       // "ran: strides differ", "ran: matches its recorded meta", "not run yet", ...
  bool ran = false;
  std::vector<FakeRealRow> rows;
  bool hasValues = false;   // a tensor result: `values` summarizes it
  ValueSummary values;
  std::vector<Mismatch> mismatches;  // this node's
  std::string binding;      // "s0 = 2, s1 = 8" (symbols bound so far; "" for a static trace)
};

// How many leading elements the table shows.
inline constexpr size_t kTableValues = 6;

// Node `node` of the graph `session` runs; `started`: the session has a run (else nothing is bound).
InterpTable liveTable(const DebugSession& session, bool started, int32_t node);
// Node `node` of `graph` (called `graphName`) as a check report saw it.
InterpTable reportTable(const Graph& graph, const std::string& graphName, int32_t node, const CheckReport& report);

}  // namespace fathom::viz
