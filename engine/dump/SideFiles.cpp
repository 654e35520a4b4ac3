// Where a dump's side files may be (SideFiles.h), and saving a dump so that its own side files
// follow that rule: kept by name when inside the dump's new folder, else copied beside it. The
// copy is what `fathom minify` always did for its spilled values (one side file per checkpoint,
// values deduplicated), made the rule for every dump Fathom writes.
#include "engine/dump/SideFiles.h"
#include "engine/dump/DumpSave.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <tuple>
#include <vector>

#include "engine/dump/Dump.h"

namespace fathom {
namespace fs = std::filesystem;

namespace dumpread {

fs::path resolvedFolder(const std::string& folder) {
  const fs::path given = folder.empty() ? fs::path(".") : fs::path(folder);
  std::error_code ec;
  fs::path p = fs::weakly_canonical(given, ec);
  if (ec) p = fs::absolute(given, ec).lexically_normal();
  if (!p.has_filename() && p.has_relative_path()) p = p.parent_path();  // "/a/b/" -> "/a/b"
  return p;
}

bool isInsideFolder(const fs::path& path, const fs::path& resolved) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(path, ec);
  if (ec) return false;
  const fs::path rel = target.lexically_relative(resolved);
  return !rel.empty() && rel != "." && *rel.begin() != "..";
}

std::string sideFileOutside(const std::string& name, const std::string& folder) {
  const std::string trust = "; pass --trust-paths if you trust this dump";
  const fs::path p(name);
  bool up = false;
  for (const auto& part : p) up |= part == "..";
  if (p.is_absolute() || up) return "side file '" + name + "' is outside the dump's folder" + trust;
  const fs::path resolved = resolvedFolder(folder);
  if (isInsideFolder(resolved / p, resolved)) return "";
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(resolved / p, ec);
  return "side file '" + name + "' leads outside the dump's folder (to '" + (ec ? name : target.string()) + "')" + trust;
}

}  // namespace dumpread

