// TimelineEvents (see the header): each kind's summary line and what it names. Fields may be
// missing or of another type in a hand-edited or foreign log: every read has a default.
#include "viz/model/TimelineEvents.h"

#include <array>
#include <cstdio>
#include <regex>

namespace fathom::viz {
namespace {

using Json = TraceValue;
using Kind = TraceValue::Kind;

constexpr std::array<std::string_view, kTimelineKinds> kNames = {
    "compile_start", "compile_end", "graph_captured", "cache_hit", "recompile", "guard_added", "specialization",
    "late_guard", "guards_installed", "symbol_created", "partition", "backward_compiled", "guard_check",
    "kernel_compiled", "compile_assumption", "other"};

std::string text(const Json& j, const char* key) {
  const TraceValue* v = j.find(key);
  return v && v->kind != Kind::Null ? v->text() : std::string();
}

int64_t integer(const Json& j, const char* key, int64_t fallback = -1) {
  const TraceValue* v = j.find(key);
  if (!v || !v->isNumber()) return fallback;
  return v->kind == Kind::Integer ? v->integer : static_cast<int64_t>(v->number);
}

double number(const Json& j, const char* key) {
  const TraceValue* v = j.find(key);
  return v && v->isNumber() ? v->number : -1.0;
}

bool flag(const Json& j, const char* key) {
  const TraceValue* v = j.find(key);
  return v && v->kind == Kind::Bool && v->flag;
}

// A list field's items (none when the field is missing or not a list).
const std::vector<TraceValue>& items(const Json& j, const char* key) {
  static const std::vector<TraceValue> none;
  const TraceValue* v = j.find(key);
  return v && v->kind == Kind::List ? v->items : none;
}

// "input_ids.size(0)" -> "input_ids": the placeholder a symbol or a specialization is about.
std::string inputOfDimension(const std::string& source) {
  const auto at = source.find(".size(");
  return at == std::string::npos ? std::string() : source.substr(0, at);
}

FailingGuard failingGuardFromJson(const Json& f) {
  FailingGuard g;
  g.entry = integer(f, "entry");
  g.entryCompileId = integer(f, "compile_id");
  g.kind = text(f, "kind");
  g.expr = text(f, "expr");
  g.actual = text(f, "actual");
  g.reason = text(f, "reason");
  g.node = text(f, "node");
  g.op = text(f, "op");
  g.source = text(f, "source");
  g.module = text(f, "module");
  g.input = text(f, "input");
  g.target.dump = text(f, "dump");
  g.target.node = g.node.empty() ? g.input : g.node;
  return g;
}

std::string guardFrom(const std::string& expr, const std::string& node, const std::string& op) {
  std::string out = expr;
  if (!node.empty()) out += "  from %" + node + (op.empty() ? "" : " (" + op + ")");
  return out;
}

// The summary line of each kind (Other: its name and first fields).
std::string summaryOf(const TimelineEvent& e, const Json& j) {
  using K = TimelineKind;
  const std::string id = e.compileId >= 0 ? std::to_string(e.compileId) : "?";
  switch (e.kind) {
    case K::CompileStart:
      return "compile " + id + " starts" + (e.call.empty() ? "" : " for " + e.call) + (flag(j, "dynamic") ? " (dynamic)" : "");
    case K::CompileEnd: return "compile " + id + " done" + (e.ms >= 0 ? " in " + formatMs(e.ms) : "");
    case K::GraphCaptured:
      return "captured graph '" + text(j, "graph") + "': " + plural(integer(j, "nodes", 0), "node") +
             (j.find("guards") ? ", " + plural(integer(j, "guards", 0), "guard") : "");
    case K::CacheHit: return e.call + " hit entry #" + text(j, "entry") + " (compile " + id + ")";
    case K::Recompile: {
      std::string s = "recompile for " + e.call + ": " + plural(static_cast<int64_t>(e.failures.size()), "failing guard");
      if (j.find("entries")) s += " in " + plural(integer(j, "entries", 0), "entry");
      return s;
    }
    case K::GuardAdded: return "guard " + guardFrom(text(j, "expr"), text(j, "node"), text(j, "op"));
    case K::Specialization: {
      const std::string what = text(j, "symbol").empty() ? text(j, "input") : text(j, "symbol");
      return "specialized " + what + " = " + text(j, "value") + " (" + text(j, "kind") + ")" +
             (text(j, "node").empty() ? "" : "  at %" + text(j, "node"));
    }
    case K::LateGuard: return "LATE guard " + guardFrom(text(j, "expr"), text(j, "node"), text(j, "op"));
    case K::GuardsInstalled: return plural(integer(j, "guards", 0), "guard") + " installed with the forward";
    case K::SymbolCreated:
      return "symbol " + text(j, "symbol") + " = " + text(j, "hint") + " for " + text(j, "source") + ", range " + text(j, "range");
    case K::Partition:
      return "partition (" + text(j, "partitioner") + "): " + text(j, "saved") + " saved, " + text(j, "saved_bytes") +
             " bytes; forward " + text(j, "forward_nodes") + ", backward " + text(j, "backward_nodes") + " nodes";
    case K::BackwardCompiled: return "backward compiled at " + text(j, "when") + " (" + plural(integer(j, "guards", 0), "guard") + ")";
    case K::GuardCheck:
      return "Z3 " + text(j, "check") + ": " + text(j, "subject") + " -> " + text(j, "status") + (e.ms >= 0 ? " in " + formatMs(e.ms) : "");
    case K::KernelCompiled: {
      const auto n = static_cast<int64_t>(items(j, "nodes").size());
      std::string s = "kernel " + text(j, "kernel") + " (" + text(j, "kind") + ", " + plural(n, "node") + "): ";
      if (e.kernelSource.empty()) return s + "eager, " + text(j, "why");
      return s + e.kernelSource + (e.kernelSource == "compiled" ? " " + formatMs(e.ms) : "");
    }
    case K::CompileAssumption:
      return "%" + text(j, "input") + " trusted as [" + text(j, "sizes") + "] by " + text(j, "kernel") + " (" + text(j, "check") + ")";
    case K::Other: break;
  }
  std::string s = e.name;
  for (size_t i = 0; i < e.fields.size() && i < 3; ++i) s += (i ? ", " : "  ") + e.fields[i].first + " " + e.fields[i].second;
  return s;
}

// The node an event names itself (its compile supplies the dump and graph when it names none).
std::string nodeOf(const TimelineEvent& e, const Json& j) {
  using K = TimelineKind;
  switch (e.kind) {
    case K::GuardAdded:
    case K::LateGuard: return text(j, "node");
    case K::Specialization: return text(j, "node").empty() ? inputOfDimension(text(j, "input")) : text(j, "node");
    case K::SymbolCreated: return inputOfDimension(text(j, "source"));
    case K::CompileAssumption: return text(j, "input");
    case K::KernelCompiled: {
      const auto& nodes = items(j, "nodes");
      return !nodes.empty() && nodes.front().kind == Kind::String ? nodes.front().text() : "";
    }
    case K::Recompile: return e.failures.empty() ? "" : e.failures.front().target.node;
    default: return text(j, "node");
  }
}

void readFailures(TimelineEvent& e, const Json& j) {
  if (const TraceValue* f = j.find("failures"); f && f->kind == Kind::List) {
    for (const auto& item : f->items)
      if (item.kind == Kind::Object) e.failures.push_back(failingGuardFromJson(item));
    return;
  }
  for (const auto& item : items(j, "failing_guards"))  // logs written before "failures"
    if (item.kind == Kind::String) e.failures.push_back(failingGuardFromText(item.text()));
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

TimelineEvent decodeTimelineEvent(const Json& j, int line) {
  TimelineEvent e;
  e.name = text(j, "event");
  e.kind = timelineKindOf(e.name);
  e.line = line;
  e.compileId = integer(j, "compile_id");
  e.stage = text(j, "stage");
  e.timeUs = integer(j, "time_us", 0);
  e.call = text(j, "call");
  e.ms = e.kind == TimelineKind::KernelCompiled ? number(j, "compile_ms") : number(j, "ms");
  if (e.kind == TimelineKind::KernelCompiled) e.kernelSource = text(j, "source");
  for (const auto& [key, value] : j.fields) {
    if (key == "event" || key == "compile_id" || key == "stage" || key == "time_us" || key == "failures" ||
        key == "failing_guards")
      continue;
    e.fields.emplace_back(key, value.text());
  }
  if (e.kind == TimelineKind::Recompile) readFailures(e, j);
  e.target.dump = text(j, "dump");
  e.target.graph = text(j, "graph");
  e.target.node = nodeOf(e, j);
  if (e.kind == TimelineKind::Recompile && !e.failures.empty()) e.target = e.failures.front().target;
  e.summary = summaryOf(e, j);
  return e;
}

}  // namespace fathom::viz
