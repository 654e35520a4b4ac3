// `fathom export --as gtest`: a repro as one standalone GoogleTest file. The graph is rebuilt with
// GraphBuilder (one call per node, the dump's node names kept), the inputs carry their values,
// and the TEST asserts the correct behaviour for the predicate, so it fails while the bug is there:
//   exception, guard, script, torch  the backend runs the graph without an error
//   crash, timeout                   a death test: the run, in a child (alarm(S) for timeout),
//                                    exits normally
//   accuracy                         the accuracy predicate's rule (PyTorch's): per floating
//                                    output, the backend's rmse against eager run on float64
//                                    copies of the inputs is at most twice eager's + tol / 10;
//                                    where that run raises, max |out - eager| is at most
//                                    tol * max |eager| + tol (engine/interp/ValueDiff.h)
//   mismatch                         the debug interpreter over backend->meta(graph) finds no origin
// GraphBuilder records meta from Fathom's meta functions; for `mismatch` the dump's recorded meta
// may be the bug (a PyTorch dump's fake tensors lying), so where the two differ the test pins the
// recorded one (found here by rebuilding the graph the same way the test will).
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "engine/graph/GraphBuilder.h"
#include "minifier/Backends.h"
#include "minifier/Export.h"
#include "minifier/ExportText.h"
#include "minifier/Templates.h"

