// What dumps from the PyTorch exporter need beyond Fathom's own: example inputs and recorded
// outputs whose values are in a side file, and ops this build does not know kept as opaque nodes.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/dump/Dump.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test, removed afterwards.
class ExportedDumpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fathom-exported-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  template <class T>
  static std::string bytesOf(const std::vector<T>& values) {
    std::string out(values.size() * sizeof(T), '\0');
    std::memcpy(out.data(), values.data(), out.size());
    return out;
  }

  fs::path dir_;
};

const char* kGraph = R"J({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [
  {"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [2, 3], "strides": [1, 2]}}},
  {"name": "m", "kind": "placeholder", "meta": {"val": {"dtype": "bool", "sizes": [3]}}},
  {"name": "y", "kind": "call", "op": "aten.mul.Tensor", "args": [{"node": "x"}, 2]},
  {"name": "output", "kind": "output", "args": [[{"node": "y"}, {"node": "m"}]]}]}},
 "inputs": {"forward": [
  {"name": "x", "dtype": "float32", "sizes": [2, 3], "strides": [1, 2], "file": "t.fathom.bin", "file_offset": 64},
  {"name": "m", "dtype": "bool", "sizes": [3], "file": "t.fathom.bin", "file_offset": 0}]},
 "outputs": {"forward": [{"name": "out0", "dtype": "float32", "sizes": [2, 3], "strides": [1, 2], "file": "t.fathom.bin", "file_offset": 128}, null]}
})J";

TEST_F(ExportedDumpTest, SideFileValuesLoadInLogicalOrderIntoTheInputsOwnLayout) {
  std::string bin = bytesOf(std::vector<uint8_t>{1, 0, 1});
  bin.resize(64, '\0');
  bin += bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6});  // x, row-major logical order
  bin.resize(128, '\0');
  bin += bytesOf(std::vector<float>{2, 4, 6, 8, 10, 12});
  write("t.fathom.bin", bin);
  auto dump = loadDump(write("t.fathom.json", kGraph));
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  auto inputs = materializeInputs(*dump->inputsFor("forward"));
  ASSERT_TRUE(inputs.ok()) << inputs.error().str();
  const Tensor& x = (*inputs)[0].as<Tensor>();
  EXPECT_EQ(x.strides(), (IntList{1, 2}));
  EXPECT_EQ(x.at({0, 1}), 2.0);  // logical order, whatever the strides
  EXPECT_EQ(x.at({1, 0}), 4.0);
  EXPECT_EQ((*inputs)[1].as<Tensor>().at({1}), 0.0);
  auto out = Interpreter(dump->graphs[0].graph).run(std::move(*inputs));
  ASSERT_TRUE(out.ok()) << out.error().str();
  const auto* recorded = dump->outputsFor("forward");
  ASSERT_NE(recorded, nullptr);
  ASSERT_EQ(recorded->size(), 2u);
  EXPECT_FALSE((*recorded)[1].has_value());
  auto want = materializeInput(*(*recorded)[0]);
  ASSERT_TRUE(want.ok());
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ((*out)[0].as<Tensor>().atLinear(i), want->atLinear(i));
  // The writer keeps the side-file references and the outputs: load -> save -> load is stable.
  const std::string text = serializeDump(*dump);
  EXPECT_NE(text.find(R"J("file":"t.fathom.bin","file_offset":128)J"), std::string::npos) << text;
  auto again = parseDump(text, (dir_ / "copy.fathom.json").string());
  ASSERT_TRUE(again.ok()) << again.error().str();
  EXPECT_EQ(serializeDump(*again), text);
}

// A dump saved in another folder than its side file's gets its own copy of the values it uses
// (the reader takes side files only inside a dump's folder); saved beside it, it keeps the name.
TEST_F(ExportedDumpTest, SavedElsewhereADumpCopiesItsValuesBesideIt) {
  std::string bin;
  for (int i = 0; i < 38; ++i) bin += bytesOf(std::vector<float>{static_cast<float>(i)});  // 152 bytes
  write("t.fathom.bin", bin);
  auto dump = loadDump(write("t.fathom.json", kGraph));
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  fs::create_directories(dir_ / "sub");
  const std::string elsewhere = (dir_ / "sub" / "copy.fathom.json").string();
  EXPECT_TRUE(saveCopiesValues(*dump, elsewhere));
  ASSERT_TRUE(saveDump(*dump, elsewhere).ok());
  auto copy = loadDump(elsewhere);
  ASSERT_TRUE(copy.ok()) << copy.error().str();
  const DataFile& x = copy->inputsFor("forward")->at(0).file;
  EXPECT_EQ(x.name, "copy.bin");
  EXPECT_EQ(fs::weakly_canonical(x.path), fs::weakly_canonical(dir_ / "sub" / "copy.bin"));
  // Only the bytes used, each range once: m (3 bytes), x and the output (24 each).
  EXPECT_EQ(fs::file_size(dir_ / "sub" / "copy.bin"), 3u + 24u + 24u);
  auto original = materializeInputs(*dump->inputsFor("forward"));
  auto copied = materializeInputs(*copy->inputsFor("forward"));
  ASSERT_TRUE(original.ok() && copied.ok());
  for (size_t i = 0; i < 2; ++i)
    for (int64_t k = 0; k < (*original)[i].as<Tensor>().numel(); ++k)
      EXPECT_EQ((*copied)[i].as<Tensor>().atLinear(k), (*original)[i].as<Tensor>().atLinear(k));
  auto out = materializeInput(*copy->outputsFor("forward")->at(0));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->atLinear(0), 32.0f);  // the float at byte 128 of t.fathom.bin
  // Saved next to its side file, the reference is the file's own name again (canonical bytes).
  EXPECT_FALSE(saveCopiesValues(*dump, (dir_ / "again.fathom.json").string()));
  ASSERT_TRUE(saveDump(*dump, (dir_ / "again.fathom.json").string()).ok());
  auto again = readFile((dir_ / "again.fathom.json").string());
  ASSERT_TRUE(again.ok());
  EXPECT_NE(again->find(R"J("file":"t.fathom.bin","file_offset":64)J"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "again.bin"));
  // Named for another folder (a dump printed by `show --json`): relative inside it, else absolute.
  rebaseSideFiles(*copy, (dir_ / "sub").string());
  EXPECT_EQ(copy->inputsFor("forward")->at(0).file.name, "copy.bin");
  rebaseSideFiles(*copy, dir_.string());
  EXPECT_EQ(copy->inputsFor("forward")->at(0).file.name, "sub/copy.bin");
  rebaseSideFiles(*copy, (dir_ / "elsewhere").string());
  EXPECT_TRUE(fs::path(copy->inputsFor("forward")->at(0).file.name).is_absolute());
}

