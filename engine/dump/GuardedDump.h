// GuardedDump: a dump as the guard analyses read it (`fathom guards --check`, `--explain`,
// `--overlap`, and the GUI's guards panel): a shape_env guard that cannot be read - over a symbol
// the env does not declare, text that is not an integer relation - is skipped with its error
// instead of failing the load, and every guard read keeps its position in the file, so a report
// names guards as the file numbers them. A static trace has an empty env (no symbols, no guards).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"

namespace fathom {

struct GuardedDump {
  std::string path;
  Dump dump;
  std::shared_ptr<sym::ShapeEnv> env;  // the dump's, or an empty one for a static trace (never null)
  std::vector<std::string> skipped;    // "PATH: /shape_env/guards/3/expr: guard 's9 < 4' names s9, ..."
  std::vector<size_t> filePosition;    // env->guards()[i] is shape_env/guards[filePosition[i]] of the file

  bool symbolic() const { return dump.shapeEnv != nullptr; }
};

Result<GuardedDump> loadGuardedDump(const std::string& path, const DumpReadOptions& options = {});

// The graph whose inputs a compiled entry checks a call against: "forward", else the first graph
// (null only for a dump without graphs, which loadDump refuses).
const Graph* tracedGraph(const Dump& dump);

}  // namespace fathom