namespace fathom::minify {
namespace {

const NumberSpelling kCpp{"std::nan(\"\")", "HUGE_VAL"};

const std::set<std::string> kReserved = {
    "alignas", "alignof", "and", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char", "class",
    "compl", "concept", "const", "consteval", "constexpr", "continue", "default", "delete", "do", "double", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public",
    "register", "requires", "return", "short", "signed", "sizeof", "static", "struct", "switch", "template", "this",
    "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
    "volatile", "while", "xor", "b", "g", "in", "layout", "main", "fathom", "std", "testing", "None", "Value",
    "ValueList", "NodeRef", "Graph", "DType", "Device", "Layout", "MemoryFormat", "NAN", "HUGE_VAL", "INT64_MIN"};

std::string dtypeEnumerator(DType t) {
  static const std::map<DType, const char*> names = {
      {DType::Bool, "Bool"},       {DType::UInt8, "UInt8"},       {DType::Int8, "Int8"},         {DType::Int16, "Int16"},
      {DType::Int32, "Int32"},     {DType::Int64, "Int64"},       {DType::Float16, "Float16"},   {DType::BFloat16, "BFloat16"},
      {DType::Float32, "Float32"}, {DType::Float64, "Float64"}};
  return std::string("DType::") + names.at(t);
}

std::string memoryFormatEnumerator(MemoryFormat f) {
  switch (f) {
    case MemoryFormat::Contiguous: return "MemoryFormat::Contiguous";
    case MemoryFormat::ChannelsLast: return "MemoryFormat::ChannelsLast";
    case MemoryFormat::Preserve: return "MemoryFormat::Preserve";
  }
  return "MemoryFormat::Contiguous";
}

std::string intText(int64_t v) {
  if (v == INT64_MIN) return "int64_t{INT64_MIN}";
  if (v >= INT32_MIN && v <= INT32_MAX) return std::to_string(v);
  return "int64_t{" + std::to_string(v) + "}";
}

std::string intListText(const SymIntList& list) {
  std::string out = "{";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + std::to_string(list[i].hint());
  return out + "}";
}

// `layout(DType::Float32, {4, 3}, {3, 1})`: a concrete TensorMeta.
std::string layoutText(const TensorMeta& m) {
  std::string out = "layout(" + dtypeEnumerator(m.dtype) + ", " + intListText(m.sizes) + ", " + intListText(m.strides);
  if (m.storageOffset.hint() != 0) out += ", " + std::to_string(m.storageOffset.hint());
  return out + ")";
}

Result<std::string> listText(const ValueList& l, const std::vector<std::string>& vars);

// The C++ expression for a graph argument (node references by their variable names). Lists
// are spelled Value(ValueList{...}), so one list in braces is never taken for a copy.
Result<std::string> argText(const Value& v, const std::vector<std::string>& vars) {
  if (v.isNone()) return std::string("None{}");
  if (auto* b = v.tryAs<bool>()) return std::string(*b ? "true" : "false");
  if (auto* i = v.tryAs<SymInt>()) return intText(i->hint());
  if (auto* d = v.tryAs<double>()) return numberText(*d, kCpp, true);
  if (auto* s = v.tryAs<std::string>()) return quoted(*s);
  if (auto* t = v.tryAs<DType>()) return dtypeEnumerator(*t);
  if (auto* f = v.tryAs<MemoryFormat>()) return memoryFormatEnumerator(*f);
  if (v.is<Layout>()) return std::string("Layout::Strided");
  if (auto* dev = v.tryAs<Device>()) return "Device{" + quoted(dev->name) + "}";
  if (auto* r = v.tryAs<NodeRef>()) return vars.at(static_cast<size_t>(r->index));
  if (auto* l = v.tryAs<ValueList>()) {
    auto list = listText(*l, vars);
    FATHOM_TRY(list);
    return "Value(" + *list + ")";
  }
  return internalError("a graph argument holds a " + v.kindName() + ", which graphs never store");
}

Result<std::string> listText(const ValueList& l, const std::vector<std::string>& vars) {
  std::string out = "ValueList{";
  for (size_t i = 0; i < l.size(); ++i) {
    auto e = argText(l[i], vars);
    FATHOM_TRY(e);
    out += (i ? ", " : "") + *e;
  }
  return out + "}";
}

// A recorded value (TensorMeta, a list of them, an int) as a C++ expression.
std::string valText(const Value& v) {
  if (auto* m = v.tryAs<TensorMeta>()) return layoutText(*m);
  if (auto* i = v.tryAs<SymInt>()) return "Value(" + intText(i->hint()) + ")";
  if (auto* l = v.tryAs<ValueList>()) {
    std::string out = "Value(ValueList{";
    for (size_t i = 0; i < l->size(); ++i) out += (i ? ", " : "") + valText((*l)[i]);
    return out + "})";
  }
  return "Value()";
}

// Recorded values compare by their printed layout (dtype, sizes, strides, offset) and device.
bool sameVal(const Value& a, const Value& b) {
  auto* ma = a.tryAs<TensorMeta>();
  auto* mb = b.tryAs<TensorMeta>();
  if (ma || mb) return ma && mb && ma->str() == mb->str() && ma->device == mb->device;
  auto* la = a.tryAs<ValueList>();
  auto* lb = b.tryAs<ValueList>();
  if (la || lb) {
    if (!la || !lb || la->size() != lb->size()) return false;
    for (size_t i = 0; i < la->size(); ++i)
      if (!sameVal((*la)[i], (*lb)[i])) return false;
    return true;
  }
  return true;  // ints and the rest are not checked by the debug interpreter's layouts
}

ValueList outputValues(const Node& out) {
  if (out.args.empty()) return {};
  if (auto* l = out.args[0].tryAs<ValueList>()) return *l;
  return {out.args[0]};
}

// The graph as the generated test builds it; stops at the first failing call (the test will
// report that failure itself), so the nodes built so far are returned either way.
Graph rebuilt(const Graph& g) {
  GraphBuilder b;
  for (const Node& n : g.nodes()) {
    if (n.kind == NodeKind::Placeholder) b.input(n.name, n.val.tryAs<TensorMeta>() ? n.val.as<TensorMeta>() : TensorMeta{});
    if (n.kind == NodeKind::Call) b.call(n.target, n.args, n.kwargs, n.name);
    if (n.kind == NodeKind::Output) b.output(outputValues(n));
  }
  auto done = b.finish();
  return done.ok() ? std::move(*done) : b.graph();
}

// pin("t", layout(...)) lines for the call nodes whose recorded meta the test would not record.
std::string pinsText(const Graph& g) {
  const Graph built = rebuilt(g);
  std::string out;
  for (size_t i = 0; i < g.size() && i < built.size(); ++i) {
    const Node& n = g.nodes()[i];
    if (n.kind == NodeKind::Call && !n.val.isNone() && !sameVal(n.val, built.nodes()[i].val))
      out += "  pin(*g, " + quoted(n.name) + ", " + valText(n.val) + ");  // Fathom's meta: " +
             (built.nodes()[i].val.tryAs<TensorMeta>() ? built.nodes()[i].val.as<TensorMeta>().str() : "another value") + "\n";
  }
  if (out.empty()) return out;
  return "  if (!g.ok()) return g;\n  // The dump's recorded meta where Fathom's meta functions give another: the bug may be in it.\n" + out;
}

Result<std::string> graphText(const Graph& g) {
  std::set<std::string> used;
  std::vector<std::string> vars(g.size());
  std::string out = "// The graph, one GraphBuilder call per node (names as in the dump).\nResult<Graph> buildGraph() {\n  GraphBuilder b;\n";
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    if (n.kind == NodeKind::Call && !n.op)
      return invalidInput("op '" + n.target + "' is unknown to this build, so a test cannot rebuild it (export --as pytorch or --as dump instead)",
                          "%" + n.name);
    if (n.kind == NodeKind::Output) {
      auto outs = listText(outputValues(n), vars);
      FATHOM_TRY(outs);
      out += "  b.output(" + *outs + ");\n";
      continue;
    }
    vars[i] = identifierFor(n.name, kReserved, used);
    if (n.kind == NodeKind::Placeholder) {
      if (!n.val.tryAs<TensorMeta>()) return invalidInput("placeholder has no tensor meta, so a test cannot declare it", "%" + n.name);
      out += "  NodeRef " + vars[i] + " = b.input(" + quoted(n.name) + ", " + layoutText(n.val.as<TensorMeta>()) + ");\n";
      continue;
    }
    std::string args, kwargs;
    for (const auto& a : n.args) {
      auto t = argText(a, vars);
      FATHOM_TRY(t);
      args += (args.empty() ? "" : ", ") + *t;
    }
    for (const auto& [k, a] : n.kwargs) {
      auto t = argText(a, vars);
      FATHOM_TRY(t);
      kwargs += (kwargs.empty() ? "{" : ", {") + quoted(k) + ", " + *t + "}";
    }
    out += "  NodeRef " + vars[i] + " = b.call(" + quoted(n.target) + ", {" + args + "}, {" + kwargs + "}, " + quoted(n.name) + ");";
    const Provenance& p = n.provenance;
    if (!p.empty()) out += "  // " + oneLine(p.source + (p.module.empty() ? "" : " (" + p.module + ")"));
    out += "\n";
  }
  return out + "  auto g = b.finish();\n";
}

std::string inputsText(const ReproCase& c, const std::string& sideName) {
  std::string out = "// The example inputs, in placeholder order; values in row-major logical order.\nResult<ValueList> makeInputs() {\n";
  out += "  std::vector<ExampleInput> in(" + std::to_string(c.inputs.size()) + ");\n";
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const ReproInput& in = c.inputs[i];
    const std::string at = "  in[" + std::to_string(i) + "].";
    out += at + "name = " + quoted(in.spec.name) + ";\n" + at + "meta = " + layoutText(in.spec.meta) + ";\n";
    if (in.fileOffset)
      out += at + "file = {" + quoted(sideName) + ", kDataFile, " + std::to_string(*in.fileOffset) + "};\n";
    else
      out += at + "data = {" + valuesText(in.values, !isFloating(in.spec.meta.dtype), kCpp, "      ") + "};\n";
  }
  return out + "  return materializeInputs(in);\n}\n";
}

