// Checkpoints of a minify run (minifier/Checkpoint.h): written as repros that load by themselves
// (spilled values copied beside them), read back as the start of a resumed run, and refused when
// they belong to another input or graph.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "minifier/Checkpoint.h"
#include "minifier/Spill.h"
#include "tests/minifier/MinifyTestSupport.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;

// A fresh folder, removed with the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& role = "out")
      : path(fs::temp_directory_path() / ("fathom-checkpoint-" + std::to_string(::getpid()) + "-" +
                                          ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" + role)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

Graph reluGraph() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4}));
  b.output({b.call("aten.neg.default", {b.call("aten.relu.default", {x})})});
  return testing::finished(b);
}

Tensor counting(double start) {
  auto t = Tensor::empty({4}, DType::Float32);
  for (int64_t i = 0; i < 4; ++i) t->setLinear(i, start + static_cast<double>(i));
  return *t;
}

Dump sourceDump(const Graph& g) {
  Dump d;
  d.producer = {{"tool", "test"}};
  d.graphs.push_back({"forward", g});
  d.inputs.emplace_back("forward", testing::seeded(g));
  return d;
}

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// A checkpoint whose input lives in the run's spill file loads after the spill is gone (its
// values were copied into OUT.bin), and resumes with the same graph, values and start count.
TEST(Checkpoint, ASavedCheckpointResumesWithItsGraphInputsAndStartCount) {
  TempDir dir, work("work");  // the run's work folder is elsewhere, as `fathom minify`'s is
  const Graph g = reluGraph();
  const Dump source = sourceDump(g);
  const std::string spillFile = (work.path / "values.bin").string();
  auto spilled = minify::ValueSpill(spillFile, 0).store("x", counting(5));
  ASSERT_TRUE(spilled.ok()) << spilled.error().str();
  const minify::CheckpointOrigin origin{"in.fathom.json", "00000000000000ab", 40};
  const std::string out = (dir.path / "min.fathom.json").string();
  const minify::CheckpointWriter writer(source, ReproSpec{"forward", "exception:boom", "eager", {}}, origin, out);
  ASSERT_TRUE(writer.save(minify::Candidate{g, {*spilled}}).ok());
  fs::remove(spillFile);

  auto loaded = loadDump(out);
  ASSERT_TRUE(loaded.ok()) << loaded.error().str();
  ASSERT_TRUE(loaded->repro.has_value());
  EXPECT_EQ(loaded->repro->predicate, "exception:boom");
  auto point = minify::resumePoint(*loaded, out, "forward", origin);
  ASSERT_TRUE(point.ok()) << point.error().str();
  EXPECT_EQ(point->startNodes, 40u);
  EXPECT_EQ(point->graph.size(), g.size());
  ASSERT_EQ(point->inputs.size(), 1u);
  auto values = materializeInput(point->inputs[0]);
  ASSERT_TRUE(values.ok()) << values.error().str();
  EXPECT_EQ(values->atLinear(0), 5.0);
  EXPECT_EQ(values->atLinear(3), 8.0);
}

// Regression: `fathom minify -o /tmp/x.fathom.json` spills to /tmp/fathom-minify-N/, inside the
// output's folder; a side file there used to be kept by name and was gone when the run ended.
// The run's scratch folder is copied from wherever it is.
TEST(Checkpoint, SpilledValuesInsideTheOutputsFolderAreCopiedToo) {
  TempDir dir;
  const fs::path work = dir.path / "fathom-minify-1";
  fs::create_directories(work);
  const Graph g = reluGraph();
  const Dump source = sourceDump(g);
  const std::string spillFile = (work / "values.bin").string();
  auto spilled = minify::ValueSpill(spillFile, 0).store("x", counting(7));
  ASSERT_TRUE(spilled.ok()) << spilled.error().str();
  const std::string out = (dir.path / "min.fathom.json").string();
  minify::CheckpointWriter writer(source, ReproSpec{"forward", "exception:boom", "eager", {}}, {"in.fathom.json", "ab", 4}, out);
  writer.setScratchFolder(work.string());
  ASSERT_TRUE(writer.save(minify::Candidate{g, {*spilled}}).ok());
  fs::remove_all(work);
  auto loaded = loadDump(out);
  ASSERT_TRUE(loaded.ok()) << loaded.error().str();
  auto values = materializeInput((*loaded->inputsFor("forward"))[0]);
  ASSERT_TRUE(values.ok()) << values.error().str();
  EXPECT_EQ(values->atLinear(2), 9.0);
}

// Another input's checkpoint (by content hash), another graph's, or a dump that is no
// checkpoint at all is refused, naming the file, the graph and the input.
TEST(Checkpoint, ACheckpointOfAnotherInputOrGraphIsRefused) {
  TempDir dir;
  const Graph g = reluGraph();
  const Dump source = sourceDump(g);
  const minify::CheckpointOrigin origin{"in.fathom.json", "00000000000000ab", 3};
  const Dump checkpoint = minify::checkpointDump(minify::Candidate{g, testing::seeded(g)}, source,
                                                 ReproSpec{"forward", "exception", "eager", {}}, origin);
  EXPECT_TRUE(minify::resumePoint(checkpoint, "min.json", "forward", origin).ok());

  minify::CheckpointOrigin other = origin;
  other.inputHash = "00000000000000cd";
  auto wrongInput = minify::resumePoint(checkpoint, "min.json", "forward", other);
  ASSERT_FALSE(wrongInput.ok());
  EXPECT_EQ(wrongInput.error().message, "min.json is not a checkpoint of graph 'forward' of in.fathom.json");
  EXPECT_FALSE(minify::resumePoint(checkpoint, "min.json", "backward", origin).ok());
  EXPECT_FALSE(minify::resumePoint(source, "min.json", "forward", origin).ok());
}

// The input's identity is its content: the same bytes hash the same wherever they are.
TEST(Checkpoint, FileHashFollowsTheContent) {
  TempDir dir;
  writeText(dir.path / "a", "graph one");
  writeText(dir.path / "b", "graph one");
  writeText(dir.path / "c", "graph two");
  const std::string a = minify::fileHash((dir.path / "a").string());
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a, minify::fileHash((dir.path / "b").string()));
  EXPECT_NE(a, minify::fileHash((dir.path / "c").string()));
  EXPECT_EQ(minify::fileHash((dir.path / "none").string()), "0000000000000000");
}

}  // namespace
}  // namespace fathom
