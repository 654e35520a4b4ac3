// The fixed text the exporters write around a graph, kept as real files in minifier/templates/
// (so they are linted and tested as files) and embedded at build time (cmake/EmbedText.cmake):
// a repro must be self-contained, with no Fathom file needed where the bug is filed.
#pragma once

namespace fathom::minify::templates {

// templates/pytorch_runtime.py: the part of every exported PyTorch script that does not depend
// on the graph (ExportPyTorch.cpp writes the graph part above it): building strided inputs,
// resolving torch.ops names across torch 1.13 and 2.x, the checks (exception, meta, accuracy,
// crash, timeout) and the exit protocol (0 not shown, 1 shown with a "FATHOM-REPRO: KIND: DETAIL"
// line, 2 setup problem). It expects the graph part to define DEFAULT_CHECK, DEFAULT_TOL,
// DEFAULT_SECONDS, DATA_FILE, OPS, make_inputs() and graph(call, *inputs).
extern const char* const kPyTorchRuntime;

// C++ helpers of exported gtest files (ExportGtest.cpp), written after the includes:
extern const char* const kGtestLayout;    // gtest_layout.inc: layout(dtype, sizes, strides, offset)
extern const char* const kGtestPin;       // gtest_pin.inc: pin(graph, name, val), sets recorded meta
// gtest_accuracy.inc: the rule of Fathom's `accuracy` predicate (minifier/Predicates.cpp) spelled
// out in the test, so the repro checks the same property without Fathom's predicate code.
extern const char* const kGtestAccuracy;
extern const char* const kGtestChild;     // gtest_child.inc: the death test's child run

}  // namespace fathom::minify::templates
