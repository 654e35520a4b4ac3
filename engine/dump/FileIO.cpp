// Whole-file reads and atomic writes for dumps, checkpoints and exported files.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/dump/Dump.h"

namespace fathom {

Result<std::string> readFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return invalidInput(std::string("cannot open: ") + std::strerror(errno), path);
  if (S_ISDIR(st.st_mode)) return invalidInput("is a directory, not a file", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidInput(std::string("cannot open: ") + std::strerror(errno), path);
  // Read to the end rather than trusting st_size: pipes and /proc files report 0.
  std::string text;
  if (S_ISREG(st.st_mode)) text.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) text.append(buffer, static_cast<size_t>(in.gcount()));
  if (in.bad()) return invalidInput("read error", path);
  return text;
}

Status writeFileAtomically(const std::string& path, std::string_view contents) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return invalidInput(std::string("cannot write: ") + std::strerror(errno), path);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return invalidInput("write failed (disk full?)", path);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    return invalidInput("cannot replace: " + why, path);
  }
  return {};
}

}  // namespace fathom