TEST_F(ExportedDumpTest, AMissingOrShortSideFileIsALoadErrorNamingIt) {
  const std::string path = write("t.fathom.json", kGraph);
  auto missing = loadDump(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().str().find("/inputs/forward/0/file: side file '" + (dir_ / "t.fathom.bin").string() + "' does not exist"),
            std::string::npos) << missing.error().str();
  write("t.fathom.bin", std::string(100, '\0'));  // enough for the inputs (up to byte 88), not the output (152)
  auto shortFile = loadDump(path);
  ASSERT_FALSE(shortFile.ok());
  EXPECT_NE(shortFile.error().str().find("/outputs/forward/0/file: side file"), std::string::npos) << shortFile.error().str();
  EXPECT_NE(shortFile.error().str().find("has 100 bytes but 'out0' needs 24 from offset 128"), std::string::npos);
}

const char* kOpaque = R"J({"format": "fathom-dump", "version": 1,
 "shape_env": {"symbols": [{"name": "s0", "hint": 4, "range": [2, null], "sources": ["x.size(0)"]}]},
 "graphs": {"forward": {"nodes": [
  {"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": ["s0", 3]}}},
  {"name": "c", "kind": "call", "op": "mylib.fused_thing.default", "args": [{"node": "x"}, [1, 2], {"dtype": "float32"}],
   "meta": {"val": [{"dtype": "float32", "sizes": [3, "s0"], "strides": [1, 3]}, "s0"]}},
  {"name": "c0", "kind": "call", "op": "getitem", "args": [{"node": "c"}, 0]},
  {"name": "r", "kind": "call", "op": "aten.relu.default", "args": [{"node": "c0"}],
   "meta": {"val": {"dtype": "float32", "sizes": [3, "s0"], "strides": [1, 3]}}},
  {"name": "output", "kind": "output", "args": [[{"node": "r"}]]}]}}})J";

TEST_F(ExportedDumpTest, UnknownOpsLoadAsOpaqueNodesOnlyWhenAsked) {
  auto refused = parseDump(kOpaque, "o.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().str().find("unknown op 'mylib.fused_thing.default'; --keep-unknown-ops loads it"), std::string::npos)
      << refused.error().str();
  DumpReadOptions keep;
  keep.keepUnknownOps = true;
  auto dump = parseDump(kOpaque, "o.json", keep);
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  const Graph& g = dump->graphs[0].graph;
  EXPECT_TRUE(g.nodes()[1].opaque);
  EXPECT_EQ(g.nodes()[1].op, nullptr);
  // It writes back as it was read.
  EXPECT_NE(serializeDump(*dump).find(R"J("op":"mylib.fused_thing.default","args":[{"node":"x"},[1,2],{"dtype":"float32"}])J"),
            std::string::npos);

  // Runs as zeros with the recorded layout, its symbolic sizes bound to the real input's.
  auto x = Tensor::fromMeta(fakeTensor(DType::Float32, {5, 3}));
  ASSERT_TRUE(x.ok());
  DebugInterpreter di(g, {});
  auto out = di.run({*x});
  ASSERT_TRUE(out.ok()) << out.error().str();
  const Tensor& r = (*out)[0].as<Tensor>();
  EXPECT_EQ(r.sizes(), (IntList{3, 5}));
  EXPECT_EQ(di.opaqueNodesRun(), std::vector<std::string>{"c"});
  EXPECT_TRUE(di.mismatches().empty());
  ASSERT_EQ(di.skipped().size(), 2u);  // and %c0, the getitem, which records no meta
  EXPECT_EQ(di.skipped()[0], "c (opaque op mylib.fused_thing.default: its value is made from its recorded meta)");

  // Without a recorded value there is nothing to stand in for it: an error naming the op.
  std::string noMeta = kOpaque;
  noMeta.replace(noMeta.find(R"J(,
   "meta": {"val": [)J"), std::string(R"J(,
   "meta": {"val": [{"dtype": "float32", "sizes": [3, "s0"], "strides": [1, 3]}, "s0"]})J").size(), "");
  auto bare = parseDump(noMeta, "o.json", keep);
  ASSERT_TRUE(bare.ok()) << bare.error().str();
  auto failed = Interpreter(bare->graphs[0].graph).run({*x});
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().str().find("'mylib.fused_thing.default' is unknown to this build (kept as an opaque node) and records no value"),
            std::string::npos) << failed.error().str();
}

}  // namespace
}  // namespace fathom
