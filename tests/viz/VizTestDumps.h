// Dumps the viz tests share: the committed samples (loaded from the checkout) and AOT dumps of
// the sample models traced by the engine itself.
#pragma once

#include <memory>
#include <string>

#include "engine/dump/Dump.h"

namespace fathom::viz::testing {

// tests/data/NAME or samples/NAME from the checkout; the test fails (and null returns) if it
// cannot be loaded.
std::shared_ptr<const Dump> loadTestDump(const std::string& relativePath);

// `model` ("bert", "gpt2", "mlp") with `layers`, traced with AOT autograd (joint, forward,
// backward, partition; dynamic shapes when asked), batch 2, seq `seq`. Null on failure.
std::shared_ptr<const Dump> aotDump(const std::string& model, int64_t layers, bool dynamic = false, int64_t seq = 8);

// `model` with `layers` traced forward only (as `fathom trace MODEL [--dynamic]`), batch 2, seq 16.
std::shared_ptr<const Dump> tracedDump(const std::string& model, int64_t layers, bool dynamic = false);

}  // namespace fathom::viz::testing
