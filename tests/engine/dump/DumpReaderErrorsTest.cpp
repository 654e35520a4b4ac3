// Every problem in a dump is reported as one line: the file, the JSON pointer (and node), and
// what is wrong. Each case is a minimal document with exactly one problem.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dump/Dump.h"

namespace fathom {
namespace {

std::string wrapNodes(const std::string& nodes) {
  return R"({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [)" + nodes + "]}}}";
}

const std::string kX = R"({"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [2, 3]}}})";
const std::string kOut = R"({"name": "output", "kind": "output", "args": [[{"node": "x"}]]})";

std::string errorOf(const std::string& text) {
  auto d = parseDump(text, "f.json");
  return d.ok() ? "ok" : d.error().str();
}

struct ErrorCase {
  const char* what;
  std::string text;
  std::string expected;
};

TEST(DumpReaderErrorsTest, EachProblemHasOneClearLine) {
  const ErrorCase cases[] = {
      {"valid", wrapNodes(kX + "," + kOut), "ok"},
      {"empty", "", "f.json: line 1, column 1: unexpected end of file (truncated JSON?): syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"},
      {"truncated", wrapNodes(kX).substr(0, 60), "f.json: line 1, column 61: unexpected end of file (truncated JSON?): syntax error while parsing object separator - unexpected end of input; expected ':'"},
      {"not an object", "[1, 2]", "f.json: /: expected an object but found an array"},
      {"wrong format", R"({"format": "onnx", "version": 1, "graphs": {}})", "f.json: /format: expected \"fathom-dump\" but found \"onnx\""},
      {"wrong version", R"({"format": "fathom-dump", "version": 99, "graphs": {}})", "f.json: /version: unsupported version 99 (this build reads version 1)"},
      {"missing graphs", R"({"format": "fathom-dump", "version": 1})", "f.json: /: missing required key 'graphs'"},
      {"unknown key", R"({"format": "fathom-dump", "version": 1, "graphs": {}, "grpahs": 1})", "f.json: /grpahs: unknown key 'grpahs' (expected one of: format, version, producer, shape_env, graphs, inputs, outputs, partition, repro)"},
      {"repro of a missing graph", wrapNodes(kX + "," + kOut).insert(1, R"("repro": {"graph": "backward", "predicate": "crash"}, )"),
       "f.json: /repro/graph: names graph 'backward', which the dump does not have"},
      {"repro without a predicate", wrapNodes(kX + "," + kOut).insert(1, R"("repro": {"graph": "forward", "predicate": ""}, )"),
       "f.json: /repro/predicate: is empty"},
      {"repro option not a string", wrapNodes(kX + "," + kOut).insert(1, R"("repro": {"graph": "forward", "predicate": "crash", "options": {"j": 2}}, )"),
       "f.json: /repro/options/j: expected a string"},
      {"unknown op", wrapNodes(kX + R"(, {"name": "a", "kind": "call", "op": "aten.ad.Tensor", "args": [{"node": "x"}, {"node": "x"}]}, )" + kOut),
       "f.json: /graphs/forward/nodes/1/op: unknown op 'aten.ad.Tensor' (did you mean aten.add.Tensor"},
      {"dangling", wrapNodes(kX + R"(, {"name": "r", "kind": "call", "op": "aten.relu.default", "args": [{"node": "ghost"}]}, )" + kOut),
       "f.json: /graphs/forward/nodes/1/args/0/node: refers to node 'ghost', which does not exist in this graph"},
      {"negative size", wrapNodes(R"({"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [2, -3]}}}, )" + kOut),
       "f.json: /graphs/forward/nodes/0/meta/val/sizes/1: size must not be negative, got -3"},
      {"numel overflow", wrapNodes(R"({"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [4294967296, 4294967296, 4]}}}, )" + kOut),
       "f.json: /graphs/forward/nodes/0/meta/val: number of elements overflows 64 bits"},
      {"int64 range", wrapNodes(R"({"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [18446744073709551615]}}}, )" + kOut),
       "f.json: /graphs/forward/nodes/0/meta/val/sizes/0: integer does not fit in 64 bits"},
      {"bad dtype", wrapNodes(R"({"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float128", "sizes": [2]}}}, )" + kOut),
       "f.json: /graphs/forward/nodes/0/meta/val/dtype: unknown dtype 'float128'"},
      {"duplicate", wrapNodes(kX + "," + kX + "," + kOut), "f.json: /graphs/forward/nodes/1/name: duplicate node name 'x' (first at /graphs/forward/nodes/0)"},
      {"wrong arity", wrapNodes(kX + R"(, {"name": "r", "kind": "call", "op": "aten.relu.default", "args": [{"node": "x"}, 1]}, )" + kOut),
       "f.json: /graphs/forward/nodes/1 (%r): aten.relu.default takes 1 positional arguments but 2 were given"},
      {"cycle", wrapNodes(kX + R"(, {"name": "a", "kind": "call", "op": "aten.relu.default", "args": [{"node": "b"}]}, {"name": "b", "kind": "call", "op": "aten.relu.default", "args": [{"node": "a"}]}, )" + kOut),
       "f.json: /graphs/forward/nodes/1 (%a): input %b used before its definition (cycle: %a -> %b -> %a)"},
      {"non-UTF-8", wrapNodes(R"({"name": "x)" "\xff\xfe" R"(", "kind": "placeholder"}, )" + kOut),
       "f.json: line 1, column 85: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"x?'"},
  };
  for (const auto& c : cases) {
    std::string err = errorOf(c.text);
    EXPECT_TRUE(err.starts_with(c.expected)) << c.what << "\n  got:      " << err << "\n  expected: " << c.expected;
    EXPECT_EQ(err.find('\n'), std::string::npos) << c.what << ": one line";
  }
}

