// Plugins' dump importers (see the header).
#include "engine/dump/DumpImporters.h"

#include "engine/dump/Dump.h"

namespace fathom {
namespace {

std::deque<DumpImporter>& registry() {
  static std::deque<DumpImporter> all;
  return all;
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Status registerImporter(DumpImporter importer) {
  if (importer.name.empty() || importer.suffix.empty() || !importer.load) return invalidInput("an importer needs a name, a suffix and a load function");
  if (endsWith(".fathom.json", importer.suffix) || importer.suffix == ".json")
    return invalidInput("importer '" + importer.name + "': suffix '" + importer.suffix + "' is Fathom's own dump format");
  for (const auto& i : registry()) {
    if (i.name == importer.name) return invalidInput("importer '" + importer.name + "' is already registered");
    if (i.suffix == importer.suffix) return invalidInput("importer '" + importer.name + "': suffix '" + importer.suffix + "' is importer '" + i.name + "''s");
  }
  registry().push_back(std::move(importer));
  return {};
}

const DumpImporter* importerFor(const std::string& path) {
  const DumpImporter* best = nullptr;
  for (const auto& i : registry())
    if (endsWith(path, i.suffix) && (!best || i.suffix.size() > best->suffix.size())) best = &i;
  return best;
}

const std::deque<DumpImporter>& dumpImporters() { return registry(); }

}  // namespace fathom
