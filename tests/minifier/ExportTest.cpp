// fathom export's library (minifier/Export.h): the generated GoogleTest and PyTorch texts hold
// the expected calls, values and checks; large inputs go to the side file; bad requests are
// refused with errors naming what is wrong. (That the exported gtest compiles and fails, and the
// script runs under python3, is checked end to end: tests/CMakeLists.txt, tests/app/export_test.sh.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"
#include "minifier/Export.h"
#include "tests/TestDataDir.h"

namespace fathom::minify {
namespace {

std::string fixture(const std::string& name) { return (std::filesystem::path(FATHOM_TEST_DATA_DIR) / "tests/data" / name).string(); }

Dump loaded(const std::string& name) {
  auto d = loadDump(fixture(name));
  EXPECT_TRUE(d.ok()) << d.error().str();
  return std::move(*d);
}

ReproCase prepared(const Dump& dump, ExportOptions options = {}) {
  auto r = prepareRepro(dump, options);
  EXPECT_TRUE(r.ok()) << r.error().str();
  return std::move(*r);
}

std::string gtestText(const ReproCase& c) {
  auto f = gtestSource(c, "/tmp/repro_test.cpp");
  EXPECT_TRUE(f.ok()) << f.error().str();
  return f.ok() ? f->text : "";
}

std::string scriptText(const ReproCase& c) {
  auto f = pytorchScript(c, "/tmp/repro.py");
  EXPECT_TRUE(f.ok()) << f.error().str();
  return f.ok() ? f->text : "";
}

void expectHas(const std::string& text, const std::string& piece) {
  EXPECT_NE(text.find(piece), std::string::npos) << "missing: " << piece << "\nin:\n" << text.substr(0, 6000);
}

// Options asking for this predicate and backend (empty: the dump's).
ExportOptions ask(std::string predicate, std::string backend = {}) {
  ExportOptions o;
  o.predicate = std::move(predicate);
  o.backend = std::move(backend);
  o.source = "d.json";
  return o;
}

// The error text of a failed prepareRepro.
std::string refusal(const Dump& dump, ExportOptions options) {
  auto r = prepareRepro(dump, options);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().str();
}

// A graph from GraphBuilder with seeded inputs, as a one-graph dump.
Dump dumpOf(GraphBuilder& b) {
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().str();
  Dump d;
  d.graphs.push_back({"forward", std::move(*g)});
  d.inputs.push_back({"forward", *inputsFromPlaceholders(d.graphs[0].graph, 1)});
  return d;
}

// The repro section's predicate and backend pick the check: accuracy against eager.
TEST(ExportTest, GtestRebuildsEveryNodeAndAssertsTheReprosProperty) {
  const std::string text = gtestText(prepared(loaded("repro-linear-relu.fathom.json")));
  expectHas(text, "Fathom saw: --predicate accuracy under backend 'faulty-miscompile'");
  expectHas(text, R"(NodeRef x = b.input("x", layout(DType::Float32, {4, 3}, {1, 4}));)");
  expectHas(text, R"(NodeRef b_ = b.input("b", layout(DType::Float32, {5}, {1}));)");  // `b` is the builder
  expectHas(text, R"(NodeRef addmm = b.call("aten.addmm.default", {b_, x, t}, {{"alpha", 1.0}}, "addmm");  // model.py:7 (fc))");
  expectHas(text, R"(b.call("aten.view.default", {relu, Value(ValueList{20})}, {}, "view"))");
  expectHas(text, "b.output(ValueList{view});");
  expectHas(text, "in[0].data = {1, -2, 3, 0.5, 2, -1, -3, 1.5, 2.5, 4, 0.25, -0.75};");
  expectHas(text, "const char* const kBackend = \"faulty-miscompile\";");
  expectHas(text, "const double kTolerance = 0.001;");
  expectHas(text, "TEST(FathomRepro, OutputsMatchEager)");
  // The accuracy predicate's rule: backend, eager and eager on float64 copies of the inputs.
  expectHas(text, "auto wide = eager->run(*graph, std::move(*wideInputs));");
  expectHas(text, "allowed = 2 * eagerError + kTolerance / 10;");
  expectHas(text, "const ValueDiff d = diffValues(got, eager, kTolerance, kTolerance);");
  // faulty-miscompile is a plugin's backend: the test loads it from FATHOM_PLUGIN_PATH.
  expectHas(text, "target_link_libraries(repro_test PRIVATE fathom_minifier fathom_engine GTest::gtest_main fathom_plugin_host)");
  expectHas(text, "if (!minify::findBackend(kBackend)) plugin::loadPlugins({}, std::getenv(\"FATHOM_PLUGIN_PATH\"));");
}

// Seeds are Fathom's generator, not PyTorch's: a seeded input is exported as its drawn values.
TEST(ExportTest, SeededInputsAreExportedAsTheirValues) {
  const Dump dump = loaded("repro-linear-relu.fathom.json");
  const ReproCase c = prepared(dump);
  auto drawn = materializeInput(dump.inputs[0].second[2]);
  ASSERT_TRUE(drawn.ok());
  ASSERT_EQ(c.inputs[2].values.size(), 5u);
  for (int64_t k = 0; k < 5; ++k) EXPECT_EQ(c.inputs[2].values[k], drawn->atLinear(k));
  EXPECT_FALSE(c.inputs[2].spec.seed);
}

// Each predicate asserts its own correct behaviour.
TEST(ExportTest, GtestAssertionFollowsThePredicate) {
  const Dump dump = loaded("repro-linear-relu.fathom.json");
  std::string text = gtestText(prepared(dump, ask("mismatch", "faulty-meta")));
  expectHas(text, "const Graph recorded = backend->meta(*graph);");
  expectHas(text, "TEST(FathomRepro, RecordedMetaMatchesRealRun)");
  text = gtestText(prepared(dump, ask("timeout:2.5", "faulty-hang")));
  expectHas(text, "EXPECT_EXIT(runToTheEnd(*backend, *graph, 3), ::testing::ExitedWithCode(0), \"\")");
  expectHas(text, "#include <unistd.h>");
  text = gtestText(prepared(dump, ask("exception:shape.*invalid")));
  expectHas(text, "TEST(FathomRepro, RunsWithoutError)");
  expectHas(text, "(Fathom saw one matching /shape.*invalid/)");
  text = gtestText(prepared(dump, ask("script:./check.sh")));
  expectHas(text, "the predicate's own property is checked outside this test");
}

// Recorded meta that Fathom's meta functions would not reproduce (PyTorch's fake tensors lying)
// is pinned, so the exported mismatch test still sees the lie.
TEST(ExportTest, MismatchTestPinsRecordedMetaThatFathomWouldNotRecord) {
  const std::string text = gtestText(prepared(loaded("torch-fake-meta-lies.fathom.json"), ask("mismatch")));
  expectHas(text, R"(pin(*g, "getitem", layout(DType::Float32, {6, 4}, {1, 6}));  // Fathom's meta: f32[6, 4] [4, 1])");
  expectHas(text, R"(pin(*g, "where", layout(DType::Float32, {4, 3}, {3, 1}));)");
  expectHas(text, R"(b.call("getitem", {native_layer_norm, 0}, {}, "getitem"))");
  expectHas(text, R"({t, Value(ValueList{4}), None{}, None{}, 1e-05})");
}

TEST(ExportTest, ScriptCallsTorchOpsWithTheDumpsArguments) {
  const std::string text = scriptText(prepared(loaded("repro-linear-relu.fathom.json")));
  expectHas(text, "def graph(call, x, w, b):");
  expectHas(text, R"(addmm = call("addmm", "aten.addmm.default", b, x, t, alpha=1.0)  # model.py:7 (fc))");
  expectHas(text, R"(view = call("view", "aten.view.default", relu, [20]))");
  expectHas(text, "    return [view]");
  expectHas(text, R"(OPS = ["aten.addmm.default", "aten.relu.default", "aten.t.default", "aten.view.default"])");
  expectHas(text, "strided([1, -2, 3, 0.5, 2, -1, -3, 1.5, 2.5, 4, 0.25, -0.75], torch.float32, [4, 3], [1, 4], 0),  # %x");
  expectHas(text, "DEFAULT_CHECK = \"accuracy\"\nDEFAULT_TOL = 0.001\n");
  expectHas(text, "DATA_FILE = None");
  expectHas(text, "def check_meta(ops, args):");  // the runtime follows
  expectHas(text, "allowed = 2 * rounding + args.tol / 10");  // the accuracy predicate's rule, eager rounded
}

// The script's default check is the PyTorch analogue of the predicate.
TEST(ExportTest, ScriptDefaultCheckFollowsThePredicate) {
  const Dump dump = loaded("repro-linear-relu.fathom.json");
  const std::pair<const char*, const char*> cases[] = {
      {"mismatch", "DEFAULT_CHECK = \"meta\""},        {"torch:meta", "DEFAULT_CHECK = \"meta\""},
      {"torch", "DEFAULT_CHECK = \"exception\""},      {"crash", "DEFAULT_CHECK = \"crash\""},
      {"timeout:5", "DEFAULT_SECONDS = 5.0"},          {"accuracy:0.05", "DEFAULT_TOL = 0.05"},
      {"guard", "DEFAULT_CHECK = \"exception\""},      {"exception:boom", "DEFAULT_CHECK = \"exception\""}};
  for (const auto& [predicate, expected] : cases) {
    SCOPED_TRACE(predicate);
    expectHas(scriptText(prepared(dump, ask(predicate))), expected);
  }
}

// Inputs over the limit go to PATH.bin, raw and row-major; the generated code reads them there.
TEST(ExportTest, LargeInputsGoToTheSideFile) {
  const Dump dump = loaded("repro-linear-relu.fathom.json");
  ExportOptions small;
  small.inlineLimit = 12;  // x (12 elements) stays inline, w (15) goes to the file, b (5) stays
  const ReproCase c = prepared(dump, small);
  EXPECT_TRUE(c.inputs[0].values.size() == 12 && !c.inputs[0].fileOffset);
  ASSERT_TRUE(c.inputs[1].fileOffset);
  EXPECT_EQ(*c.inputs[1].fileOffset, 0u);
  EXPECT_FALSE(c.inputs[2].fileOffset);
  ASSERT_EQ(c.sideData.size(), 15 * sizeof(float));
  float w[15];
  std::memcpy(w, c.sideData.data(), sizeof w);
  EXPECT_EQ(w[2], 2.0f);
  EXPECT_EQ(w[12], 0.1f);
  auto g = gtestSource(c, "out/repro_test.cpp");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->data, c.sideData);
  expectHas(g->text, "in[1].file = {\"repro_test.cpp.bin\", kDataFile, 0};");
  expectHas(g->text, "const char* const kDataFile = \"" + std::filesystem::absolute("out/repro_test.cpp.bin").string() + "\";");
  auto s = pytorchScript(c, "out/repro.py");
  ASSERT_TRUE(s.ok());
  expectHas(s->text, "DATA_FILE = \"repro.py.bin\"");
  expectHas(s->text, "from_file(0, torch.float32, [5, 3], [3, 1], 0),  # %w");
}

// Symbolic sizes and arguments are exported at their hints; an op this build does not know
// cannot be rebuilt in a test, but PyTorch may know it.
TEST(ExportTest, SymbolicAndOpaqueGraphs) {
  const char* text = R"J({"format": "fathom-dump", "version": 1,
   "shape_env": {"symbols": [{"name": "s0", "hint": 4, "range": [2, null], "sources": ["x.size(0)"]}]},
   "graphs": {"forward": {"nodes": [
    {"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": ["s0", 3]}}},
    {"name": "c", "kind": "call", "op": "mylib.fused_thing.default", "args": [{"node": "x"}, [{"sym": "2*s0"}, 2], {"dtype": "float32"}],
     "meta": {"val": {"dtype": "float32", "sizes": [3, "s0"], "strides": [1, 3]}}},
    {"name": "output", "kind": "output", "args": [[{"node": "c"}]]}]}}})J";
  DumpReadOptions keep;
  keep.keepUnknownOps = true;
  auto dump = parseDump(text, "opaque.json", keep);
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  ExportOptions options;
  options.source = "opaque.json";
  const ReproCase c = prepared(*dump, options);
  EXPECT_EQ(c.inputs[0].spec.meta.str(), "f32[4, 3] [3, 1]");
  const std::string script = scriptText(c);
  expectHas(script, R"(c = call("c", "mylib.fused_thing.default", x, [8, 2], torch.float32))");
  auto g = gtestSource(c, "t.cpp");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().str(),
            "opaque.json: %c: op 'mylib.fused_thing.default' is unknown to this build, so a test cannot rebuild it (export --as "
            "pytorch or --as dump instead)");
}

