// Loading a large dump: parseDump (JSON parse + validation + IR + Graph::verify) of a synthetic
// 100,000-node NN-shaped graph, against two parses of the same text in the same run:
// nlohmann::ordered_json::parse (the reader's parser until issue 19; the old reader took 1.8x
// its time) and simdjson's DOM parse (the parser it reads with now, the floor for any reader).
// Targets: issue 19 asks for >= 5x faster than the old reader, <= 250 ms here (a ratio to
// nlohmann's parse of about 0.36); the first target was <= 1 s and <= 500 MB peak RSS.
//
// The dump is built with the GraphBuilder (placeholders, then linear layers: t, mm, add, relu)
// when those ops are registered; otherwise its JSON text is written directly with ops chosen from
// the registry by schema, nodes of realistic size (args naming 1-3 recent nodes, meta val,
// source, module). Peak RSS is measured in a fresh child process (this binary re-run with
// --measure-load FILE), so building the dump here does not count against the load.
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "engine/graph/GraphBuilder.h"
#include "tests/bench/KeepTimes.h"

namespace {

using namespace fathom;

int64_t gNodes = 100000;
std::string gText;
std::string gGenerator;
std::string gSavePath;  // --save-dump=FILE: also write the generated dump there (for profiling)

constexpr int64_t kRows = 512, kWidth = 768;

// GraphBuilder path: x, then per layer weight + bias placeholders, then linear layers.
std::optional<std::string> buildWithGraphBuilder(int64_t nodes, std::string* why) {
  for (const char* op : {"aten.t.default", "aten.mm.default", "aten.add.Tensor", "aten.relu.default"}) {
    if (!OpRegistry::global().find(op)) {
      *why = std::string(op) + " is not registered";
      return std::nullopt;
    }
  }
  const int64_t layers = std::max<int64_t>(1, (nodes - 2) / 6);  // 2 placeholders + 4 calls each
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {kRows, kWidth}));
  std::vector<NodeRef> weights, biases;
  for (int64_t i = 0; i < layers; ++i) {
    weights.push_back(b.input("w" + std::to_string(i), fakeTensor(DType::Float32, {kWidth, kWidth})));
    biases.push_back(b.input("b" + std::to_string(i), fakeTensor(DType::Float32, {kWidth})));
  }
  NodeRef h = x;
  for (int64_t i = 0; i < layers; ++i) {
    auto scope = b.module("encoder.layers." + std::to_string(i) + ".linear");
    NodeRef wt = b.call("aten.t.default", {weights[i]});
    NodeRef mm = b.call("aten.mm.default", {h, wt});
    NodeRef add = b.call("aten.add.Tensor", {mm, biases[i]});
    h = b.call("aten.relu.default", {add});
  }
  b.output({h});
  auto g = b.finish();
  if (!g.ok()) {
    *why = "GraphBuilder failed: " + g.error().str();
    return std::nullopt;
  }
  Dump d;
  d.producer = {{"tool", "fathom_dump_load_bench"}};
  d.graphs.push_back({"forward", std::move(*g)});
  return serializeDump(d);
}

// An op the text generator can call with `arity` tensor arguments and defaults for the rest.
struct TextOp {
  std::string name;
  int arity;
  bool listArg;  // getitem fallback: the tensors go in one list argument, then index 0
};

std::vector<TextOp> textOps() {
  std::vector<TextOp> out;
  for (const OpDef* op : OpRegistry::global().all()) {
    const auto& s = op->schema;
    if (op->name == "getitem" || s.returns.size() != 1 || s.returns[0].type.kind != ArgKind::Tensor ||
        s.returns[0].type.isList)
      continue;
    // Leading required tensors, then only arguments with defaults.
    int tensors = 0;
    bool ok = true;
    for (size_t i = 0; i < s.args.size(); ++i) {
      const auto& a = s.args[i];
      const bool tensor = a.type.kind == ArgKind::Tensor && !a.type.isList && !a.kwargOnly;
      if (tensor && tensors == static_cast<int>(i)) ++tensors;
      else if (!a.defaultValue && !a.type.optional) ok = false;
    }
    if (ok && tensors >= 1 && tensors <= 3) out.push_back({op->name, tensors, false});
  }
  if (out.empty() && OpRegistry::global().find("getitem"))
    for (int k = 1; k <= 3; ++k) out.push_back({"getitem", k, true});
  return out;
}

