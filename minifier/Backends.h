// The backends a candidate runs with (`fathom minify --backend B`): eager (the interpreter) and
// jit (the compiling backend, engine/jit; jit-unchecked without its input layout checks), then
// the ones plugins register - among them the faulty backends the tests, benchmarks and demo
// inject bugs with (plugins/faulty_backends: faulty-miscompile, faulty-crash, faulty-hang,
// faulty-meta).
//
//   const Backend* b = findBackend("eager");
//   Result<ValueList> outs = b->run(graph, inputs);
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom::minify {

struct Backend {
  std::string name;
  std::string description;
  // Runs the graph on real inputs (one per placeholder), symbols bound to their real sizes: the
  // values its output node returns,
  // or the error it raised. A faulty backend may also crash or hang here.
  std::function<Result<ValueList>(const Graph&, ValueList inputs)> run;
  // The graph with the meta this backend's meta functions give each node (what `mismatch`
  // compares with the real run): the recorded meta unless the backend has its own.
  std::function<Graph(const Graph&)> meta;
};

// Every backend, eager first, then the ones plugins registered (a deque: a Backend* stays valid).
const std::deque<Backend>& backends();
// Adds a plugin's backend; an error when the name is taken or it cannot run anything.
Status registerBackend(Backend backend);
// Whether `name` is one of this build's own backends (eager, jit, jit-unchecked), not a plugin's.
bool isBuiltinBackend(std::string_view name);
// The backend named `name`, or null.
const Backend* findBackend(std::string_view name);
// "eager, faulty-miscompile, ..." for usage lines.
std::string backendNames();

}  // namespace fathom::minify
