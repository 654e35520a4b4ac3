// The benches' own flag: --torch-repeat=N (how often the PyTorch reference runs; 0 skips it),
// taken out of argv before Google Benchmark parses the rest.
#pragma once

#include <cstdlib>
#include <cstring>
#include <vector>

#include <benchmark/benchmark.h>

namespace fathom {

// Initializes Google Benchmark with every other argument; returns N, or `fallback`.
inline int initBenchmarkWithTorchRepeat(int argc, char** argv, int fallback) {
  int repeat = fallback;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--torch-repeat=", 15) == 0) repeat = std::atoi(argv[i] + 15);
    else args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  return repeat;
}

}  // namespace fathom