std::string metaText(int64_t rows, int64_t cols) {
  return "{\"dtype\":\"float32\",\"sizes\":[" + std::to_string(rows) + "," + std::to_string(cols) +
         "],\"strides\":[" + std::to_string(cols) + ",1],\"offset\":0}";
}

// Text path: 1% placeholders, then calls whose args name 1-3 of the 8 most recent nodes.
std::string buildText(int64_t nodes, std::string* why) {
  const auto ops = textOps();
  if (ops.empty()) {
    *why = "no usable op is registered";
    return {};
  }
  const std::string meta = metaText(kRows, kWidth);
  const int64_t placeholders = std::max<int64_t>(1, nodes / 100);
  std::string out = "{\n  \"format\": \"fathom-dump\",\n  \"version\": 1,\n  \"producer\": {\"tool\":\"fathom_dump_load_bench\"},\n  \"graphs\": {\n    \"forward\": {\n      \"nodes\": [";
  out.reserve(static_cast<size_t>(nodes) * 320);
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(nodes));
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  auto next = [&] { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; };
  for (int64_t i = 0; i + 1 < nodes; ++i) {
    std::string node = i ? ",\n        " : "\n        ";
    if (i < placeholders) {
      names.push_back("arg" + std::to_string(i));
      node += "{\"name\":\"" + names.back() + "\",\"kind\":\"placeholder\",\"meta\":{\"val\":" +
              (ops[0].listArg ? "[" + meta + "," + meta + "]" : meta) + ",\"module\":\"\"}}";
    } else {
      const TextOp& op = ops[next() % ops.size()];
      const std::string base = op.name.substr(op.name.find('.') + 1, op.name.rfind('.') - op.name.find('.') - 1);
      names.push_back((op.listArg ? "getitem" : base) + "_" + std::to_string(i));
      std::string args;
      for (int a = 0; a < op.arity; ++a) {
        const int64_t back = 1 + static_cast<int64_t>(next() % 8);
        // Placeholders of the getitem fallback hold lists; calls refer to them only there.
        const int64_t ref = std::max<int64_t>(0, i - back);
        args += (a ? "," : "") + std::string("{\"node\":\"") + names[static_cast<size_t>(ref)] + "\"}";
      }
      if (op.listArg) args = "[" + args + "],0";
      const int64_t layer = i / 64;
      node += "{\"name\":\"" + names.back() + "\",\"kind\":\"call\",\"op\":\"" + op.name + "\",\"args\":[" + args +
              "],\"meta\":{\"val\":" + meta + ",\"source\":\"models/transformer.py:" + std::to_string(100 + i % 400) +
              "\",\"module\":\"encoder.layer." + std::to_string(layer) + ".attention.output.dense\"}}";
    }
    out += node;
  }
  out += ",\n        {\"name\":\"output\",\"kind\":\"output\",\"args\":[[{\"node\":\"" + names.back() + "\"}]]}";
  out += "\n      ]\n    }\n  }\n}\n";
  return out;
}

long maxRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Child mode: load FILE once; print its wall time and this process's peak RSS.
int measureLoad(const char* path) {
  auto text = readFile(path);
  if (!text.ok()) { std::fprintf(stderr, "%s\n", text.error().str().c_str()); return 1; }
  const long before = maxRssKb();
  const auto t0 = std::chrono::steady_clock::now();
  auto dump = parseDump(*text, path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!dump.ok()) { std::fprintf(stderr, "%s\n", dump.error().str().c_str()); return 1; }
  std::printf("%ld %ld %.6f\n", before, maxRssKb(), seconds);
  return 0;
}

struct ChildLoad {
  double baselineMb = 0, peakMb = 0, seconds = 0;
  bool ok = false;
};

ChildLoad measureInChild(const std::string& text) {
  ChildLoad r;
  const auto file = std::filesystem::temp_directory_path() / ("fathom-bench-" + std::to_string(getpid()) + ".fathom.json");
  std::ofstream(file, std::ios::binary) << text;
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string cmd = "'" + exe + "' --measure-load '" + file.string() + "'";
  if (FILE* p = popen(cmd.c_str(), "r")) {
    long before = 0, peak = 0;
    r.ok = std::fscanf(p, "%ld %ld %lf", &before, &peak, &r.seconds) == 3;
    r.ok = pclose(p) == 0 && r.ok;
    r.baselineMb = before / 1024.0;
    r.peakMb = peak / 1024.0;
  }
  std::filesystem::remove(file);
  return r;
}

