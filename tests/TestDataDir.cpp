#include "tests/TestDataDir.h"

const char* fathom::testdata::checkoutDir() { return FATHOM_CHECKOUT_DIR; }

const char* fathom::testdata::fathomCli() { return FATHOM_CLI; }
