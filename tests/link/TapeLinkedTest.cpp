// The autograd tape is installed by engine/autograd/Record.cpp before main(); the frontend never
// names it (frontend/GradRecorder.h). This test is its own program and names nothing of
// engine/autograd, so it passes only while fathom_engine's link option keeps that file in every
// program: were it dropped, ops on a tensor that requires grad would silently record no history.
#include <gtest/gtest.h>

#include <memory>

#include "engine/frontend/AutogradMeta.h"
#include "engine/frontend/Functional.h"

namespace fathom::frontend {
namespace {

TEST(TapeLinked, OpsOnATensorThatRequiresGradRecordHistory) {
  Tensor x = ones({2, 3}, DType::Float32);
  auto meta = std::make_shared<autograd::AutogradMeta>();
  meta->requiresGrad = true;
  x.setAutograd(meta);
  Tensor y = mul(x, 2.0);
  ASSERT_NE(y.autograd(), nullptr) << "mul of a tensor that requires grad recorded no autograd meta";
  EXPECT_TRUE(y.autograd()->requiresGrad);
  EXPECT_NE(y.autograd()->gradFn, nullptr) << "no GradNode: the tape was not installed";
  Tensor z = mul(ones({2, 3}, DType::Float32), 2.0);
  EXPECT_TRUE(!z.autograd() || !z.autograd()->gradFn) << "history on a tensor that does not require grad";
}

}  // namespace
}  // namespace fathom::frontend
