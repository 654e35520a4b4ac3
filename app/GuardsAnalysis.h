// The Z3 analyses of `fathom guards` (--check, --explain, --overlap, --accepts): each loads its dumps,
// runs the engine's analysis (engine/symbolic/GuardCheck.h, GuardExplain.h, GuardOverlap.h) and
// prints text or JSON. Exit codes: 0 nothing wrong, 1 a problem found (inconsistent or unsound
// guards; sizes that fail; entries that overlap; a range not accepted), 2 bad usage or input.
#pragma once

#include <string>
#include <vector>

#include "app/CliCommon.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::cli {

struct GuardsAnalysisOptions {
  std::vector<std::string> dumps;
  std::string explain, accepts, traceLog;
  unsigned timeoutMs = 1000;
  bool json = false;
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
};

// Provenance as one text line, shared with the plain listing (GuardsCommand.cpp):
// "%add_2 = aten.add.Tensor(%div, %mul)  at FILE:LINE  in MODULE" (as JSON: engine/dump/GuardJson.h).
std::string guardWhere(const sym::GuardContext& c);

int runGuardCheck(const GuardsAnalysisOptions& o);
int runGuardExplain(const GuardsAnalysisOptions& o);
int runGuardOverlap(const GuardsAnalysisOptions& o);
int runGuardAccepts(const GuardsAnalysisOptions& o);

}  // namespace fathom::cli
