// Large intermediate values live on disk, not in the minifier's memory (PyTorch's minifier keeps
// every intermediate in memory): a call node cut into an input takes its real value, and a value
// above `minBytes` is appended to one spill file in the work folder and referenced from there
// (an ExampleInput with a side file), smaller ones stay inline. Checkpoints copy the spilled
// values they use into their own side file (bundleSpilled), so they outlive the work folder.
#pragma once

#include <string>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "engine/tensor/Tensor.h"

namespace fathom::minify {

class ValueSpill {
 public:
  // An empty path keeps every value inline.
  ValueSpill(std::string path, size_t minBytes) : path_(std::move(path)), minBytes_(minBytes) {}
  // `t` as the example input named `name`: its layout and its values, inline or spilled.
  Result<ExampleInput> store(const std::string& name, const Tensor& t);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  size_t minBytes_;
  uint64_t size_ = 0;
};

// A dump path without its ".fathom.json" (the whole path when it has none): the stem its side
// file (STEM.bin) and a minified copy (STEM.min.fathom.json) are named from.
std::string dumpStem(const std::string& path);

// Writes `t`'s values in row-major logical order, little-endian, in its own dtype (the side-file
// encoding ExampleInputs reads) to `out`, appending.
Status appendValues(const Tensor& t, const std::string& path);

// Re-points every input of `dump` whose values are in the spill file `spillPath` to a copy of
// them in `outPath`'s own side file (OUT.fathom.json -> OUT.bin), written atomically.
Status bundleSpilled(Dump& dump, const std::string& spillPath, const std::string& outPath);

}  // namespace fathom::minify
