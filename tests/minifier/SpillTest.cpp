// The spill file of large values (minifier/Spill.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"
#include "minifier/Spill.h"

namespace fathom {
namespace {

Tensor filled(double start) {
  auto t = Tensor::empty({4}, DType::Float32);
  for (int64_t i = 0; i < 4; ++i) t->setLinear(i, start + static_cast<double>(i));
  return *t;
}

// Two spills of one file (`fathom minify` moves the inputs' side-file values there, then the
// minifier spills the real values): the second appends after the first, and its offsets say so.
// A regression: every ValueSpill counted from 0, so after --resume the real values read back the
// checkpoint's bytes.
TEST(Spill, ASecondSpillOfTheSameFileAppendsAfterWhatItHolds) {
  const auto path = std::filesystem::temp_directory_path() / ("fathom-spill-" + std::to_string(::getpid()) + ".bin");
  std::filesystem::remove(path);
  auto first = minify::ValueSpill(path.string(), 0).store("a", filled(1));
  auto second = minify::ValueSpill(path.string(), 0).store("b", filled(100));
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->file.offset, 0u);
  EXPECT_EQ(second->file.offset, 16u);
  auto a = materializeInput(*first);
  auto b = materializeInput(*second);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->atLinear(3), 4.0);
  EXPECT_EQ(b->atLinear(0), 100.0);
  std::filesystem::remove(path);
}

// The inputs' side-file values move into the run's spill (its work folder); inline ones stay.
TEST(Spill, SideFileInputsMoveIntoTheSpill) {
  const auto dir = std::filesystem::temp_directory_path() / ("fathom-spill-inputs-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto side = minify::ValueSpill((dir / "dump.bin").string(), 0).store("a", filled(3));
  ASSERT_TRUE(side.ok());
  ExampleInput inline_{"b", fakeTensor(DType::Float32, {2}), std::nullopt, {}, {1.0, 2.0}, {}};
  std::vector<ExampleInput> inputs{*side, inline_};
  const std::string spill = (dir / "work.bin").string();
  ASSERT_TRUE(minify::spillSideFileInputs(inputs, spill).ok());
  EXPECT_EQ(inputs[0].file.path, spill);
  EXPECT_FALSE(inputs[1].file.present());
  EXPECT_EQ(inputs[1].data, (std::vector<double>{1.0, 2.0}));
  std::filesystem::remove((dir / "dump.bin"));
  auto a = materializeInput(inputs[0]);
  ASSERT_TRUE(a.ok()) << a.error().str();
  EXPECT_EQ(a->atLinear(2), 5.0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fathom
