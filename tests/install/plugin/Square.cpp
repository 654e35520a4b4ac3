// oot::square(Tensor x) -> Tensor, with no meta function (the installed fathom infers its layout
// from this kernel), and the predicate "has-square" (the graph still calls oot::square): a
// plugin from outside Fathom's tree, loaded by the installed fathom.
#include <fathom/plugins/api/FathomPlugin.h>

#include "engine/core/Error.h"

namespace {

fathom::ValueList square(const fathom::ValueList& args) {
  auto in = args[0].as<fathom::Tensor>().contiguous();
  FATHOM_CHECK(in.ok(), "oot::square: ", in.ok() ? "" : in.error().message);
  auto out = fathom::Tensor::empty(in->sizes(), in->dtype());
  FATHOM_CHECK(out.ok(), "oot::square: no memory");
  for (int64_t k = 0; k < in->numel(); ++k) out->setLinear(k, in->atLinear(k) * in->atLinear(k));
  return {fathom::Value(std::move(*out))};
}

fathom::minify::Verdict hasSquare(const fathom::minify::Candidate& c, const fathom::minify::Backend&, const std::string&) {
  for (const auto& n : c.graph.nodes())
    if (n.target == "oot.square.default") return {true, "calls oot::square"};
  return {false, "no oot::square"};
}

}  // namespace

FATHOM_PLUGIN("out-of-tree", "0.1", registrar) {
  registrar.op({"oot::square(Tensor x) -> Tensor", {}, square});
  registrar.predicate({"has-square", "the graph still calls oot::square", hasSquare, false});
}