namespace {

// Every example input and recorded output of the dump whose values are in a side file
// (DumpT: Dump or const Dump).
template <class DumpT, class Fn>
void forEachSideFileValue(DumpT& dump, Fn&& fn) {
  for (auto& [graph, inputs] : dump.inputs)
    for (auto& in : inputs)
      if (in.file.present()) fn(in);
  for (auto& [graph, outputs] : dump.outputs)
    for (auto& out : outputs)
      if (out && out->file.present()) fn(*out);
}

uint64_t byteSize(const ExampleInput& in) {
  return static_cast<uint64_t>(in.meta.numel().hint()) * elementSize(in.meta.dtype);
}

// Where a dump saved at `path` may name side files, and the one file it writes itself.
struct SaveTarget {
  fs::path folder;   // resolved
  fs::path ownSide;  // sideFileOf(path), resolved
  fs::path scratch;  // resolved; empty: none
  explicit SaveTarget(const std::string& path, const std::string& scratchFolder = {})
      : folder(dumpread::resolvedFolder(fs::path(path).parent_path().string())) {
    std::error_code ec;
    ownSide = fs::weakly_canonical(sideFileOf(path), ec);
    if (!scratchFolder.empty()) scratch = dumpread::resolvedFolder(scratchFolder);
  }
  // Copied: outside the folder, the side file this save rewrites (it may lose bytes others need),
  // or in the scratch folder (it goes away with the run that wrote it).
  bool copies(const DataFile& f) const {
    std::error_code ec;
    return !dumpread::isInsideFolder(f.path, folder) || fs::weakly_canonical(f.path, ec) == ownSide ||
           (!scratch.empty() && dumpread::isInsideFolder(f.path, scratch));
  }
};

Status copyBytes(const DataFile& from, uint64_t bytes, std::ofstream& to) {
  std::ifstream in(from.path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(from.offset));
  std::vector<char> buffer(1 << 20);
  for (uint64_t left = bytes; left > 0;) {
    const auto n = static_cast<std::streamsize>(std::min<uint64_t>(left, buffer.size()));
    if (!in.read(buffer.data(), n)) return invalidInput("ends before the " + std::to_string(bytes) + " bytes at offset " +
                                                        std::to_string(from.offset) + " it should hold", from.path);
    to.write(buffer.data(), n);
    left -= static_cast<uint64_t>(n);
  }
  return {};
}

// Copies the values of every reference `target` copies into sideFileOf(path) (each distinct range
// once), re-pointing them there; names the others relative to the folder. The side file is
// written (atomically) before the dump, so a reader never sees the dump without it.
Status keepSideFilesInside(Dump& dump, const std::string& path, const std::string& scratchFolder) {
  const SaveTarget target(path, scratchFolder);
  std::vector<ExampleInput*> copied;
  forEachSideFileValue(dump, [&](ExampleInput& in) {
    std::error_code ec;  // copies() already resolved a file it keeps
    if (target.copies(in.file)) copied.push_back(&in);
    else in.file.name = fs::weakly_canonical(in.file.path, ec).lexically_relative(target.folder).string();
  });
  if (copied.empty()) return {};
  const std::string side = sideFileOf(path), tmp = side + ".tmp." + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) return invalidInput("cannot write", tmp);
  std::map<std::tuple<std::string, uint64_t, uint64_t>, uint64_t> offsets;  // (file, offset, bytes) -> new offset
  uint64_t size = 0;
  std::vector<DataFile> moved;
  for (ExampleInput* in : copied) {
    const uint64_t bytes = byteSize(*in);
    std::error_code ec;
    auto [it, fresh] = offsets.emplace(std::make_tuple(fs::weakly_canonical(in->file.path, ec).string(), in->file.offset, bytes), size);
    if (fresh) {
      if (auto s = copyBytes(in->file, bytes, out); !s.ok()) {
        out.close();
        std::remove(tmp.c_str());
        return s;
      }
      size += bytes;
    }
    moved.push_back(DataFile{fs::path(side).filename().string(), side, it->second});
  }
  out.flush();
  if (!out) {
    std::remove(tmp.c_str());
    return invalidInput("write failed (disk full?)", side);
  }
  out.close();
  if (std::rename(tmp.c_str(), side.c_str()) != 0) {
    std::remove(tmp.c_str());
    return invalidInput("cannot replace", side);
  }
  for (size_t i = 0; i < copied.size(); ++i) copied[i]->file = moved[i];
  return {};
}

}  // namespace

std::string dumpStem(const std::string& path) {
  const std::string suffix = ".fathom.json";
  if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
    return path.substr(0, path.size() - suffix.size());
  return path;
}

std::string sideFileOf(const std::string& dumpPath) { return dumpStem(dumpPath) + ".bin"; }

bool saveCopiesValues(const Dump& dump, const std::string& path) {
  const SaveTarget target(path);
  bool any = false;
  forEachSideFileValue(dump, [&](const ExampleInput& in) { any |= target.copies(in.file); });
  return any;
}

Status saveDumpCopyingScratch(const Dump& dump, const std::string& path, const std::string& scratchFolder) {
  bool hasSideFiles = false;
  forEachSideFileValue(dump, [&](const ExampleInput&) { hasSideFiles = true; });
  if (!hasSideFiles) return writeFileAtomically(path, serializeDump(dump));
  Dump moved = dump;
  FATHOM_TRY(keepSideFilesInside(moved, path, scratchFolder));
  return writeFileAtomically(path, serializeDump(moved));
}

Status saveDump(const Dump& dump, const std::string& path) { return saveDumpCopyingScratch(dump, path, {}); }

void rebaseSideFiles(Dump& dump, const std::string& folder) {
  const fs::path resolved = dumpread::resolvedFolder(folder);
  forEachSideFileValue(dump, [&](ExampleInput& in) {
    std::error_code ec;
    fs::path target = fs::weakly_canonical(in.file.path, ec);
    if (ec) target = fs::absolute(in.file.path, ec);
    in.file.name = dumpread::isInsideFolder(target, resolved) ? target.lexically_relative(resolved).string() : target.string();
  });
}

}  // namespace fathom
