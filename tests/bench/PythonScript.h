// Runs a bench's PyTorch side (a script under tests/bench) and reads its "key value" lines: the
// PyTorch reference each bench prints its ratios against.
#pragma once

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

namespace fathom {

// `/usr/bin/python3 tests/bench/SCRIPT ARGS` (stderr included); lines without a space are
// gathered under "output". Empty when python cannot start.
inline std::map<std::string, std::string> runTorchScript(const std::string& script, const std::string& args) {
  const auto path = std::filesystem::path(FATHOM_SOURCE_DIR) / "tests" / "bench" / script;
  const std::string cmd = "/usr/bin/python3 '" + path.string() + "' " + args + " 2>&1";
  std::map<std::string, std::string> out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char line[4096];
  while (std::fgets(line, sizeof line, p)) {
    std::string s(line);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    const auto space = s.find(' ');
    if (space != std::string::npos) out[s.substr(0, space)] = s.substr(space + 1);
    else out["output"] += s + "\n";
  }
  pclose(p);
  return out;
}

}  // namespace fathom
