// MismatchJson: a debug-interpreter mismatch (engine/interp/DebugInterpreter.h) as JSON, the one
// encoder `fathom check --json` and `fathom run --backend aot_eager --check --json` print:
// {graph, node, op, field, expected, actual, origin, source, module}, in that order.
//
//   {"graph": "forward", "node": "add", "op": "aten.add.Tensor", "field": "strides",
//    "expected": "[1, 4]", "actual": "[4, 1]", "origin": true, "source": "model.py:7", "module": "layer"}
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace fathom {

struct Mismatch;

nlohmann::ordered_json mismatchJson(const Mismatch& m);

}  // namespace fathom
