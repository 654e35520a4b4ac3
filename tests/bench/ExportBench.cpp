// The PyTorch exporter's speed (issue 7), on the 12-layer BERT-base (batch 2, seq 128) forward +
// backward from AOT autograd:
//   export  fathom_torch.capture_aot against PyTorch's own aot_module tracing + run of the same
//           model (tests/bench/export_bert_torch.py, run first); target ratio <= 2x
//   load    BM_LoadExportedBert12: loadDump of that export (forward, backward and joint graphs,
//           inputs and recorded outputs in the side file, which is checked, not read); target
//           <= 100 ms
//   build/tests/bench/fathom_export_bench [--torch-repeat=N] [--dump=FILE.fathom.json] [benchmark flags]
// --dump loads an existing export instead of making one (the ratio is then not measured).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "engine/dump/Dump.h"
#include "tests/bench/KeepTimes.h"
#include "tests/bench/PythonScript.h"
#include "tests/bench/TorchRepeatFlag.h"

namespace fathom {
namespace {

std::string gDump;

void BM_LoadExportedBert12(benchmark::State& state) {
  size_t nodes = 0;
  for (auto _ : state) {
    auto d = loadDump(gDump);
    if (!d.ok()) return state.SkipWithError(d.error().str().c_str());
    nodes = 0;
    for (const auto& g : d->graphs) nodes += g.graph.size();
    benchmark::DoNotOptimize(d->graphs.data());
  }
  state.counters["nodes"] = static_cast<double>(nodes);
}
BENCHMARK(BM_LoadExportedBert12)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--dump=", 7) == 0) gDump = argv[i] + 7;
    else rest.push_back(argv[i]);
  }
  int n = static_cast<int>(rest.size());
  const int repeat = initBenchmarkWithTorchRepeat(n, rest.data(), 2);
  std::map<std::string, std::string> torch;
  const auto dir = std::filesystem::temp_directory_path() / "fathom-export-bench";
  if (gDump.empty()) {
    std::filesystem::create_directories(dir);
    std::printf("exporting the 12-layer BERT-base with fathom_torch (best of %d, alternating with PyTorch's aot_module)...\n", repeat);
    std::fflush(stdout);
    torch = runTorchScript("export_bert_torch.py", "--repeat " + std::to_string(repeat < 1 ? 1 : repeat) + " --out '" + dir.string() + "'");
    if (!torch.count("dump")) {
      std::printf("PyTorch export unavailable (needs /usr/bin/python3 with python3-torch): %s%s\n",
                  torch.count("error") ? torch["error"].c_str() : "", torch.count("output") ? torch["output"].c_str() : "");
      return 0;
    }
    gDump = torch["dump"];
  }
  KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  if (torch.count("aot_ms") && torch.count("export_ms")) {
    const double aot = std::stod(torch["aot_ms"]), exp = std::stod(torch["export_ms"]);
    std::printf("PyTorch 1.13 aot_module trace + forward + backward: %.0f ms\n", aot);
    std::printf("fathom_torch.capture_aot (the same + the dump, %s MB JSON + %s MB side file): %.0f ms: export / PyTorch = %.2fx (target <= 2x)\n",
                torch["dump_mb"].c_str(), torch["side_file_mb"].c_str(), exp, exp / aot);
  }
  if (auto load = reporter.time("BM_LoadExportedBert12")) std::printf("load the export: %.1f ms (target <= 100 ms)\n", *load);
  if (!torch.empty()) std::filesystem::remove_all(dir);  // a 1.4 GB side file: do not leave it in /tmp
  return 0;
}
