// TimelineEvents (see the header): each kind's summary line and what it names. Lines are read
// through the events' own structs (engine/core/TraceEvents.h), which the writers use too; fields
// may be missing or of another type in a hand-edited or foreign log, and then keep the struct's
// defaults (-1 for a count, shown as nothing or 0 as before).
#include "viz/model/TimelineEvents.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <regex>

#include "engine/core/TraceEvents.h"

namespace fathom::viz {
namespace {

using K = TimelineKind;

constexpr std::array<std::string_view, kTimelineKinds> kNames = {
    CompileStartEvent::kName,   CompileEndEvent::kName,      GraphCapturedEvent::kName, CacheHitEvent::kName,
    RecompileEvent::kName,      GuardAddedEvent::kName,      SpecializationEvent::kName, LateGuardEvent::kName,
    GuardsInstalledEvent::kName, SymbolCreatedEvent::kName,  PartitionEvent::kName,     BackwardCompiledEvent::kName,
    GuardCheckEvent::kName,     KernelCompiledEvent::kName,  CompileAssumptionEvent::kName, "other"};

// A count as the summary shows it: nothing when the line has none.
std::string countText(int64_t n) { return n >= 0 ? std::to_string(n) : std::string(); }
// A count to pluralize: none reads as 0.
int64_t orZero(int64_t n) { return std::max<int64_t>(n, 0); }

// A list as its compact JSON text (["s0","4"]): what the assumption's summary has always shown.
std::string jsonListText(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ",\"" : "\"";
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "]";
}

// "input_ids.size(0)" -> "input_ids": the placeholder a symbol or a specialization is about.
std::string inputOfDimension(const std::string& source) {
  const auto at = source.find(".size(");
  return at == std::string::npos ? std::string() : source.substr(0, at);
}

std::string guardFrom(const std::string& expr, const std::string& node, const std::string& op) {
  std::string out = expr;
  if (!node.empty()) out += "  from %" + node + (op.empty() ? "" : " (" + op + ")");
  return out;
}

std::string compileIdText(const TimelineEvent& e) { return e.compileId >= 0 ? std::to_string(e.compileId) : "?"; }

FailingGuard failingGuardOf(const RecompileFailure& f) {
  FailingGuard g;
  g.entry = f.entry;
  g.entryCompileId = f.compileId;
  g.kind = f.kind;
  g.expr = f.expr;
  g.actual = f.actual;
  g.reason = f.reason;
  g.node = f.node;
  g.op = f.op;
  g.source = f.source;
  g.module = f.module;
  g.input = f.input;
  g.target.dump = f.dump.value_or("");
  g.target.node = g.node.empty() ? g.input : g.node;
  return g;
}

// ---- one decode per kind: the summary line, and what the event names ----

void decode(TimelineEvent& e, const CompileContext& c) {
  e.call = c.call.value_or("");
  e.target.dump = c.dump.value_or("");
}

void decode(TimelineEvent& e, const CompileStartEvent& v) {
  decode(e, v.context);
  e.summary = "compile " + compileIdText(e) + " starts" + (e.call.empty() ? "" : " for " + e.call) + (v.dynamic ? " (dynamic)" : "");
}

void decode(TimelineEvent& e, const CompileEndEvent& v) {
  decode(e, v.context);
  e.ms = v.ms;
  e.summary = "compile " + compileIdText(e) + " done" + (e.ms >= 0 ? " in " + formatMs(e.ms) : "");
}

void decode(TimelineEvent& e, const GraphCapturedEvent& v) {
  decode(e, v.context);
  e.target.graph = v.graph;
  e.summary = "captured graph '" + v.graph + "': " + plural(orZero(v.nodes), "node") +
              (v.guards ? ", " + plural(orZero(*v.guards), "guard") : "");
}

void decode(TimelineEvent& e, const CacheHitEvent& v) {
  e.call = v.call;
  e.target.dump = v.dump.value_or("");
  e.summary = e.call + " hit entry #" + countText(v.entry) + " (compile " + compileIdText(e) + ")";
}

void decode(TimelineEvent& e, const RecompileEvent& v) {
  e.call = v.call;
  for (const auto& f : v.failures) e.failures.push_back(failingGuardOf(f));
  if (v.failures.empty())  // logs written before "failures": the text lines
    for (const auto& line : v.failingGuards) e.failures.push_back(failingGuardFromText(line));
  if (!e.failures.empty()) e.target = e.failures.front().target;
  e.summary = "recompile for " + e.call + ": " + plural(static_cast<int64_t>(e.failures.size()), "failing guard") +
              (v.entries >= 0 ? " in " + plural(v.entries, "entry") : "");
}

void decode(TimelineEvent& e, const GuardAddedEvent& v) {
  e.target.node = v.site.node;
  e.summary = "guard " + guardFrom(v.expr, v.site.node, v.site.op);
}

void decode(TimelineEvent& e, const LateGuardEvent& v) {
  e.target.node = v.site.node;
  e.summary = "LATE guard " + guardFrom(v.expr, v.site.node, v.site.op);
}

void decode(TimelineEvent& e, const SpecializationEvent& v) {
  const std::string input = v.input.value_or("");
  e.target.node = v.site.node.empty() ? inputOfDimension(input) : v.site.node;
  e.summary = "specialized " + (v.symbol.empty() ? input : v.symbol) + " = " + v.value + " (" + v.kind + ")" +
              (v.site.node.empty() ? "" : "  at %" + v.site.node);
}

void decode(TimelineEvent& e, const GuardsInstalledEvent& v) {
  e.summary = plural(orZero(v.guards), "guard") + " installed with the forward";
}

void decode(TimelineEvent& e, const SymbolCreatedEvent& v) {
  e.target.node = inputOfDimension(v.source);
  e.summary = "symbol " + v.symbol + " = " + countText(v.hint) + " for " + v.source + ", range " + v.range;
}

void decode(TimelineEvent& e, const PartitionEvent& v) {
  e.ms = v.ms;
  e.summary = "partition (" + v.partitioner + "): " + countText(v.saved) + " saved, " + countText(v.savedBytes) +
              " bytes; forward " + countText(v.forwardNodes) + ", backward " + countText(v.backwardNodes) + " nodes";
}

void decode(TimelineEvent& e, const BackwardCompiledEvent& v) {
  e.summary = "backward compiled at " + v.when + " (" + plural(orZero(v.guards), "guard") + ")";
}

void decode(TimelineEvent& e, const GuardCheckEvent& v) {
  e.ms = v.ms;
  e.summary = "Z3 " + v.check + ": " + v.subject + " -> " + v.status + (e.ms >= 0 ? " in " + formatMs(e.ms) : "");
}

void decode(TimelineEvent& e, const KernelCompiledEvent& v) {
  e.ms = v.compileMs.value_or(-1);
  e.kernelSource = v.source.value_or("");
  e.target = {v.dump.value_or(""), v.graph, v.nodes.empty() ? "" : v.nodes.front()};
  std::string s = "kernel " + v.kernel + " (" + v.kind + ", " + plural(static_cast<int64_t>(v.nodes.size()), "node") + "): ";
  if (e.kernelSource.empty()) e.summary = s + "eager, " + v.why.value_or("");
  else e.summary = s + e.kernelSource + (e.kernelSource == "compiled" ? " " + formatMs(e.ms) : "");
}

void decode(TimelineEvent& e, const CompileAssumptionEvent& v) {
  e.target = {v.dump.value_or(""), v.graph, v.input};
  e.summary = "%" + v.input + " trusted as [" + jsonListText(v.sizes) + "] by " + v.kernel + " (" + v.check + ")";
}

// A kind this build does not know: what the log's conventions say, its name and first fields.
void decode(TimelineEvent& e, const UnknownEvent& v) {
  e.call = v.call;
  e.ms = v.ms;
  e.target = {v.dump, v.graph, v.node};
  e.summary = e.name;
  for (size_t i = 0; i < e.fields.size() && i < 3; ++i) e.summary += (i ? ", " : "  ") + e.fields[i].first + " " + e.fields[i].second;
}

template <class Event>
void decodeAs(TimelineEvent& e, const TraceValue& j) {
  decode(e, readTraceEvent<Event>(j));
}

void decodeKind(TimelineEvent& e, const TraceValue& j) {
  switch (e.kind) {
    case K::CompileStart: return decodeAs<CompileStartEvent>(e, j);
    case K::CompileEnd: return decodeAs<CompileEndEvent>(e, j);
    case K::GraphCaptured: return decodeAs<GraphCapturedEvent>(e, j);
    case K::CacheHit: return decodeAs<CacheHitEvent>(e, j);
    case K::Recompile: return decodeAs<RecompileEvent>(e, j);
    case K::GuardAdded: return decodeAs<GuardAddedEvent>(e, j);
    case K::Specialization: return decodeAs<SpecializationEvent>(e, j);
    case K::LateGuard: return decodeAs<LateGuardEvent>(e, j);
    case K::GuardsInstalled: return decodeAs<GuardsInstalledEvent>(e, j);
    case K::SymbolCreated: return decodeAs<SymbolCreatedEvent>(e, j);
    case K::Partition: return decodeAs<PartitionEvent>(e, j);
    case K::BackwardCompiled: return decodeAs<BackwardCompiledEvent>(e, j);
    case K::GuardCheck: return decodeAs<GuardCheckEvent>(e, j);
    case K::KernelCompiled: return decodeAs<KernelCompiledEvent>(e, j);
    case K::CompileAssumption: return decodeAs<CompileAssumptionEvent>(e, j);
    case K::Other: return decodeAs<UnknownEvent>(e, j);
  }
}

}  // namespace

std::string_view timelineKindName(TimelineKind kind) { return kNames[static_cast<size_t>(kind)]; }

TimelineKind timelineKindOf(std::string_view eventName) {
  for (size_t i = 0; i + 1 < kNames.size(); ++i)
    if (kNames[i] == eventName) return static_cast<TimelineKind>(i);
  return TimelineKind::Other;
}

std::string plural(int64_t n, std::string_view word) {
  std::string out = std::to_string(n) + " " + std::string(word);
  if (n == 1) return out;
  return out.ends_with("y") ? out.substr(0, out.size() - 1) + "ies" : out + "s";
}

std::string formatMs(double ms) {
  char buffer[32];
  if (ms >= 1000) std::snprintf(buffer, sizeof buffer, "%.2f s", ms / 1000);
  else if (ms >= 10) std::snprintf(buffer, sizeof buffer, "%.1f ms", ms);
  else std::snprintf(buffer, sizeof buffer, "%.2f ms", ms);
  return buffer;
}

std::string FailingGuard::provenance() const {
  std::string out;
  if (!node.empty()) out = "%" + node + (op.empty() ? "" : " = " + op);
  else if (!input.empty()) out = "input %" + input;
  if (!source.empty()) out += (out.empty() ? "" : "  ") + std::string("at ") + source;
  if (!module.empty()) out += (out.empty() ? "" : "  ") + std::string("in ") + module;
  return out;
}

FailingGuard failingGuardFromText(const std::string& line) {
  static const std::regex head(R"(^entry #(\d+): (.*?)  \[([\w-]+)\](?:  with (.*))?$)");
  FailingGuard g;
  size_t start = 0;
  bool first = true;
  // The parts are joined by "; " (TraceCommand's oneLine); an expression never contains "; ".
  while (start <= line.size()) {
    size_t end = line.find("; ", start);
    if (end == std::string::npos) end = line.size();
    const std::string part = line.substr(start, end - start);
    std::smatch m;
    if (first && std::regex_match(part, m, head)) {
      g.entry = std::stoll(m[1]);
      g.expr = m[2];
      g.kind = m[3];
      g.actual = m[4];
    } else if (first) {
      g.expr = part;
    } else if (part.starts_with("why: ")) {
      g.reason = part.substr(5);
    } else if (part.starts_with("of input %")) {
      g.input = part.substr(10);
    } else if (part.starts_with("from %")) {
      static const std::regex from(R"(^from %(\S+) = (\S*)(?:  at (\S+))?(?:  in (\S+))?$)");
      if (std::regex_match(part, m, from)) g.node = m[1], g.op = m[2], g.source = m[3], g.module = m[4];
    }
    first = false;
    start = end + 2;
  }
  g.target.node = g.node.empty() ? g.input : g.node;
  return g;
}

TimelineEvent decodeTimelineEvent(const TraceValue& j, int line) {
  const auto envelope = readTraceEvent<TraceEnvelope>(j);
  TimelineEvent e;
  e.name = envelope.event;
  e.kind = timelineKindOf(e.name);
  e.line = line;
  e.compileId = envelope.compileId;
  e.stage = envelope.stage;
  e.timeUs = envelope.timeUs;
  for (const auto& [key, value] : j.fields) {
    if (isTraceEnvelopeKey(key) || key == RecompileEvent::kFailures || key == RecompileEvent::kFailingGuards) continue;
    e.fields.emplace_back(key, value.text());
  }
  decodeKind(e, j);
  return e;
}

}  // namespace fathom::viz
