// One graph of an InterpSession's run (internal to InterpSession*.cpp): its DebugSession, which
// keeps the graph's breakpoints across runs, and whether this run has reached it yet (before
// that, the DebugSession still holds the previous run and must not be read).
#pragma once

#include <memory>
#include <string>

#include "engine/interp/DebugSession.h"
#include "viz/model/InterpSession.h"

namespace fathom::viz {

struct InterpSession::Stage {
  std::string name;
  const Graph* graph = nullptr;
  std::unique_ptr<DebugSession> session;
  bool started = false;
};

}  // namespace fathom::viz
