#include "minifier/Spill.h"

#include <filesystem>
#include <fstream>
#include <map>

namespace fathom::minify {
std::string dumpStem(const std::string& path) {
  const std::string suffix = ".fathom.json";
  if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
    return path.substr(0, path.size() - suffix.size());
  return path;
}

namespace {

// OUT.fathom.json -> OUT.bin (as the PyTorch exporter names its side files).
std::string sideFileOf(const std::string& outPath) { return dumpStem(outPath) + ".bin"; }

size_t byteSize(const ExampleInput& in) {
  int64_t n = 1;
  for (const auto& s : in.meta.sizes) n *= s.hint();
  return static_cast<size_t>(n) * elementSize(in.meta.dtype);
}

}  // namespace

Status appendValues(const Tensor& t, const std::string& path) {
  auto c = t.contiguous();
  FATHOM_TRY(c);
  std::ofstream f(path, std::ios::binary | std::ios::app);
  f.write(static_cast<const char*>(c->data()), static_cast<std::streamsize>(static_cast<size_t>(c->numel()) * elementSize(c->dtype())));
  if (!f) return invalidInput("cannot write values to '" + path + "'");
  return {};
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

Status bundleSpilled(Dump& dump, const std::string& spillPath, const std::string& outPath) {
  std::error_code ec;
  const auto spill = std::filesystem::weakly_canonical(spillPath, ec);
  std::string bytes;
  std::ifstream from(spillPath, std::ios::binary);
  const std::string side = sideFileOf(outPath);
  std::map<uint64_t, uint64_t> copied;  // spill offset -> offset in the side file
  for (auto& [graph, inputs] : dump.inputs) {
    for (auto& in : inputs) {
      if (!in.file.present() || std::filesystem::weakly_canonical(in.file.path, ec) != spill) continue;
      auto [it, fresh] = copied.emplace(in.file.offset, bytes.size());
      if (fresh) {
        std::string chunk(byteSize(in), '\0');
        from.clear();
        from.seekg(static_cast<std::streamoff>(in.file.offset));
        from.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        if (static_cast<size_t>(from.gcount()) != chunk.size()) return internalError("the spill file '" + spillPath + "' is short");
        bytes += chunk;
      }
      in.file = DataFile{side, side, it->second};
    }
  }
  if (copied.empty()) return {};
  return writeFileAtomically(side, bytes);
}

}  // namespace fathom::minify
