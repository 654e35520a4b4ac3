// The backends a candidate runs with (`fathom minify --backend B`): eager (the interpreter), jit
// (the compiling backend, engine/jit; jit-unchecked without its input layout checks) and faulty ones that tests, the benchmarks and the demo inject bugs with - each misbehaves on one
// op pattern only, so a minifier has to find the pattern among many healthy nodes:
//   faulty-miscompile  an activation (relu, gelu) of a matmul's result (through views) comes out
//                      1% too large: a wrong fused epilogue (`accuracy` finds it)
//   faulty-crash       a matmul whose weight operand is a transposed view dies with SIGSEGV
//   faulty-hang        a matmul fed by an activation (through views) never returns
//   faulty-meta        aten.t.default's meta function claims a contiguous result (`mismatch`
//                      finds it): the backend's compiled graph records the lie
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
// The backend named `name`, or null.
const Backend* findBackend(std::string_view name);
// "eager, faulty-miscompile, ..." for usage lines.
std::string backendNames();

}  // namespace fathom::minify
