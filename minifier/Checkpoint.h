// Checkpoints of a minify run: the best candidate so far, written after every improvement as a
// repro - a dump with its `repro` section (graph, resolved predicate, backend), its large values
// in PATH.bin beside it - plus where it came from: the input's path and content hash and the
// node count the run began with. `fathom minify --resume` continues from one after Ctrl-C or a
// kill, once resumePoint() has checked that it is a checkpoint of this input's graph.
//
//   CheckpointWriter writer(input, ReproSpec{graph, oracle.predicate, backend, {}},
//                           CheckpointOrigin{inputPath, fileHash(inputPath), graph.size()}, out);
//   options.onImprove = [&](const Candidate& c, const MinifyStats&) { (void)writer.save(c); };
//   ...
//   auto point = resumePoint(*loadDump(out), out, graphName, origin);  // the next run starts here
//
// Invariants: save() writes atomically (saveDump), so a checkpoint on disk is always a whole
// repro that loads and exports by itself; the values it names outside its folder (the run's spill
// file) are copied into its own side file.
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "minifier/Minify.h"

namespace fathom::minify {

// Where a run's checkpoints come from, recorded in their producer section.
struct CheckpointOrigin {
  std::string input;      // the input file, as named on the command line ("minified_from")
  std::string inputHash;  // fileHash(input) ("minified_from_hash")
  size_t startNodes = 0;  // the node count the first run began with ("minify_start_nodes")
};

// A file's content as 16 hex digits (0s when it cannot be read): the input's identity in a
// checkpoint, so --resume does not continue another input's run.
std::string fileHash(const std::string& path);

// The candidate as a repro dump: `source`'s producer and symbols, the candidate's graph (named
// repro.graph) and inputs, the repro section, and the origin.
Dump checkpointDump(const Candidate& c, const Dump& source, const ReproSpec& repro, const CheckpointOrigin& origin);

// Writes one run's checkpoints to `path` (and PATH.bin), each over the last.
class CheckpointWriter {
 public:
  // `source` (the input dump) outlives the writer.
  CheckpointWriter(const Dump& source, ReproSpec repro, CheckpointOrigin origin, std::string path)
      : source_(source), repro_(std::move(repro)), origin_(std::move(origin)), path_(std::move(path)) {}
  Status save(const Candidate& c) const;
  const std::string& path() const { return path_; }
  // The run's scratch folder (its spill file): values there are always copied into PATH.bin,
  // even when the folder lies inside the checkpoint's own (DumpSave.h).
  void setScratchFolder(std::string folder) { scratch_ = std::move(folder); }

 private:
  const Dump& source_;
  ReproSpec repro_;
  CheckpointOrigin origin_;
  std::string path_;
  std::string scratch_;
};

// Where a resumed run starts: the checkpoint's graph and inputs, and the node count the first
// run began with (for the summary's "N -> M nodes").
struct ResumePoint {
  Graph graph;
  std::vector<ExampleInput> inputs;
  size_t startNodes = 0;
};

// `checkpoint`, loaded from `path`, as the start of a run on graph `graphName` of `origin`'s
// input. An error ("PATH is not a checkpoint of graph 'G' of INPUT") when it is a checkpoint of
// another input (by content), of another graph, or no checkpoint at all.
Result<ResumePoint> resumePoint(const Dump& checkpoint, const std::string& path, const std::string& graphName,
                                const CheckpointOrigin& origin);

}  // namespace fathom::minify