// Names that are keywords or the generated code's own, and non-finite constants, stay valid.
TEST(ExportTest, KeywordNamesAndNonFiniteConstants) {
  GraphBuilder b;
  NodeRef x = b.input("int", fakeTensor(DType::Float32, {2}));
  NodeRef y = b.call("aten.add.Scalar", {x, std::nan("")}, {}, "lambda");
  NodeRef z = b.call("aten.add.Scalar", {y, -HUGE_VAL}, {}, "1st");
  b.output({z});
  const ReproCase c = prepared(dumpOf(b));
  const std::string cpp = gtestText(c);
  expectHas(cpp, R"(NodeRef int_ = b.input("int", )");
  expectHas(cpp, R"(NodeRef lambda = b.call("aten.add.Scalar", {int_, std::nan("")}, {}, "lambda");)");
  expectHas(cpp, R"(NodeRef n1st = b.call("aten.add.Scalar", {lambda, -HUGE_VAL}, {}, "1st");)");
  const std::string py = scriptText(c);
  expectHas(py, "def graph(call, int):");
  expectHas(py, R"(lambda_ = call("lambda", "aten.add.Scalar", int, nan))");
  expectHas(py, R"(n1st = call("1st", "aten.add.Scalar", lambda_, -inf))");
}

TEST(ExportTest, BadRequestsAreRefusedWithWhatIsWrong) {
  const Dump dump = loaded("repro-linear-relu.fathom.json");
  EXPECT_EQ(refusal(dump, ask("", "tvm")),
            "d.json: unknown backend 'tvm' (expected one of eager, jit, jit-unchecked, faulty-miscompile, faulty-crash, faulty-hang, faulty-meta)");
  ExportOptions backward = ask("");
  backward.graph = "backward";
  EXPECT_EQ(refusal(dump, backward), "d.json: the dump has no graph named 'backward' (it has 'forward')");
  EXPECT_NE(refusal(dump, ask("segfault")).find("--predicate must be exception[:REGEX], crash[:SIGNAL]"),
            std::string::npos);
  EXPECT_NE(refusal(dump, ask("timeout")).find("needs a positive number of seconds"), std::string::npos);
  EXPECT_NE(refusal(dump, ask("accuracy:-1")).find("needs a positive tolerance"), std::string::npos);
  EXPECT_NE(refusal(dump, ask("exception:((")).find("is not a regular expression"), std::string::npos);
  EXPECT_NE(refusal(dump, ask("torch:speed")).find("torch:KIND takes exception, meta or meta:OP"), std::string::npos);
  EXPECT_NE(refusal(dump, ask("crash:now")).find("'now' is not a signal"), std::string::npos);
  // What `fathom minify` writes into a repro exports as it is (a regression: these were refused).
  for (const char* resolved : {"crash:SIGSEGV", "mismatch:aten.t.default", "torch:meta:aten.native_layer_norm.default"})
    EXPECT_TRUE(parseReproProperty(resolved).ok()) << resolved;
}

