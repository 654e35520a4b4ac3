// Where PyTorch 2.x lays out a result differently from 1.13 (engine/ops/AtenVersion.h): the
// functional copy and the transposed convolution, each under both versions, with the strides
// measured on PyTorch 1.13.1 (Debian) and 2.14.1 (the pinned environment) for the same calls;
// and the dump's producer choosing the version when it is read.
#include "engine/dump/Dump.h"
#include "engine/ops/AtenVersion.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::makeTensor;
using testing::runBoth;
using testing::runOp;

constexpr AtenVersion kTorch113{1, 13}, kTorch2{2, 14};

// Reading a torch 2.x fixture sets the process's version; every test of this binary starts from
// 1.13's rules again, whatever ran before it in the same process (ctest runs one per process).
class EachTestStartsAt113 : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo&) override { setAtenVersion(kTorch113); }
};
const bool kListening = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new EachTestStartsAt113);
  return true;
}();

ValueList ints(const IntList& v) {
  ValueList l;
  for (int64_t x : v) l.emplace_back(x);
  return l;
}

TEST(AtenVersion, ParsesTheProducersTorchVersion) {
  EXPECT_EQ(parseTorchVersion("2.14.1+cu130"), (AtenVersion{2, 14}));
  EXPECT_EQ(parseTorchVersion("1.13.0a0"), (AtenVersion{1, 13}));
  EXPECT_EQ(parseTorchVersion("2.1"), (AtenVersion{2, 1}));
  EXPECT_FALSE(parseTorchVersion("nightly").has_value());
  EXPECT_FALSE(parseTorchVersion("2").has_value());
  EXPECT_FALSE(parseTorchVersion("").has_value());
  EXPECT_TRUE((AtenVersion{2, 0}).atLeast(2, 0));
  EXPECT_FALSE((AtenVersion{1, 13}).atLeast(2, 0));
}

// AOT's backward of as_strided: copy(as_strided(new_zeros(18), [2,3,2], [6,1,3], 1), grad).
// 1.13 returns a fresh contiguous tensor; 2.x clones self keeping its strides and offset 1 (what
// the test_training_step_with_constants_and_as_strided round trip recorded under 2.x).
TEST(AtenVersion, CopyClonesSelfPreservingItsStridesUnder2x) {
  const Tensor zeros = makeTensor(DType::Float32, {18}, {}, std::vector<double>(18, 0.0));
  auto view = zeros.asStrided({2, 3, 2}, {6, 1, 3}, 1);
  ASSERT_TRUE(view.ok());
  const Tensor src = makeTensor(DType::Float32, {2, 3, 2});
  {
    ScopedAtenVersion v(kTorch113);
    const Tensor r = runOp("aten.copy.default", {*view, src});
    EXPECT_EQ(r.strides(), (IntList{6, 2, 1}));
    EXPECT_EQ(r.storageOffset(), 0);
  }
  ScopedAtenVersion v(kTorch2);
  const Tensor r = runOp("aten.copy.default", {*view, src});
  EXPECT_EQ(r.strides(), (IntList{6, 1, 3}));
  EXPECT_EQ(r.storageOffset(), 1);
  EXPECT_EQ(testing::valuesOf(r), testing::valuesOf(src));
  // self expanded (overlapping itself): a plain clone, as in both versions.
  const Tensor expanded = makeTensor(DType::Float32, {2, 4, 3}, {0, 3, 1});
  EXPECT_EQ(runOp("aten.copy.default", {expanded, makeTensor(DType::Float32, {2, 4, 3})}).strides(), (IntList{12, 3, 1}));
}

// ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1, groups=2) on a channels_last
// [2, 8, 8, 8] input (test_model_ops's model): 2.x's kernels (oneDNN in float32, the slow one in
// float64) answer in channels_last, 1.13's slow one contiguous; the gradients likewise.
TEST(AtenVersion, TransposedConvolutionFollowsChannelsLastUnder2x) {
  for (DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor x = makeTensor(dtype, {2, 8, 8, 8}, {512, 1, 64, 8});
    const Tensor w = makeTensor(dtype, {8, 2, 3, 3});
    const ValueList params = {ints({2, 2}), ints({1, 1}), ints({1, 1}), true, ints({1, 1}), int64_t{2}};
    ValueList fwd = {x, w, Value()};
    fwd.insert(fwd.end(), params.begin(), params.end());
    const Tensor grad = makeTensor(dtype, {2, 4, 16, 16});
    ValueList bwd = {grad, x, w, ints({4})};
    bwd.insert(bwd.end(), params.begin(), params.end());
    bwd.push_back(ValueList{true, true, true});
    {
      ScopedAtenVersion v(kTorch113);
      EXPECT_EQ(runOp("aten.convolution.default", fwd).strides(), (IntList{1024, 256, 16, 1}));
      auto grads = runBoth("aten.convolution_backward.default", bwd);
      ASSERT_TRUE(grads.kernel.ok()) << grads.kernel.error().str();
      EXPECT_EQ((*grads.kernel)[0].as<Tensor>().strides(), (IntList{512, 64, 8, 1}));
      EXPECT_EQ((*grads.kernel)[1].as<Tensor>().strides(), (IntList{18, 9, 3, 1}));
    }
    ScopedAtenVersion v(kTorch2);
    EXPECT_EQ(runOp("aten.convolution.default", fwd).strides(), (IntList{1024, 1, 64, 4}));
    auto grads = runBoth("aten.convolution_backward.default", bwd);
    ASSERT_TRUE(grads.kernel.ok() && grads.meta.ok()) << grads.kernel.error().str();
    for (size_t i = 0; i < 2; ++i)
      EXPECT_EQ((*grads.kernel)[i].as<Tensor>().meta().str(), (*grads.meta)[i].as<TensorMeta>().str());
    EXPECT_EQ((*grads.kernel)[0].as<Tensor>().strides(), (IntList{512, 1, 64, 8}));
    EXPECT_EQ((*grads.kernel)[1].as<Tensor>().strides(), (IntList{18, 1, 6, 2}));
  }
}

// oneDNN's transposed backward computes the weight and bias gradients together (2.x: asking
// for the bias alone returns grad_weight too, as its plain convolution always did).
TEST(AtenVersion, TransposedOneDnnBackwardReturnsTheWeightGradientWithTheBias) {
  ScopedAtenVersion v(kTorch2);
  const Tensor x = makeTensor(DType::Float32, {2, 8, 8, 8}, {512, 1, 64, 8});
  ValueList bwd = {makeTensor(DType::Float32, {2, 4, 16, 16}), x, makeTensor(DType::Float32, {8, 2, 3, 3}), ints({4}),
                   ints({2, 2}), ints({1, 1}), ints({1, 1}), true, ints({1, 1}), int64_t{2}, ValueList{false, false, true}};
  auto grads = runBoth("aten.convolution_backward.default", bwd);
  ASSERT_TRUE(grads.kernel.ok()) << grads.kernel.error().str();
  EXPECT_TRUE((*grads.kernel)[0].isNone());
  ASSERT_TRUE((*grads.kernel)[1].is<Tensor>());
  EXPECT_EQ((*grads.kernel)[1].as<Tensor>().strides(), (IntList{18, 1, 6, 2}));
}

TEST(AtenVersion, ReadingADumpFollowsItsProducersTorch) {
  ScopedAtenVersion restore(kTorch113);
  const auto dumpBy = [](const std::string& producer) {
    return R"({"format": "fathom-dump", "version": 1, )" + producer +
           R"("graphs": {"forward": {"nodes": [{"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [2]}}}, {"name": "output", "kind": "output", "args": [[{"node": "x"}]]}]}}})";
  };
  ASSERT_TRUE(parseDump(dumpBy(R"("producer": {"tool": "fathom_torch", "torch": "2.14.1+cu130"}, )"), "a.json").ok());
  EXPECT_EQ(atenVersion(), kTorch2);
  ASSERT_TRUE(parseDump(dumpBy(""), "b.json").ok());  // no torch named: Fathom's own, 1.13's rules
  EXPECT_EQ(atenVersion(), kTorch113);
}

}  // namespace
}  // namespace fathom