bool isDeathTest(const ReproProperty& p) { return predicateKindInfo(p.kind).endsTheRun; }

// What the test asserts, in words, for the header and the failure message.
std::string correctBehaviour(const ReproProperty& p) {
  if (p.kind == PredicateKind::Crash) return "the backend's run ends normally, without a signal (run in a child process)";
  if (p.kind == PredicateKind::Timeout) return "the backend's run finishes within " + numberText(p.seconds, kCpp, false) + " s (alarm() in a child process)";
  if (p.kind == PredicateKind::Accuracy)
    return "every floating output passes the accuracy predicate's rule: rmse(backend, float64 run) <= 2 * rmse(eager, float64 run) + "
           "tol / 10 (if the float64 run raises: max |backend - eager| <= tol * max |eager| + tol), tol = " +
           numberText(p.tolerance, kCpp, false);
  if (p.kind == PredicateKind::Mismatch) return "the debug interpreter over the meta the backend records (backend->meta(graph)) finds no origin";
  std::string rule = "the backend runs the graph without an error";
  if (p.kind == PredicateKind::Exception && !p.arg.empty()) rule += " (Fathom saw one matching /" + p.arg + "/)";
  if (p.kind != PredicateKind::Exception) rule += "; the predicate's own property is checked outside this test";
  return rule;
}

