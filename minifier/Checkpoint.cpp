#include "minifier/Checkpoint.h"

#include "engine/dump/DumpSave.h"

#include <charconv>
#include <cstdio>
#include <functional>

#include "minifier/Predicates.h"

namespace fathom::minify {
namespace {

constexpr const char* kFrom = "minified_from";
constexpr const char* kFromHash = "minified_from_hash";
constexpr const char* kStartNodes = "minify_start_nodes";

std::string producerValue(const Dump& d, const std::string& key) {
  for (const auto& [k, v] : d.producer)
    if (k == key) return v;
  return "";
}

// The leading digits of `text` as a number; 0 when there are none (or too many).
size_t leadingNumber(const std::string& text) {
  size_t value = 0;
  if (std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc()) return 0;
  return value;
}

}  // namespace

std::string fileHash(const std::string& path) {
  auto text = readFile(path);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016zx", text.ok() ? std::hash<std::string>{}(*text) : size_t{0});
  return hex;
}

Dump checkpointDump(const Candidate& c, const Dump& source, const ReproSpec& repro, const CheckpointOrigin& origin) {
  Dump d = candidateDump(c, source, repro.graph);
  d.producer.emplace_back(kFrom, origin.input);
  d.producer.emplace_back(kFromHash, origin.inputHash);
  d.producer.emplace_back(kStartNodes, std::to_string(origin.startNodes));
  d.repro = repro;
  return d;
}

Status CheckpointWriter::save(const Candidate& c) const {
  return saveDumpCopyingScratch(checkpointDump(c, source_, repro_, origin_), path_, scratch_);
}

Result<ResumePoint> resumePoint(const Dump& checkpoint, const std::string& path, const std::string& graphName,
                                const CheckpointOrigin& origin) {
  if (producerValue(checkpoint, kFromHash) != origin.inputHash || !checkpoint.repro || checkpoint.repro->graph != graphName ||
      checkpoint.graphs.empty())
    return invalidInput(path + " is not a checkpoint of graph '" + graphName + "' of " + origin.input);
  ResumePoint point;
  point.graph = checkpoint.graphs.front().graph;
  if (const auto* inputs = checkpoint.inputsFor(graphName)) point.inputs = *inputs;
  point.startNodes = leadingNumber(producerValue(checkpoint, kStartNodes));
  return point;
}

}  // namespace fathom::minify
