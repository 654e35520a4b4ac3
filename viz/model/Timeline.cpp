// Timeline (see the header): lines -> events (TimelineEvents.cpp) -> runs -> compile sessions ->
// targets completed from each event's compile -> the summary.
#include "viz/model/Timeline.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "engine/dump/TraceLogRead.h"
#include "viz/model/TimelineEvents.h"

namespace fathom::viz {
namespace {

// A file whose first lines hold no event is not a trace log: stop there rather than read a
// 100 MB dump line by line.
constexpr int kLinesToFindAnEvent = 20;
// The gap the axis leaves between two runs of one file.
constexpr int64_t kRunGapUs = 1000;

enum class LineKind { Empty, Event, Problem };

LineKind readLine(const std::string& line, int number, Timeline& t) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return LineKind::Empty;
  auto j = readTraceLogLine(line);
  if (!j.ok()) {
    t.problems.push_back({number, j.error().str()});
    return LineKind::Problem;
  }
  t.events.push_back(decodeTimelineEvent(*j, number));
  return LineKind::Event;
}

// Runs: each run appended to the file restarts time_us (and compile ids); a compile_start of a
// compile id the run has already started also opens a new run. Places every event on the axis.
void assignRuns(Timeline& t) {
  int run = 0;
  int64_t last = -1, offset = 0, runEnd = 0;
  std::vector<int64_t> started;
  for (TimelineEvent& e : t.events) {
    const bool restarted = e.kind == TimelineKind::CompileStart &&
                           std::find(started.begin(), started.end(), e.compileId) != started.end();
    if (last >= 0 && (e.timeUs < last || restarted)) {
      ++run;
      offset = runEnd + kRunGapUs;
      started.clear();
    }
    if (e.kind == TimelineKind::CompileStart) started.push_back(e.compileId);
    e.run = run;
    e.axisUs = offset + e.timeUs;
    runEnd = std::max(runEnd, e.axisUs);
    last = e.timeUs;
  }
  t.runs = run + 1;
  t.endUs = runEnd;
}

bool opensSession(TimelineKind k) {
  return k == TimelineKind::CompileStart || k == TimelineKind::CompileEnd || k == TimelineKind::GraphCaptured ||
         k == TimelineKind::Recompile;
}

void addToSession(CompileSession& s, const TimelineEvent& e, int index) {
  using K = TimelineKind;
  s.events.push_back(index);
  // The compile's own events say what it was for and where it was written; a hit names another
  // call, a recompile's target is the entry that failed.
  const bool own = e.kind == K::CompileStart || e.kind == K::GraphCaptured || e.kind == K::CompileEnd;
  if (!e.call.empty() && s.call.empty() && (own || e.kind == K::Recompile)) s.call = e.call;
  if (!e.target.dump.empty() && s.dump.empty() && own) s.dump = e.target.dump;
  switch (e.kind) {
    case K::CompileStart: s.startUs = e.axisUs; break;
    case K::CompileEnd:
      s.endUs = e.axisUs;
      s.ms = e.ms;
      break;
    case K::GraphCaptured:
      if (s.graph.empty()) s.graph = e.target.graph;
      for (const auto& [key, value] : e.fields)
        if (key == "nodes") s.nodes = std::atoll(value.c_str());
      break;
    case K::Recompile: s.recompile = index; break;
    case K::CacheHit: s.hits.push_back(index); break;
    case K::GuardAdded: ++s.guardsAdded; break;
    case K::Specialization: ++s.specializations; break;
    case K::LateGuard: ++s.lateGuards; break;
    case K::KernelCompiled: ++s.kernels; break;
    default: break;
  }
}

void buildSessions(Timeline& t) {
  for (size_t i = 0; i < t.events.size(); ++i) {
    TimelineEvent& e = t.events[i];
    if (e.compileId < 0 || e.kind == TimelineKind::GuardCheck) continue;  // a Z3 query has no compile
    int s = t.session(e.run, e.compileId);
    if (s < 0 && !opensSession(e.kind)) continue;  // a guard check or a jit kernel with no compile around it
    if (s < 0) {
      t.compiles.push_back({});
      t.compiles.back().run = e.run;
      t.compiles.back().compileId = e.compileId;
      s = static_cast<int>(t.compiles.size()) - 1;
      t.sessionIndex[{e.run, e.compileId}] = s;
    }
    e.session = s;
    addToSession(t.compiles[static_cast<size_t>(s)], e, static_cast<int>(i));
  }
}

// What an event leaves to its compile: the dump (and graph) its node is in.
void completeTarget(const Timeline& t, TimelineTarget& target, int session) {
  if (session < 0) return;
  const CompileSession& s = t.compiles[static_cast<size_t>(session)];
  if (target.dump.empty()) target.dump = s.dump;
  if (target.graph.empty() && target.dump == s.dump) target.graph = s.graph;
}

void completeTargets(Timeline& t) {
  for (TimelineEvent& e : t.events) {
    for (FailingGuard& g : e.failures) completeTarget(t, g.target, g.entryCompileId >= 0 ? t.session(e.run, g.entryCompileId) : -1);
    if (e.kind == TimelineKind::Recompile) {
      if (!e.failures.empty()) e.target = e.failures.front().target;
    } else {
      completeTarget(t, e.target, t.sessionOf(e));
    }
  }
}

void summarize(Timeline& t) {
  using K = TimelineKind;
  TimelineSummary& s = t.summary;
  s.events = static_cast<int>(t.events.size());
  s.runs = t.runs;
  for (const CompileSession& c : t.compiles) {
    if (c.startUs < 0 && c.endUs < 0) continue;
    ++s.compiles;
    if (c.ms > 0) s.compileMs += c.ms;
  }
  for (const TimelineEvent& e : t.events) {
    switch (e.kind) {
      case K::CacheHit: ++s.hits; break;
      case K::Recompile:
        ++s.recompiles;
        s.failingGuards += static_cast<int>(e.failures.size());
        break;
      case K::GuardAdded: ++s.guardsAdded; break;
      case K::Specialization: ++s.specializations; break;
      case K::LateGuard: ++s.lateGuards; break;
      case K::SymbolCreated: ++s.symbols; break;
      case K::GuardCheck: ++s.guardChecks; break;
      case K::KernelCompiled:
        ++s.kernels;
        if (e.kernelSource == "compiled") ++s.kernelsCompiled, s.kernelMs += std::max(0.0, e.ms);
        else if (e.kernelSource == "disk cache") ++s.kernelsDiskCache;
        else if (e.kernelSource == "memory") ++s.kernelsMemory;
        else ++s.kernelsEager;
        break;
      case K::Other: ++s.other; break;
      default: break;
    }
  }
  s.misses = s.compiles;  // every compile served a call the cache missed
}

}  // namespace

