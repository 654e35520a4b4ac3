// remove-outputs alone: outputs the failure does not need go (at least one stays).
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// return (abs(x), tanh(x)): the abs output and its node go.
TEST(RemoveOutputsPassTest, DropsAnOutputTheFailureDoesNotNeed) {
  GraphBuilder b;
  NodeRef x = testing::inputX(b);
  b.output({b.call("aten.abs.default", {x}), b.call("aten.tanh.default", {x})});
  testing::expectPassAloneShrinks("remove-outputs", b, 4, 3);
}

}  // namespace
}  // namespace fathom
