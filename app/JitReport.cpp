#include "app/JitReport.h"

#include <cstdio>
#include <iostream>

#include "engine/interp/ValueDiff.h"
#include "engine/tensor/Tensor.h"

namespace fathom::cli {

std::vector<JitComparison> compareWithEager(const ValueList& jit, const ValueList& eager, double rtol, double atol) {
  std::vector<JitComparison> out;
  for (size_t i = 0; i < eager.size(); ++i) {
    JitComparison c{.index = i};
    const Value& got = i < jit.size() ? jit[i] : Value{};
    const auto* g = got.tryAs<Tensor>();
    const auto* w = eager[i].tryAs<Tensor>();
    if (g && w) {
      c.layoutMatch = g->dtype() == w->dtype() && g->sizes() == w->sizes() && g->strides() == w->strides() &&
                      g->storageOffset() == w->storageOffset();
    }
    const ValueDiff d = diffValues(got, eager[i], rtol, atol);
    c.maxAbsDiff = d.maxAbsDiff;
    c.scale = d.scale;
    c.ok = d.ok && c.layoutMatch;
    out.push_back(c);
  }
  return out;
}

Json jitRunJson(const JitRun& r) {
  return {{"graphs", r.graphs},
          {"kernels", r.kernels},
          {"generated", r.generated},
          {"compiled", r.compile.compiled},
          {"from_disk_cache", r.compile.fromDisk},
          {"from_memory", r.compile.fromMemory},
          {"codegen_ms", r.compile.compileMs},
          {"optimize_ms", r.compile.optimizeMs},
          {"machine_code_ms", r.compile.machineCodeMs},
          {"compile_ms", r.compileSeconds * 1e3},
          {"run_ms", r.runSeconds * 1e3}};
}

Json comparisonsJson(const std::vector<JitComparison>& cs) {
  Json list = Json::array();
  size_t bad = 0;
  for (const auto& c : cs) {
    bad += c.ok ? 0 : 1;
    list.push_back({{"index", c.index}, {"layout_match", c.layoutMatch}, {"max_abs_diff", c.maxAbsDiff},
                    {"scale", c.scale}, {"ok", c.ok}});
  }
  return {{"outputs", std::move(list)}, {"mismatches", bad}, {"match", bad == 0}};
}

void printJitText(const JitRun& run, const std::vector<JitComparison>& cs) {
  std::cout << "jit: " << jitRunText(run) << "\n";
  size_t bad = 0;
  for (const auto& c : cs) {
    if (c.ok) continue;
    ++bad;
    char line[160];
    std::snprintf(line, sizeof line, "max |diff| %.3g (largest |x| %.3g)", c.maxAbsDiff, c.scale);
    std::cout << "  MISMATCH output " << c.index << " against eager: " << (c.layoutMatch ? "" : "layout differs, ") << line << "\n";
  }
  std::cout << (bad ? std::to_string(bad) + " of " + std::to_string(cs.size()) + " outputs differ from the eager interpreter's\n"
                    : "all " + std::to_string(cs.size()) + " outputs match the eager interpreter's\n");
}

}  // namespace fathom::cli