std::string CompileSession::label() const {
  std::string out = "compile " + std::to_string(compileId);
  if (!call.empty()) out += " · " + call;
  return run > 0 ? "run " + std::to_string(run + 1) + " · " + out : out;
}

std::string TimelineSummary::text() const {
  std::string out = plural(compiles, "compile");
  if (recompiles) out += " (" + plural(recompiles, "recompile") + ", " + plural(failingGuards, "failing guard") + ")";
  out += ", " + plural(hits, "cache hit");
  if (guardsAdded) out += ", " + plural(guardsAdded, "guard") + " added";
  if (specializations) out += ", " + plural(specializations, "specialization");
  if (lateGuards) out += ", " + plural(lateGuards, "LATE guard");
  if (kernels)
    out += ", " + plural(kernels, "kernel") + " (" + std::to_string(kernelsCompiled) + " compiled, " + std::to_string(kernelsDiskCache) +
           " from disk, " + std::to_string(kernelsMemory) + " from memory, " + std::to_string(kernelsEager) + " eager)";
  if (guardChecks) out += ", " + plural(guardChecks, "Z3 check");
  if (runs > 1) out += "; " + plural(runs, "run");
  return out;
}

int Timeline::session(int run, int64_t compileId) const {
  const auto it = sessionIndex.find({run, compileId});
  return it == sessionIndex.end() ? -1 : it->second;
}

std::string Timeline::firstDump() const {
  for (const CompileSession& c : compiles)
    if (!c.dump.empty()) return c.dump;
  for (const TimelineEvent& e : events)
    if (!e.target.dump.empty()) return e.target.dump;
  return {};
}

Result<Timeline> readTimeline(std::istream& in, const std::string& path, const TimelineReadOptions& options) {
  Timeline t;
  t.path = path;
  int number = 0, nonEmpty = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (options.cancel && options.cancel->load(std::memory_order_relaxed)) return invalidInput("reading cancelled", path);
    if (options.bytesRead) options.bytesRead->fetch_add(static_cast<int64_t>(line.size()) + 1, std::memory_order_relaxed);
    if (readLine(line, number, t) != LineKind::Empty) ++nonEmpty;
    if (t.events.empty() && nonEmpty >= kLinesToFindAnEvent) break;
  }
  if (t.events.empty()) {
    if (t.problems.empty()) return invalidInput("no events: empty, not a trace log (one JSON event per line, from --trace-log)", path);
    const TimelineProblem& p = t.problems.front();
    return invalidInput("not a trace log: " + p.message + " (a trace log has lines like {\"event\": \"compile_start\", ...})",
                        path + ": line " + std::to_string(p.line));
  }
  assignRuns(t);
  buildSessions(t);
  completeTargets(t);
  summarize(t);
  return t;
}

Result<Timeline> loadTimeline(const std::string& path, const TimelineReadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidInput("cannot open the trace log", path);
  return readTimeline(in, path, options);
}

std::string resolveTimelineDump(const std::string& logPath, const std::string& dump) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (dump.empty() || fs::exists(dump, ec)) return dump;
  const fs::path beside = fs::path(logPath).parent_path() / fs::path(dump).filename();
  return fs::exists(beside, ec) ? beside.string() : dump;
}

}  // namespace fathom::viz
