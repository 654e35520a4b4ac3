// Dump files (*.fathom.json): one versioned JSON document holding the graphs Fathom captured,
// their per-node meta, and example inputs. The JSON Schema is engine/dump/fathom-dump.schema.json
// and docs are in engine/dump/README.md.
//
// loadDump() validates everything before returning a Dump: a problem is reported as one line
// naming the file and the JSON pointer (or node) of the first problem. serializeDump() writes
// the canonical form, so load -> serialize of a canonical file gives back the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/ExampleInput.h"
#include "engine/graph/Graph.h"
#include "engine/ops/AtenVersion.h"

namespace fathom {
namespace sym {
class ShapeEnv;
}
struct PartitionInfo;  // engine/graph/PartitionInfo.h

inline constexpr const char* kDumpFormat = "fathom-dump";
inline constexpr int kDumpVersion = 1;

struct NamedGraph {
  std::string name;  // "forward", "backward", "joint", ...
  Graph graph;
};

// A repro (DESIGN.md): the failure a dump must show - which graph, the minifier's --predicate
// text, the backend that shows it, and its options (tolerances, time limits) as strings.
struct ReproSpec {
  std::string graph;
  std::string predicate;
  std::string backend = "eager";
  std::vector<std::pair<std::string, std::string>> options;
};

struct Dump {
  std::vector<std::pair<std::string, std::string>> producer;  // tool, version, command, ...
  // The symbols, guards and specializations of a symbolic trace; null for a static one.
  std::shared_ptr<sym::ShapeEnv> shapeEnv;
  // How AOT autograd split "joint" into "forward" and "backward"; null when it did not.
  std::shared_ptr<const PartitionInfo> partition;
  std::vector<NamedGraph> graphs;
  std::vector<std::pair<std::string, std::vector<ExampleInput>>> inputs;  // by graph name
  // What the producer's own run returned for `inputs` (PyTorch's real results, from the
  // exporter): one entry per output, nullopt for a non-tensor output. `fathom run` compares.
  std::vector<std::pair<std::string, std::vector<std::optional<ExampleInput>>>> outputs;

  // Set in a repro (what `fathom minify` writes): the failure the dump shows.
  std::optional<ReproSpec> repro;

  const Graph* graph(std::string_view name) const;
  const std::vector<ExampleInput>* inputsFor(std::string_view graphName) const;
  const std::vector<std::optional<ExampleInput>>* outputsFor(std::string_view graphName) const;
};

struct DumpReadOptions {
  int maxDepth = 64;  // JSON nesting; dumps need about 8
  // Ops this build does not know become opaque nodes (Node::opaque) instead of an error, so a
  // graph from a newer torch or with custom ops still loads, checks and minifies.
  bool keepUnknownOps = false;
  // Side files may be named by any path: absolute, with "..", or through a link that leads out of
  // the dump's folder. Off by default, so a dump from someone else cannot make Fathom read
  // /etc/passwd or ~/.ssh as tensor data; dumps Fathom and the PyTorch exporter write name
  // theirs inside their folder. (`--trust-paths` on the command line.)
  bool trustPaths = false;
};

// The PyTorch version the producer names ("torch": "2.14.1+cu130"); nullopt when it names none.
// Reading a dump sets the ops' AtenVersion to it (1.13's when none), so its layouts are its own.
std::optional<AtenVersion> producerTorchVersion(const Dump& dump);

Result<Dump> loadDump(const std::string& path, const DumpReadOptions& options = {});
// `label` names the text in errors (usually the file path); side files are found next to it.
Result<Dump> parseDump(std::string_view text, const std::string& label, const DumpReadOptions& options = {});
std::string serializeDump(const Dump& dump);
// Writes atomically (temporary file, then rename), so a crash never leaves half a dump. The dump
// it writes loads without trustPaths: a side file inside `path`'s folder (links followed) is named
// relative to it; the values of any other - elsewhere, or the side file this save rewrites - are
// copied into sideFileOf(path), beside the dump, which is written first.
Status saveDump(const Dump& dump, const std::string& path);
// The side file saveDump writes for a dump at `path`: OUT.fathom.json -> OUT.bin, else PATH.bin.
std::string sideFileOf(const std::string& dumpPath);
// Whether saveDump(dump, path) writes sideFileOf(path) (so a caller can refuse to overwrite it).
bool saveCopiesValues(const Dump& dump, const std::string& path);
// A dump path without its ".fathom.json" (the whole path when it has none): the stem its side
// file (STEM.bin) and a minified copy (STEM.min.fathom.json) are named from.
std::string dumpStem(const std::string& path);
// Side-file names for a dump that will be read from `folder`: relative to it for a file inside it
// (links followed), absolute for any other (which only --trust-paths reads back).
void rebaseSideFiles(Dump& dump, const std::string& folder);

// Inputs files (`fathom run --inputs FILE`): {"format": "fathom-inputs", "version": 1,
// "inputs": [ExampleInput, ...]}. Their side files follow the dump's rule (trustPaths).
Result<std::vector<ExampleInput>> loadInputsFile(const std::string& path, const DumpReadOptions& options = {});
std::string serializeInputs(const std::vector<ExampleInput>& inputs);

// Reads a whole file; an error names the file and the system's reason.
Result<std::string> readFile(const std::string& path);
Status writeFileAtomically(const std::string& path, std::string_view contents);

}  // namespace fathom
