// Dumps round-trip exactly: serialize(parse(serialize(d))) == serialize(d), and the parsed graph
// prints the same as the original.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "engine/dump/Dump.h"
#include "engine/graph/GraphPrinter.h"
#include "engine/interp/ExampleInputs.h"
#include "tests/engine/TestGraphs.h"

namespace fathom {
namespace {

Dump tinyDump() {
  Dump d;
  d.producer = {{"tool", "fathom-test"}};
  Graph g = testing::tinyLinearGraph();
  auto inputs = inputsFromPlaceholders(g, 7);
  EXPECT_TRUE(inputs.ok());
  d.graphs.push_back({"forward", std::move(g)});
  d.inputs.emplace_back("forward", std::move(*inputs));
  return d;
}

TEST(DumpRoundTripTest, SerializeParseSerializeIsStable) {
  Dump d = tinyDump();
  std::string text = serializeDump(d);
  auto back = parseDump(text, "mem");
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(serializeDump(*back), text);
  EXPECT_EQ(printGraph(back->graphs[0].graph), printGraph(d.graphs[0].graph));
  EXPECT_EQ(back->producer, d.producer);
  ASSERT_NE(back->inputsFor("forward"), nullptr);
  EXPECT_EQ(*back->inputsFor("forward")->at(1).seed, 8u);
}

TEST(DumpRoundTripTest, AReproSectionSurvives) {
  Dump d = tinyDump();
  d.repro = ReproSpec{"forward", "crash:SIGSEGV", "faulty-crash", {{"jobs", "2"}}};
  const std::string text = serializeDump(d);
  auto back = parseDump(text, "mem");
  ASSERT_TRUE(back.ok()) << back.error().str();
  ASSERT_TRUE(back->repro.has_value());
  EXPECT_EQ(back->repro->graph, "forward");
  EXPECT_EQ(back->repro->predicate, "crash:SIGSEGV");
  EXPECT_EQ(back->repro->backend, "faulty-crash");
  EXPECT_EQ(back->repro->options, d.repro->options);
  EXPECT_EQ(serializeDump(*back), text);
}

TEST(DumpRoundTripTest, ArgumentKindsSurvive) {
  // Every constant kind a node argument can hold, through the dump and back.
  const char* text = R"({"format": "fathom-dump", "version": 1, "graphs": {"g": {"nodes": [
    {"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [2], "strides": [1], "offset": 0}}},
    {"name": "y", "kind": "call", "op": "getitem", "args": [[{"node": "x"}, 1, 2.5, true, null, "s", {"dtype": "int64"},
      {"memory_format": "channels_last"}, {"layout": "strided"}, {"device": "cpu"}, {"float": "-inf"}, [1, [2]]], 0]},
    {"name": "output", "kind": "output", "args": [[{"node": "y"}]]}]}}})";
  auto d = parseDump(text, "mem");
  ASSERT_TRUE(d.ok()) << d.error().str();
  const Node& y = d->graphs[0].graph.nodes()[1];
  const auto& list = y.args[0].as<ValueList>();
  EXPECT_TRUE(list[0].is<NodeRef>());
  EXPECT_EQ(list[1].as<SymInt>().hint(), 1);
  EXPECT_EQ(list[2].as<double>(), 2.5);
  EXPECT_TRUE(list[3].as<bool>());
  EXPECT_TRUE(list[4].isNone());
  EXPECT_EQ(list[6].as<DType>(), DType::Int64);
  EXPECT_EQ(list[7].as<MemoryFormat>(), MemoryFormat::ChannelsLast);
  EXPECT_TRUE(std::isinf(list[10].as<double>()));
  auto again = parseDump(serializeDump(*d), "mem2");
  ASSERT_TRUE(again.ok()) << again.error().str();
  EXPECT_EQ(serializeDump(*again), serializeDump(*d));
}

TEST(DumpRoundTripTest, SaveIsAtomicAndLoadReadsIt) {
  auto dir = std::filesystem::temp_directory_path() / ("fathom-dump-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "tiny.fathom.json").string();
  ASSERT_TRUE(saveDump(tinyDump(), path).ok());
  auto loaded = loadDump(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().str();
  EXPECT_EQ(loaded->graphs.size(), 1u);
  size_t files = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u) << "no temporary file may be left behind";
  std::filesystem::remove_all(dir);
}

TEST(DumpRoundTripTest, InputsFileRoundTrip) {
  ExampleInput in;
  in.name = "x";
  in.meta = fakeTensor(DType::Float64, {2, 2});
  in.data = {1, 2, 3, 4.5};
  auto dir = std::filesystem::temp_directory_path() / ("fathom-inputs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "inputs.json").string();
  ASSERT_TRUE(writeFileAtomically(path, serializeInputs({in})).ok());
  auto back = loadInputsFile(path);
  ASSERT_TRUE(back.ok()) << back.error().str();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0].data, in.data);
  auto tensors = materializeInputs(*back);
  ASSERT_TRUE(tensors.ok());
  EXPECT_EQ((*tensors)[0].as<Tensor>().at({1, 1}), 4.5);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fathom
