// AOT autograd's refusals that happen while tracing the joint graph: an op without a derivative
// is named with its graph node and model line.
#include <gtest/gtest.h>

#include <mutex>

#include "engine/aot/AotCompile.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"
#include "tests/engine/IdentityTestOp.h"

namespace fathom::aot {
namespace {

using frontend::Tensor;

// An op with no derivative in a model that needs its gradient: the joint trace fails naming the
// op, its graph node and the model line.
class NoDerivativeModel : public frontend::Model {
 public:
  NoDerivativeModel() : w_(addParameter("w", {4}, frontend::Init::normal())) {
    static std::once_flag once;
    std::call_once(once, [] { testing::registerIdentityTestOp("test::opaque_copy(Tensor self) -> Tensor"); });
  }
  std::vector<ExampleInput> inputSpecs() const override { return {frontend::inputSpec("x", DType::Float32, {3, 4})}; }
  std::vector<Tensor> forward(const std::vector<Tensor>& in) override {
    Tensor h = frontend::mul(in[0], w_.tensor());
    return {frontend::callOp1("test.opaque_copy.default", {h})};
  }

 private:
  frontend::Parameter& w_;
};

TEST(AotBadInput, OpWithoutDerivativeNamesTheNode) {
  NoDerivativeModel model;
  auto c = aotCompile(model, {});
  ASSERT_FALSE(c.ok());
  const std::string m = c.error().str();
  EXPECT_NE(m.find("the derivative for 'test.opaque_copy.default' is not implemented (OpaqueCopyBackward0 of %opaque_copy"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("tests/engine/aot/AotBadInputTest.cpp:"), std::string::npos) << m;
}

}  // namespace
}  // namespace fathom::aot
