// Readers of other formats, added by plugins (plugins/api/FathomPlugin.h): loadDump() hands a
// path whose name ends with an importer's suffix to that importer instead of reading JSON, so
// every command and the GUI open such files as dumps.
#pragma once

#include <deque>
#include <functional>
#include <string>

#include "engine/core/Result.h"

namespace fathom {

struct Dump;

struct DumpImporter {
  std::string name;
  std::string suffix;  // ".onnx.json"; the longest matching suffix wins
  std::function<Result<Dump>(const std::string& path)> load;
};

// Adds one; an error when the name or the suffix is taken, or the suffix is a dump's own.
Status registerImporter(DumpImporter importer);
// The importer for `path` (the longest suffix it ends with), or null.
const DumpImporter* importerFor(const std::string& path);
const std::deque<DumpImporter>& dumpImporters();

}  // namespace fathom