void BM_ParseDump(benchmark::State& state) {
  for (auto _ : state) {
    auto dump = parseDump(gText, "bench");
    if (!dump.ok()) {
      state.SkipWithError(dump.error().str().c_str());
      break;
    }
    benchmark::DoNotOptimize(dump);
  }
  state.counters["nodes"] = static_cast<double>(gNodes);
  state.counters["file_MB"] = gText.size() / 1e6;
  state.counters["maxrss_MB"] = maxRssKb() / 1024.0;
}

// The reference: the JSON parse alone, with the same (order-keeping) document type.
void BM_OrderedJsonParse(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(nlohmann::ordered_json::parse(gText));
  state.counters["file_MB"] = gText.size() / 1e6;
}

// The floor: simdjson's parse alone (validation and tape, no IR), a fresh parser each time as
// parseDump makes one.
void BM_SimdjsonParse(benchmark::State& state) {
  const simdjson::padded_string padded(gText);
  for (auto _ : state) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(padded).get(root) != simdjson::SUCCESS) {
      state.SkipWithError("simdjson refused the text");
      break;
    }
    benchmark::DoNotOptimize(root);
  }
  state.counters["file_MB"] = gText.size() / 1e6;
}

BENCHMARK(BM_ParseDump)->Unit(benchmark::kMillisecond)->MinTime(3.0);
BENCHMARK(BM_OrderedJsonParse)->Unit(benchmark::kMillisecond)->MinTime(3.0);
BENCHMARK(BM_SimdjsonParse)->Unit(benchmark::kMillisecond)->MinTime(3.0);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--measure-load") == 0) return measureLoad(argv[2]);
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--nodes=", 8) == 0) gNodes = std::atoll(argv[i] + 8);
    else if (std::strncmp(argv[i], "--save-dump=", 12) == 0) gSavePath = argv[i] + 12;
    else args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());

  std::string why;
  if (auto text = buildWithGraphBuilder(gNodes, &why)) {
    gText = std::move(*text);
    gGenerator = "GraphBuilder (t, mm, add, relu layers)";
  } else {
    gGenerator = "JSON text (" + why + ")";
    gText = buildText(gNodes, &why);
    if (gText.empty()) { std::fprintf(stderr, "cannot build a dump: %s\n", why.c_str()); return 1; }
  }
  auto probe = parseDump(gText, "bench");
  if (!probe.ok()) { std::fprintf(stderr, "generated dump does not load: %s\n", probe.error().str().c_str()); return 1; }
  const size_t nodeCount = probe->graphs[0].graph.size();
  probe = Dump{};
  if (!gSavePath.empty()) std::ofstream(gSavePath, std::ios::binary) << gText;
  std::printf("dump: %zu nodes, %.1f MB, built with %s\n", nodeCount, gText.size() / 1e6, gGenerator.c_str());

  const ChildLoad child = measureInChild(gText);
  fathom::KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  const auto load = reporter.time("BM_ParseDump/"), ref = reporter.time("BM_OrderedJsonParse/");
  const auto floor = reporter.time("BM_SimdjsonParse/");
  if (load && ref) std::printf("ratio parseDump / ordered_json::parse = %.2fx (%.1f ms vs %.1f ms)\n", *load / *ref, *load, *ref);
  if (load && floor) std::printf("ratio parseDump / simdjson parse = %.2fx (%.1f ms vs %.1f ms)\n", *load / *floor, *load, *floor);
  if (load) std::printf("target 250 ms in process: %s (%.1f ms)\n", *load <= 250.0 ? "PASS" : "FAIL", *load);
  if (child.ok) {
    std::printf("fresh process: load %.3f s, peak RSS %.1f MB (%.1f MB before parsing, text included)\n", child.seconds,
                child.peakMb, child.baselineMb);
    // Both must hold: the steady in-process mean and a single load in a fresh process.
    const bool timeOk = child.seconds <= 1.0 && (!load || *load <= 1000.0);
    std::printf("target %zu nodes: load <= 1 s: %s, peak RSS <= 500 MB: %s\n", nodeCount, timeOk ? "PASS" : "FAIL",
                child.peakMb <= 500.0 ? "PASS" : "FAIL");
  } else {
    std::printf("fresh-process measurement failed\n");
  }
  return 0;
}
