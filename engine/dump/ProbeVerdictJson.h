// ProbeVerdictJson: what `fathom probe --json` prints - one JSON object on one line - with its one
// encoder (app/ProbeCommand.cpp) and its one decoder (minifier/Launcher.cpp, reading what a
// cluster node's probe printed through srun), so the two cannot drift apart:
//
//   {"file": "q.fathom.json", "graph": "forward", "predicate": "exception:boom", "backend": "jit",
//    "fails": true, "what": "raised: boom", "seconds": 0.2, "isolated": true}
//
// "predicate" is resolved where the probe learned a default from the graph (exception's message,
// crash's signal, mismatch's op); "what" says what the graph did.
#pragma once

#include <string>
#include <string_view>

#include "engine/core/Result.h"

namespace fathom {

struct ProbeVerdict {
  std::string file, graph, predicate, backend;
  bool fails = false;
  std::string what;
  double seconds = 0;
  bool isolated = true;
};

std::string probeVerdictLine(const ProbeVerdict& verdict);  // without the newline
// The verdict in `text`: the JSON object from its first '{' (a launcher may print before it). An
// error when there is none or "fails" is not true or false; other keys are optional.
Result<ProbeVerdict> parseProbeVerdict(std::string_view text);

}  // namespace fathom
