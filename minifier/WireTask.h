// A query as bytes for the worker zygote (Zygote.h): the cut and the real values its cut-in call
// nodes take. The zygote was forked before those values existed but holds the original graph,
// its inputs and the candidate builder, so a cut plus those values is all it needs to build the
// very candidate this process built - a few hundred bytes where the candidate's graph as dump
// JSON is ~0.5 MB and 25-35 ms to write and read back (BERT-12 backward). Large values travel as
// their place in the spill file, small ones inline as raw doubles.
//
// Only what a cut holds travels: outputs of NodeRefs, lists and plain constants; values with
// concrete layouts (real values always have). Anything else is not encoded (nullopt) and that
// query forks this process, as without a zygote.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/graph/ExampleInput.h"
#include "minifier/Cut.h"

namespace fathom::minify {

struct WireTask {
  Cut cut;
  std::vector<std::pair<int32_t, ExampleInput>> values;  // original node index -> its real value
};

// `cut` with the value valueOf(i) of each of its inputs that has one (null: a placeholder, whose
// example input the zygote has); nullopt when something cannot travel.
std::optional<std::string> encodeWireTask(const Cut& cut, const std::function<const ExampleInput*(int32_t)>& valueOf);
// Back from encodeWireTask's bytes; nullopt when they are not such bytes.
std::optional<WireTask> decodeWireTask(std::string_view bytes);

}  // namespace fathom::minify
