// Large intermediate values live on disk, not in the minifier's memory (PyTorch's minifier keeps
// every intermediate in memory): a call node cut into an input takes its real value, and a value
// above `minBytes` is appended to one spill file in the work folder and referenced from there
// (an ExampleInput with a side file), smaller ones stay inline. Checkpoints copy the spilled
// values they use into their own side file (saveDump does, for any side file outside the
// checkpoint's folder), so they outlive the work folder.
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "engine/tensor/Tensor.h"

namespace fathom::minify {

class ValueSpill {
 public:
  // An empty path keeps every value inline. Values are appended after what the file holds
  // already (a spill shared by several ValueSpills: the run's inputs, then its real values).
  ValueSpill(std::string path, size_t minBytes);
  // `t` as the example input named `name`: its layout and its values, inline or spilled.
  Result<ExampleInput> store(const std::string& name, const Tensor& t);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  size_t minBytes_;
  uint64_t size_ = 0;
};

// Moves the values of every input held in a side file into the spill file `spillFile` (each
// input then names that file): a run's inputs then name side files only inside its work folder,
// where a script predicate's candidates are written too.
Status spillSideFileInputs(std::vector<ExampleInput>& inputs, const std::string& spillFile);

// Writes `t`'s values in row-major logical order, little-endian, in its own dtype (the side-file
// encoding ExampleInputs reads) to `out`, appending.
Status appendValues(const Tensor& t, const std::string& path);

}  // namespace fathom::minify
