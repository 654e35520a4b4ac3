// KeepTimes: the console reporter every benchmark here runs under. It prints the usual table and
// keeps each benchmark's real time per iteration (in the benchmark's unit), so main() can print
// ratios against a reference measured in the same run.
//   KeepTimes reporter;
//   benchmark::RunSpecifiedBenchmarks(&reporter);
//   if (auto ms = reporter.time("BM_ParseDump/")) ...
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fathom {

class KeepTimes : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      // With --benchmark_repetitions the mean is the figure (not the stddev row that comes last).
      if (run.error_occurred || (run.run_type == Run::RT_Aggregate && run.aggregate_name != "mean")) continue;
      times_[run.benchmark_name()] = run.GetAdjustedRealTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }

  // The time of the first benchmark (by name) whose full name starts with `prefix`
  // ("BM_GuardCheckBert12/1/"), or nothing when none ran without error.
  std::optional<double> time(std::string_view prefix) const {
    for (const auto& [name, t] : times_)
      if (std::string_view(name).substr(0, prefix.size()) == prefix) return t;
    return std::nullopt;
  }

 private:
  std::map<std::string, double> times_;  // full benchmark name -> real time per iteration
};

}  // namespace fathom
