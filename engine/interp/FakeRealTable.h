// FakeRealTable: what a graph recorded about one node (its fake value: dtype, sizes, strides,
// storage offset, symbolic where the trace was) beside what the debug interpreter really got, one
// row per field, and a summary of the real values. `fathom step`'s `print` prints these rows and
// the GUI's interpreter panel shows them as a table, so both say the same thing.
//
//   for (const FakeRealRow& r : fakeRealRows(interp, node, node.val, interp.value(ref)))
//     ... r.field ("strides"), r.recorded ("[s1, 1]"), r.evaluated ("[64, 1]"), r.real ("[1, 4]"), r.mismatch
//
// A row is marked `mismatch` when the interpreter reported a mismatch for that field of that node
// (so the size-1 strides it does not compare are not marked, as PyTorch's significant-strides rule).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/interp/DebugInterpreter.h"

namespace fathom {

struct ValueSummary {
  int64_t count = 0, finite = 0, nan = 0, inf = 0;
  double min = 0, max = 0, mean = 0;  // over the finite elements
  std::vector<double> first;          // the first elements, in row-major logical order
  // "min -1.2  max 3.4  mean 0.01  nan 0  inf 0", "empty", "no finite element  nan 3  inf 0"
  std::string str() const;
  // "-1.52, -0.75, 0.44, ..." (the `first` values, "..." when there are more)
  std::string firstText() const;
};

// Over every element of `t`; `firstCount` elements are kept in `first`.
ValueSummary summarizeValues(const Tensor& t, size_t firstCount = 0);

struct FakeRealRow {
  std::string field;      // "dtype", "sizes", "strides", "storage offset", "value", "alias", "values";
                          // "[1] sizes" for element 1 of a multi-output node
  std::string recorded;   // as recorded: "[s0, 768]"; "-" when nothing was recorded
  std::string evaluated;  // under the symbols bound from the real inputs: "[4, 768]" ("?" unbound)
  bool symbolic = false;  // recorded names a symbol (else evaluated == recorded)
  std::string real;       // "[4, 768]"; the values row: the summary
  bool mismatch = false;  // the interpreter reported a mismatch for this field of the node
  // "[s0, 768] = [4, 768]" when symbolic, else "[4, 768]": one column for both.
  std::string recordedText() const { return symbolic ? recorded + " = " + evaluated : recorded; }
};

// The rows for node `node` (already run): `recorded` its recorded value (node.val; None when it
// has none), `real` what it produced. `label` prefixes every field (used for list elements).
std::vector<FakeRealRow> fakeRealRows(const DebugInterpreter& interp, const Node& node, const Value& recorded,
                                      const Value& real, const std::string& label = "");

// The recorded side alone, for a node that has not run (real "-"): `interp` evaluates its
// symbols as bound so far (null: none bound, "?").
std::vector<FakeRealRow> recordedRows(const DebugInterpreter* interp, const Value& recorded, const std::string& label = "");

}  // namespace fathom
