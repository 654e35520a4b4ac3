// Dumps the viz tests share (VizTestDumps.h).
#include "tests/viz/VizTestDumps.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "engine/aot/AotCompile.h"
#include "engine/frontend/ShapeTracing.h"
#include "samples/models/Models.h"
#include "tests/TestDataDir.h"

namespace fathom::viz::testing {

std::shared_ptr<const Dump> loadTestDump(const std::string& relativePath) {
  auto dump = loadDump((std::filesystem::path(FATHOM_TEST_DATA_DIR) / relativePath).string());
  if (!dump.ok()) {
    ADD_FAILURE() << dump.error().str();
    return nullptr;
  }
  return std::make_shared<const Dump>(std::move(*dump));
}

std::shared_ptr<const Dump> aotDump(const std::string& model, int64_t layers, bool dynamic, int64_t seq) {
  auto m = models::buildModel(model, {.layers = layers, .batch = 2, .seq = seq});
  if (!m.ok()) {
    ADD_FAILURE() << m.error().str();
    return nullptr;
  }
  aot::AotOptions o;
  o.shapes.dynamic = dynamic;
  auto c = aot::aotCompile(**m, o);
  if (!c.ok()) {
    ADD_FAILURE() << c.error().str();
    return nullptr;
  }
  return std::make_shared<const Dump>(std::move(c->dump));
}

std::shared_ptr<const Dump> tracedDump(const std::string& model, int64_t layers, bool dynamic) {
  auto m = models::buildModel(model, {.layers = layers, .batch = 2, .seq = 16});
  if (!m.ok()) {
    ADD_FAILURE() << m.error().str();
    return nullptr;
  }
  ShapeTraceOptions o;
  o.dynamic = dynamic;
  auto t = traceWithShapes(**m, o);
  if (!t.ok()) {
    ADD_FAILURE() << t.error().str();
    return nullptr;
  }
  return std::make_shared<const Dump>(std::move(t->dump));
}

}  // namespace fathom::viz::testing
