// MinifyProgressJson: the progress stream of `fathom minify --progress json`, one JSON object per
// line on stderr, with its one encoder (the CLI) and its one decoder (fathom-gui's minifier
// panel, viz/model/MinifyRun.h), so the two cannot drift apart. Five events, in this order:
//
//   {"event": "start", "file": "bert.fathom.json", "graph": "forward", "predicate": "accuracy:0.001",
//    "backend": "faulty-miscompile", "output": "bert.min.fathom.json", "start_nodes": 986,
//    "nodes": 986, "passes": ["truncate-suffix", ...], "jobs": 2, "isolated": true, "resumed": false}
//   {"event": "query", "queries": 12, "cache_hits": 3, "pass": "nodes to inputs", "nodes": 31,
//    "seconds": 4.2}                                               (after every oracle query)
//   {"event": "waiting", "queries": 12, "pass": "nodes to inputs", "nodes": 31, "seconds": 5.2,
//    "running": 2, "longest": 1.0}       (about twice a second while isolated queries run)
//   {"event": "improve", "nodes": 31, "queries": 12, "seconds": 4.2, "checkpoint": "bert.min...",
//    "inputs": ["gelu_3", ...], "calls": ["addmm_7", ...]}   (a new best, just written to disk)
//   {"event": "end", "result": "minimized", "start_nodes": 986, "end_nodes": 7, "queries": 35,
//    "cache_hits": 7, "verifications": 7, "flaky": 0, "invalid": 0, "passes": ["truncate suffix"],
//    "seconds": 14.2, "output": "bert.min.fathom.json"}
//
// "running" counts the isolated queries under way and "longest" is how long the oldest of them
// has run, so a viewer's progress moves during a slow query (queries holds the finished ones).
// "start_nodes" is the node count the first run began with (a --resume continues a run that
// began larger); "nodes" the size of the best candidate so far. An improvement names the
// candidate's placeholders ("inputs") and call nodes ("calls") by the original graph's names
// (candidates are cuts of the original: aot::extractGraph keeps names), so a viewer can mark the
// original without reading the checkpoint; "checkpoint" is null and "checkpoint_error" says why
// when the write failed. "result" is "minimized", "interrupted" (Ctrl-C / SIGINT: "output" holds
// the best so far) or "not-failing" (the input does not fail as asked; "what" says what it did).
// An error that stops the run is the CLI's one "fathom: ..." line instead, and no "end" follows.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/Result.h"

namespace fathom {

enum class MinifyEventKind { Start, Query, Improve, End, Waiting };

// One event; each kind carries the fields the comment above shows for it, the rest stay empty.
struct MinifyEvent {
  MinifyEventKind kind = MinifyEventKind::Query;
  std::string file, graph, predicate, backend;  // start
  std::string output;                           // start, end ("" in the JSON's null)
  std::vector<std::string> passes;              // start: the keys that run; end: those that helped
  size_t jobs = 1;
  bool isolated = false, resumed = false;
  size_t startNodes = 0, nodes = 0;             // end: nodes is end_nodes
  size_t queries = 0, cacheHits = 0, verifications = 0, flaky = 0, invalid = 0;
  std::string pass;                             // query, waiting
  size_t running = 0;                           // waiting
  double longestSeconds = 0;                    // waiting
  double seconds = 0;
  std::string checkpoint, checkpointError;      // improve
  std::vector<std::string> inputs, calls;       // improve
  std::string result, what;                     // end
};

const char* minifyEventKindName(MinifyEventKind kind);  // "start", ...
// The event as one line of JSON, without the newline.
std::string minifyEventLine(const MinifyEvent& event);
// One line back into an event. An error ("not a JSON object", "no \"event\" key", "unknown event
// 'x'", "\"queries\" is not a count") for anything else; keys it does not know are ignored, so
// the stream may grow.
Result<MinifyEvent> parseMinifyEvent(std::string_view line);

}  // namespace fathom
