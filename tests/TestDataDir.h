// The checkout the tests read their data from (samples/, tests/data/, tests/oracle/).
//
// Only TestDataDir.cpp is compiled with the path, so every other test's compile command is the
// same in any clone and ccache can serve CI's fresh clone from this machine's builds (see
// cmake/Toolchain.cmake).
#pragma once

namespace fathom::testdata {
const char* checkoutDir();
// The built `fathom` CLI, for tests that need what only a command makes (a `trace --calls`
// session's log and dumps: tests/viz/BertRecompileSession.h).
const char* fathomCli();
}

#define FATHOM_TEST_DATA_DIR (::fathom::testdata::checkoutDir())