// The input is never overwritten; an existing output only with force.
TEST(ExportTest, WriteExportRefusesToOverwrite) {
  const auto dir = std::filesystem::temp_directory_path() / ("fathom-export-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const Dump dump = loaded("repro-linear-relu.fathom.json");
  const std::string out = (dir / "repro.py").string();
  ExportOptions options;
  options.source = fixture("repro-linear-relu.fathom.json");
  auto first = writeExport(dump, ExportForm::PyTorch, out, options);
  ASSERT_TRUE(first.ok()) << first.error().str();
  EXPECT_EQ(first->files, std::vector<std::string>{out});
  EXPECT_EQ(first->nodes, 8u);
  auto again = writeExport(dump, ExportForm::PyTorch, out, options);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().str(), out + ": already exists; pass --force to overwrite it");
  options.force = true;
  EXPECT_TRUE(writeExport(dump, ExportForm::PyTorch, out, options).ok());
  auto self = writeExport(dump, ExportForm::Dump, options.source, options);
  ASSERT_FALSE(self.ok());
  EXPECT_NE(self.error().str().find("is the dump being exported; the input is never overwritten"), std::string::npos);
  // The dump form carries the repro it was exported with.
  const std::string dumpOut = (dir / "repro.fathom.json").string();
  ASSERT_TRUE(writeExport(dump, ExportForm::Dump, dumpOut, ask("crash", "faulty-crash")).ok());
  auto back = loadDump(dumpOut);
  ASSERT_TRUE(back.ok()) << back.error().str();
  ASSERT_TRUE(back->repro);
  EXPECT_EQ(back->repro->predicate, "crash");
  EXPECT_EQ(back->repro->backend, "faulty-crash");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fathom::minify