std::string gtestHeader(const ReproCase& c, const std::string& outputPath) {
  const std::string file = std::filesystem::path(outputPath).stem().string();
  std::string out = "// Fathom repro: graph '" + oneLine(c.graphName) + "' of " + oneLine(c.source) + " as a standalone GoogleTest,\n" +
                    "// written by `fathom export --as gtest`.\n//\n// Fathom saw: --predicate " + oneLine(c.property.text) +
                    " under backend '" + oneLine(c.backend) + "'";
  for (const auto& [k, v] : c.options) out += ", " + oneLine(k + "=" + v);
  out += ".\n// This test asserts the correct behaviour:\n//   " + oneLine(correctBehaviour(c.property)) +
         "\n// so it FAILS while the bug is there and passes once it is fixed.\n//\n" +
         "// Build it inside Fathom's CMake project (it uses the engine's and the minifier's headers):\n" +
         "//   add_executable(" + file + " " + std::filesystem::path(outputPath).filename().string() + ")\n" +
         "//   target_link_libraries(" + file + " PRIVATE fathom_minifier fathom_engine GTest::gtest_main" +
         (isBuiltinBackend(c.backend) ? ")\n" : " fathom_plugin_host)\n//   set_target_properties(" + file + " PROPERTIES ENABLE_EXPORTS ON)  # the plugin resolves the engine here\n");
  if (!c.sideData.empty())
    out += "// Large inputs are read from kDataFile, written beside this file at export time and named by its\n"
           "// absolute path: move the two together and edit kDataFile.\n";
  out += "#include <gtest/gtest.h>\n\n#include <cmath>\n#include <string>\n#include <vector>\n";
  if (isDeathTest(c.property)) out += "\n#include <unistd.h>\n\n#include <cstdio>\n#include <cstdlib>\n";
  else if (!isBuiltinBackend(c.backend)) out += "#include <cstdlib>\n";  // getenv: the plugin's path
  out += "\n#include \"engine/graph/GraphBuilder.h\"\n";
  if (c.property.kind == PredicateKind::Mismatch) out += "#include \"engine/interp/DebugInterpreter.h\"\n";
  out += "#include \"engine/interp/ExampleInputs.h\"\n";
  if (c.property.kind == PredicateKind::Accuracy) out += "#include \"engine/interp/ValueDiff.h\"\n";
  out += "#include \"minifier/Backends.h\"\n";
  if (!isBuiltinBackend(c.backend)) out += "#include \"plugins/host/PluginHost.h\"\n";
  return out + "\nnamespace {\n\nusing namespace fathom;\n\n";
}

std::string gtestHelpers(const ReproCase& c, const std::string& dataFile, bool pins) {
  std::string out = "const char* const kBackend = " + quoted(c.backend) + ";\n";
  if (!dataFile.empty()) out += "const char* const kDataFile = " + quoted(dataFile) + ";\n";
  if (c.property.kind == PredicateKind::Accuracy) out += "const double kTolerance = " + numberText(c.property.tolerance, kCpp, true) + ";\n";
  out += "\n" + std::string(templates::kGtestLayout);
  if (pins) out += templates::kGtestPin;
  if (c.property.kind == PredicateKind::Accuracy) out += templates::kGtestAccuracy;
  return out;
}

// The TEST's name: the correct behaviour it asserts.
const char* testName(PredicateKind kind) {
  switch (kind) {
    case PredicateKind::Crash: return "RunEndsNormally";
    case PredicateKind::Timeout: return "RunFinishesInTime";
    case PredicateKind::Accuracy: return "OutputsMatchEager";
    case PredicateKind::Mismatch: return "RecordedMetaMatchesRealRun";
    default: return "RunsWithoutError";  // exception, and the kinds checked outside the test
  }
}

