// The part of every exported PyTorch script that does not depend on the graph (ExportPyTorch.cpp
// writes the graph part above it): building strided inputs, resolving torch.ops names across
// torch 1.13 and 2.x, the checks (exception, meta, accuracy, crash, timeout) and the exit
// protocol (0 not shown, 1 shown with a "FATHOM-REPRO: KIND: DETAIL" line, 2 setup problem).
// It expects the graph part to define DEFAULT_CHECK, DEFAULT_TOL, DEFAULT_SECONDS, DATA_FILE, OPS,
// make_inputs() and graph(call, *inputs).
#pragma once

namespace fathom::minify {

extern const char* const kPyTorchRuntime;

}  // namespace fathom::minify
