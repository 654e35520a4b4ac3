// CheckReportJson: reading back what `fathom check --json` printed - the mismatches (MismatchJson.h)
// and the graphs it checked - so a report can be laid over the dump it was made from (the GUI's
// "Open check report…") without running anything again.
//
//   {"file": "x.fathom.json", "checked": 12, "mismatches": [{graph, node, op, field, expected,
//    actual, origin, source, module}, ...], "origins": 2, "skipped": [...],
//    "graphs": [{"graph": "forward", "checked": 12, "mismatches": 2}]}
//
// Errors name the file and the JSON pointer of what is wrong ("r.json: /mismatches/3/node: ...").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/core/Result.h"
#include "engine/interp/DebugInterpreter.h"

namespace fathom {

struct CheckReport {
  std::string file;                  // the dump the report was made from, as `fathom check` was given it
  std::vector<std::string> graphs;   // the graphs it checked, in its order
  std::vector<Mismatch> mismatches;
};

// `label` names the text in errors (usually the file path).
Result<CheckReport> parseCheckReport(std::string_view text, const std::string& label);
Result<CheckReport> loadCheckReport(const std::string& path);

}  // namespace fathom