// The TEST: set-up shared by every property, then the property's own assertions.
std::string gtestTest(const ReproCase& c) {
  const PredicateKind kind = c.property.kind;
  const std::string name = testName(kind);
  std::string out = isDeathTest(c.property) ? templates::kGtestChild : "";
  out += "// " + oneLine(correctBehaviour(c.property)) + ".\nTEST(FathomRepro, " + name + ") {\n" +
         (isBuiltinBackend(c.backend) ? std::string()
                                      : "  // kBackend is a plugin's: FATHOM_PLUGIN_PATH names the plugin (its .so, or a folder of them).\n"
                                        "  if (!minify::findBackend(kBackend)) plugin::loadPlugins({}, std::getenv(\"FATHOM_PLUGIN_PATH\"));\n") +
         "  const minify::Backend* backend = minify::findBackend(kBackend);\n" +
         "  ASSERT_NE(backend, nullptr) << \"this build has no backend \" << kBackend << \" (a plugin's: set FATHOM_PLUGIN_PATH)\";\n" +
         "  auto graph = buildGraph();\n  ASSERT_TRUE(graph.ok()) << graph.error().str();\n";
  if (isDeathTest(c.property)) {
    const auto seconds = kind == PredicateKind::Timeout ? std::to_string(static_cast<unsigned>(std::ceil(c.property.seconds))) : "0";
    return out + "  GTEST_FLAG_SET(death_test_style, \"threadsafe\");  // the child re-executes: safe with BLAS threads\n" +
           "  EXPECT_EXIT(runToTheEnd(*backend, *graph, " + seconds + "), ::testing::ExitedWithCode(0), \"\")\n" +
           "      << \"" + (kind == PredicateKind::Crash ? "the backend's run crashed" : "the backend's run did not finish in time") + "\";\n}\n";
  }
  out += "  auto inputs = makeInputs();\n  ASSERT_TRUE(inputs.ok()) << inputs.error().str();\n";
  if (kind == PredicateKind::Accuracy)
    return out + "  const std::string note = nonFiniteNote(*inputs);\n" +
           "  auto wideInputs = toFloat64(*inputs);\n  ASSERT_TRUE(wideInputs.ok()) << wideInputs.error().str();\n" +
           "  auto out = backend->run(*graph, std::move(*inputs));\n" +
           "  ASSERT_TRUE(out.ok()) << \"the backend raised: \" << out.error().str();\n" +
           "  auto again = makeInputs();  // fresh tensors: an in-place op may have changed the first ones\n" +
           "  ASSERT_TRUE(again.ok()) << again.error().str();\n" +
           "  const minify::Backend* eager = minify::findBackend(\"eager\");\n" +
           "  auto ref = eager->run(*graph, std::move(*again));\n" +
           "  ASSERT_TRUE(ref.ok()) << \"the eager reference raised: \" << ref.error().str();\n" +
           "  auto wide = eager->run(*graph, std::move(*wideInputs));  // when it raises: against eager alone\n" +
           "  const ValueList got = flattened(*out), want = flattened(*ref), want64 = wide.ok() ? flattened(*wide) : ValueList{};\n" +
           "  const std::string why = wide.ok() ? note : note + \" (the float64 run raised: \" + wide.error().str() + \")\";\n" +
           "  for (size_t i = 0; i < got.size() && i < want.size(); ++i)\n" +
           "    expectAccurate(got[i], want[i], i < want64.size() ? &want64[i] : nullptr, \"output \" + std::to_string(i), why);\n}\n";
  if (kind == PredicateKind::Mismatch)
    return out + "  const Graph recorded = backend->meta(*graph);\n  DebugInterpreter check(recorded);\n" +
           "  auto run = check.run(std::move(*inputs));\n  ASSERT_TRUE(run.ok()) << run.error().str();\n" +
           "  std::string origins;\n  for (const Mismatch& m : check.mismatches())\n" +
           "    if (m.origin) origins += \"\\n  %\" + m.node + \" = \" + m.op + \": \" + m.field + \" recorded \" + m.expected + \", real \" + m.actual;\n" +
           "  EXPECT_TRUE(origins.empty()) << \"the meta the backend records disagrees with the real run:\" << origins;\n}\n";
  return out + "  auto out = backend->run(*graph, std::move(*inputs));\n" +
         "  EXPECT_TRUE(out.ok()) << \"the backend raised: \" << out.error().str();\n}\n";
}

}  // namespace

Result<ExportedFile> gtestSource(const ReproCase& c, const std::string& outputPath) {
  auto graph = graphText(c.graph);
  if (!graph.ok()) return graph.error().within(c.source);
  const std::string pins = c.property.kind == PredicateKind::Mismatch ? pinsText(c.graph) : "";
  const std::string sideName = std::filesystem::path(sideFilePath(outputPath)).filename().string();
  const std::string dataFile = c.sideData.empty() ? "" : std::filesystem::absolute(sideFilePath(outputPath)).string();
  ExportedFile f;
  f.text = gtestHeader(c, outputPath) + gtestHelpers(c, dataFile, !pins.empty()) + *graph + pins + "  return g;\n}\n\n" + inputsText(c, sideName) +
           "\n" + gtestTest(c) + "\n}  // namespace\n";
  f.data = c.sideData;
  return f;
}

}  // namespace fathom::minify
