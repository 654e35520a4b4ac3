#include "minifier/Spill.h"

#include <filesystem>
#include <fstream>

#include "engine/interp/ExampleInputs.h"

namespace fathom::minify {

Status appendValues(const Tensor& t, const std::string& path) {
  auto c = t.contiguous();
  FATHOM_TRY(c);
  std::ofstream f(path, std::ios::binary | std::ios::app);
  f.write(static_cast<const char*>(c->data()), static_cast<std::streamsize>(static_cast<size_t>(c->numel()) * elementSize(c->dtype())));
  if (!f) return invalidInput("cannot write values to '" + path + "'");
  return {};
}

ValueSpill::ValueSpill(std::string path, size_t minBytes) : path_(std::move(path)), minBytes_(minBytes) {
  std::error_code ec;
  if (!path_.empty() && std::filesystem::exists(path_, ec)) size_ = std::filesystem::file_size(path_, ec);
  if (ec) size_ = 0;
}

Result<ExampleInput> ValueSpill::store(const std::string& name, const Tensor& t) {
  ExampleInput in;
  in.name = name;
  in.meta = t.meta();
  const size_t bytes = static_cast<size_t>(t.numel()) * elementSize(t.dtype());
  if (path_.empty() || bytes < minBytes_) {
    in.data.reserve(static_cast<size_t>(t.numel()));
    for (int64_t i = 0; i < t.numel(); ++i) in.data.push_back(t.atLinear(i));
    return in;
  }
  FATHOM_TRY(appendValues(t, path_));
  in.file = DataFile{path_, path_, size_};
  size_ += bytes;
  return in;
}

Status spillSideFileInputs(std::vector<ExampleInput>& inputs, const std::string& spillFile) {
  ValueSpill spill(spillFile, 0);
  for (auto& in : inputs) {
    if (!in.file.present()) continue;
    auto t = materializeInput(in);
    FATHOM_TRY(t);
    auto stored = spill.store(in.name, *t);
    FATHOM_TRY(stored);
    in = std::move(*stored);
  }
  return {};
}

}  // namespace fathom::minify