TEST(DumpReaderErrorsTest, DeepNestingIsRefusedBeforeParsing) {
  std::string deep(100000, '[');
  std::string err = errorOf(deep);
  EXPECT_EQ(err, "f.json: line 1, column 65: JSON nested deeper than 64 levels");
}

TEST(DumpReaderErrorsTest, InputsMustMatchPlaceholders) {
  std::string text = R"({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [)" + kX + "," + kOut +
                     R"(]}}, "inputs": {"forward": [{"name": "x", "dtype": "int64", "sizes": [2, 3], "seed": 1}]}})";
  EXPECT_EQ(errorOf(text), "f.json: /inputs/forward/0/dtype: input dtype int64 does not match %x (float32)");
  std::string none = R"({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [)" + kX + "," + kOut +
                     R"(]}}, "inputs": {"forward": []}})";
  EXPECT_EQ(errorOf(none), "f.json: /inputs/forward: has 0 inputs but the graph has 1 placeholders");
  std::string data = R"({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [)" + kX + "," + kOut +
                     R"(]}}, "inputs": {"forward": [{"name": "x", "dtype": "float32", "sizes": [2, 3], "data": [1, 2]}]}})";
  EXPECT_EQ(errorOf(data), "f.json: /inputs/forward/0/data: has 2 values but the sizes need 6");
  // Recorded values of another dtype than the trace declared: what PyTorch really ran with
  // (its fake tensor lied); the dump loads and `fathom check` reports the placeholder.
  std::string recorded = R"({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [)" + kX + "," + kOut +
                         R"(]}}, "inputs": {"forward": [{"name": "x", "dtype": "float64", "sizes": [2, 3], "data": [1, 2, 3, 4, 5, 6]}]}})";
  EXPECT_EQ(errorOf(recorded), "ok");
}

// A size placeholder (torch 2.x's dynamic graphs take sizes as inputs) has {"name", "int"}.
TEST(DumpReaderErrorsTest, SizeInputsAreIntegers) {
  const std::string n = R"({"name": "n", "kind": "placeholder", "meta": {"val": 3}})";
  auto dumpWith = [&](const std::string& inputs) {
    return R"({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [)" + kX + "," + n + "," + kOut +
           R"(]}}, "inputs": {"forward": [)" + inputs + "]}}";
  };
  const std::string x = R"({"name": "x", "dtype": "float32", "sizes": [2, 3], "seed": 1})";
  EXPECT_EQ(errorOf(dumpWith(x + R"(, {"name": "n", "int": 3})")), "ok");
  EXPECT_EQ(errorOf(dumpWith(x + "," + x)), R"(f.json: /inputs/forward/1: %n is a SymInt (3): its input is {"name", "int"})");
  EXPECT_EQ(errorOf(dumpWith(R"({"name": "x", "int": 3}, {"name": "n", "int": 3})")),
            "f.json: /inputs/forward/0/int: an integer input for tensor placeholder %x");
  EXPECT_EQ(errorOf(dumpWith(x + R"(, {"name": "n", "int": 2.5})")), "f.json: /inputs/forward/1/int: expected an integer but found a number");
  EXPECT_EQ(errorOf(dumpWith(x + R"(, {"name": "n", "int": 3, "seed": 1})")).find("f.json: /inputs/forward/1"), 0u);
}

// Inline input data takes the floats JSON cannot write as {"float": "nan" | "inf" | "-inf"}.
TEST(DumpReaderErrorsTest, InlineDataTakesNonFiniteFloats) {
  auto withData = [](const std::string& data) {
    return R"({"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [)" + kX + "," + kOut +
           R"(]}}, "inputs": {"forward": [{"name": "x", "dtype": "float32", "sizes": [2, 3], "data": )" + data + "}]}}";
  };
  auto d = parseDump(withData(R"([1, {"float": "nan"}, {"float": "inf"}, {"float": "-inf"}, true, -0.5])"), "f.json");
  ASSERT_TRUE(d.ok()) << d.error().str();
  const std::vector<double>& data = d->inputs.at(0).second.at(0).data;
  ASSERT_EQ(data.size(), 6u);
  EXPECT_TRUE(std::isnan(data[1]));
  EXPECT_EQ(data[2], INFINITY);
  EXPECT_EQ(data[3], -INFINITY);
  EXPECT_EQ(errorOf(withData(R"([1, {"float": "huge"}, 3, 4, 5, 6])")),
            "f.json: /inputs/forward/0/data/1/float: expected inf, -inf or nan");
  EXPECT_EQ(errorOf(withData(R"([1, {"double": "nan"}, 3, 4, 5, 6])")),
            "f.json: /inputs/forward/0/data/1: expected a number but found an object");
}

TEST(DumpReaderErrorsTest, MissingFile) {
  auto d = loadDump("/nonexistent/dir/x.fathom.json");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().str(), "/nonexistent/dir/x.fathom.json: cannot open: No such file or directory");
}

}  // namespace
}  // namespace fathom
