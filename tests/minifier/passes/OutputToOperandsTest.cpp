// output-to-operands alone: an output moves up to the operand where the failure still shows.
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// return neg(tanh(x)): the output moves up to tanh, and neg goes.
TEST(OutputToOperandsPassTest, MovesTheOutputUpToTheFailingOperand) {
  GraphBuilder b;
  b.output({b.call("aten.neg.default", {b.call("aten.tanh.default", {testing::inputX(b)})})});
  testing::expectPassAloneShrinks("output-to-operands", b, 4, 3);
}

}  // namespace
}  // namespace fathom
