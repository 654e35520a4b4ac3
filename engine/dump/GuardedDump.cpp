// A dump loaded for the guard analyses (see GuardedDump.h).
#include "engine/dump/GuardedDump.h"

#include "engine/dump/SkipUnreadableGuards.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {

Result<GuardedDump> loadGuardedDump(const std::string& path, const DumpReadOptions& options) {
  SkipUnreadableGuards skip;
  auto dump = loadDump(path, options);
  FATHOM_TRY(dump);
  GuardedDump out{path, std::move(*dump), nullptr, {}, {}};
  out.env = out.dump.shapeEnv ? out.dump.shapeEnv : sym::ShapeEnv::create();
  // Skipped guards leave gaps: the others keep their positions in the file.
  const auto& gaps = skip.skippedPositions();
  for (size_t pos = 0, gap = 0; out.filePosition.size() < out.env->guards().size(); ++pos) {
    if (gap < gaps.size() && gaps[gap] == pos) ++gap;
    else out.filePosition.push_back(pos);
  }
  for (const auto& s : skip.skipped()) out.skipped.push_back(path + ": " + s);
  return out;
}

const Graph* tracedGraph(const Dump& dump) {
  if (const Graph* forward = dump.graph("forward")) return forward;
  return dump.graphs.empty() ? nullptr : &dump.graphs.front().graph;
}

}  // namespace fathom
