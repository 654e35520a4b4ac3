// The compile session the timeline exists for (issue 22), made by the real CLI once per test
// process: `fathom trace bert --dynamic --calls 8x128,4x64,1x64,8x1 -o DIR/bert.fathom.json
// --trace-log DIR/tl.jsonl` - 3 compiles (entries #0-#2), 1 hit, 2 recompiles whose failing
// guards name the inputs of entries #0 and #1. Header-only: fathom_tests and fathom_gui_tests
// both use it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/TestDataDir.h"

namespace fathom::testing {

struct BertRecompileSession {
  std::string dir, log;
  std::string dumps[3];  // entry #0, #1, #2 as the CLI wrote them
  std::string error;     // why the CLI failed; empty when it ran
};

inline const BertRecompileSession& bertRecompileSession() {
  static const BertRecompileSession session = [] {
    BertRecompileSession s;
    s.dir = ::testing::TempDir() + "fathom-timeline-" + std::to_string(::getpid());
    std::filesystem::remove_all(s.dir);
    std::filesystem::create_directories(s.dir);
    s.log = s.dir + "/tl.jsonl";
    s.dumps[0] = s.dir + "/bert.fathom.json";
    s.dumps[1] = s.dir + "/bert.entry1.fathom.json";
    s.dumps[2] = s.dir + "/bert.entry2.fathom.json";
    const std::string command = std::string("'") + testdata::fathomCli() + "' trace bert --dynamic --calls 8x128,4x64,1x64,8x1 -o '" +
                                s.dumps[0] + "' --trace-log '" + s.log + "' > '" + s.dir + "/out.txt' 2>&1";
    if (const int rc = std::system(command.c_str()); rc != 0) s.error = command + ": exit status " + std::to_string(rc);
    return s;
  }();
  return session;
}

}  // namespace fathom::testing
