#include "app/Stepper.h"

#include <charconv>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

#include "app/CliCommon.h"
#include "engine/graph/GraphPrinter.h"
#include "engine/interp/FakeRealTable.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::cli {
namespace {

constexpr size_t kListContext = 5;  // `list` shows this many nodes either side of the cursor

std::vector<std::string> splitWords(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::optional<int64_t> parsePositive(const std::string& text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value <= 0) return std::nullopt;
  return value;
}

void printRow(const std::string& field, const std::string& recorded, const std::string& real, bool bad) {
  char line[64];
  std::snprintf(line, sizeof line, "  %-20s", field.c_str());
  std::string rec = recorded;
  if (rec.size() < 34) rec.resize(34, ' ');
  std::cout << line << rec << " " << real << (bad ? "   <- MISMATCH" : "") << "\n";
}

}  // namespace

std::string Stepper::nodeLine(size_t index, bool aligned) const {
  const Node& node = graph().nodes()[index];
  std::string at = "[" + std::to_string(index) + "] ";
  if (aligned) at.insert(0, std::to_string(graph().size() - 1).size() + 3 - at.size(), ' ');
  if (node.kind == NodeKind::Call) return at + "%" + node.name + " = " + formatCall(graph(), node);
  if (node.kind == NodeKind::Placeholder) return at + "%" + node.name + " = placeholder";
  return at + formatNode(graph(), node);
}

bool Stepper::execute(const std::string& rawLine) {
  std::string line = rawLine;
  if (line.find_first_not_of(" \t") == std::string::npos) line = lastCommand_;  // Enter repeats
  const Args words = splitWords(line);
  if (words.empty() || words[0][0] == '#') return true;
  lastCommand_ = line;
  const std::string& cmd = words[0];
  const Args args(words.begin() + 1, words.end());
  auto noArgs = [&] {
    if (args.empty()) return true;
    std::cout << cmd << ": takes no arguments\n";
    return false;
  };
  if (cmd == "next" || cmd == "n") next(args);
  else if (cmd == "continue" || cmd == "c") { if (noArgs()) cont(); }
  else if (cmd == "break" || cmd == "b") addBreak(args);
  else if (cmd == "delete" || cmd == "d") deleteBreak(args);
  else if (cmd == "print" || cmd == "p") print(args);
  else if (cmd == "where" || cmd == "w") { if (noArgs()) where(); }
  else if (cmd == "list" || cmd == "l") { if (noArgs()) list(); }
  else if (cmd == "help" || cmd == "h") help();
  else if (cmd == "quit" || cmd == "q") return false;
  else if (cmd == "restart") {
    if (!noArgs()) return true;
    if (auto s = session_.restart(); !s.ok()) {
      std::cout << "error: " << s.error().str() << "\n";
      return true;
    }
    std::cout << "restarted with the same inputs; before " << nodeLine(0) << "\n";
  } else {
    std::cout << "unknown command '" << cmd << "' (type 'help' for the commands)\n";
  }
  return true;
}

bool Stepper::canRun() const {
  if (session_.failed()) {
    std::cout << "the last node failed to execute; 'restart' to run the graph again\n";
    return false;
  }
  if (session_.done()) {
    std::cout << "the graph has finished; 'restart' to run it again\n";
    return false;
  }
  return true;
}

bool Stepper::step(bool echo) {
  auto step = session_.stepOne();
  if (!step.ok()) return false;  // canRun() said it could
  printStep(*step, echo);
  return !step->failed();
}

void Stepper::printStep(const StepResult& step, bool echo) const {
  if (step.failure) {
    std::cout << nodeLine(step.node) << "\n  error: " << step.failure->str() << "\n";
    return;
  }
  if (!echo && step.newMismatches == 0) return;
  std::cout << nodeLine(step.node) << "\n";
  const auto& all = interp().mismatches();
  for (size_t i = step.firstMismatch; i < step.firstMismatch + step.newMismatches; ++i) {
    const Mismatch& m = all[i];
    const char* kind = m.op == "placeholder" ? "input: the real input is not what the graph recorded"
                       : m.origin              ? "origin: this op's meta or kernel"
                                               : "inherited: an input already mismatched";
    std::cout << "  MISMATCH (" << kind << ") " << m.field << ": recorded " << m.expected << ", real " << m.actual << "\n";
  }
}

void Stepper::printFinished() const {
  size_t origins = 0;
  for (const auto& m : interp().mismatches()) origins += m.origin ? 1 : 0;
  std::cout << "graph '" << session_.graphName() << "' finished: " << graph().size() << " nodes run, "
            << interp().checkedNodes() << " checked, " << interp().mismatches().size() << " mismatch"
            << (interp().mismatches().size() == 1 ? "" : "es") << " (" << origins << " origin)\n";
}

void Stepper::next(const Args& args) {
  const auto count = args.empty() ? std::optional<int64_t>(1) : args.size() == 1 ? parsePositive(args[0]) : std::nullopt;
  if (!count) {
    std::cout << "next: expected a positive number of nodes, as in 'next 3'\n";
    return;
  }
  if (!canRun()) return;
  for (int64_t i = 0; i < *count && !interp().done(); ++i)
    if (!step(true)) return;
  if (interp().done()) printFinished();
}

void Stepper::cont() {
  if (!canRun()) return;
  auto run = session_.runToBreak();
  if (!run.ok()) return;  // canRun() said it could
  printStep(run->last, false);
  switch (run->reason) {
    case StopReason::Failure: return;
    case StopReason::Mismatch:
      std::cout << "stopped after a mismatch; 'print %" << graph().nodes()[run->last.node].name << "' shows the node\n";
      return;
    case StopReason::End: printFinished(); return;
    case StopReason::Breakpoint:
      std::cout << "breakpoint " << run->breakpoint << ", before " << nodeLine(session_.cursor()) << "\n";
      return;
  }
}

void Stepper::addBreak(const Args& args) {
  if (args.empty()) {
    if (session_.breakpoints().empty()) std::cout << "no breakpoints\n";
    for (const auto& b : session_.breakpoints())
      std::cout << "  " << b.id << "  " << (b.op.empty() ? "node %" + b.node : "op " + b.op) << "\n";
    return;
  }
  if (args.size() > 1) {
    std::cout << "break: expected one node (%add_3) or op (aten.add.Tensor)\n";
    return;
  }
  auto added = session_.addBreakpoint(args[0]);
  if (!added.ok()) {
    std::cout << "break: " << added.error().message << " ('list' shows the nodes)\n";
    return;
  }
  const Breakpoint& b = added->breakpoint;
  if (!added->isNew) {
    std::cout << "breakpoint " << b.id << " already breaks there\n";
    return;
  }
  std::cout << "breakpoint " << b.id << ": before " << (b.op.empty() ? "%" + b.node : "every " + b.op) << "\n";
}

void Stepper::deleteBreak(const Args& args) {
  auto id = args.size() == 1 ? parsePositive(args[0]) : std::nullopt;
  if (!id) {
    std::cout << "delete: expected a breakpoint number ('break' lists them)\n";
    return;
  }
  if (*id <= std::numeric_limits<int>::max() && session_.removeBreakpoint(static_cast<int>(*id)))
    std::cout << "deleted breakpoint " << *id << "\n";
  else
    std::cout << "delete: no breakpoint " << *id << " ('break' lists them)\n";
}

void Stepper::print(const Args& args) {
  if (args.size() != 1) {
    std::cout << "print: expected one node, as in 'print %add_3'\n";
    return;
  }
  auto ref = session_.findNode(args[0]);
  if (!ref) {
    std::cout << "print: no node '" << args[0] << "' in graph '" << session_.graphName() << "' ('list' shows the nodes)\n";
    return;
  }
  const size_t index = static_cast<size_t>(ref->index);
  const Node& node = graph().node(*ref);
  if (index >= interp().cursor()) {
    std::cout << "print: %" << node.name << " has not run yet; 'next' or 'continue' to run it\n";
    return;
  }
  std::cout << nodeLine(index) << "\n";
  if (node.kind == NodeKind::Output) {
    for (size_t i = 0; i < interp().outputs().size(); ++i) {
      std::cout << "  output " << i << ":\n";
      printTable(node, Value{}, interp().outputs()[i]);
    }
    return;
  }
  printRow("", "recorded", "real", false);
  printTable(node, node.val, interp().value(*ref));
  if (node.val.isNone()) std::cout << "  not checked: no recorded meta\n";
  else std::cout << (interp().matched(*ref) ? "  matches its recorded meta\n" : "  MISMATCH (see the rows marked)\n");
}

// One row per field (engine/interp/FakeRealTable.h); a row is marked when the interpreter
// reported a mismatch for it.
void Stepper::printTable(const Node& node, const Value& recorded, const Value& real) const {
  for (const FakeRealRow& r : fakeRealRows(interp(), node, recorded, real)) printRow(r.field, r.recordedText(), r.real, r.mismatch);
}

void Stepper::where() const {
  const auto& nodes = graph().nodes();
  const sym::ShapeEnv* env = session_.shapeEnv();
  const bool done = interp().done();
  const size_t index = done ? nodes.size() - 1 : interp().cursor();
  const Node& node = nodes[index];
  std::cout << (done ? "finished; last node run: " : "before ") << nodeLine(index) << "\n";
  auto orUnknown = [](const std::string& s) { return s.empty() ? std::string("(unknown)") : s; };
  std::cout << "  source  " << orUnknown(node.provenance.source) << "\n  module  " << orUnknown(node.provenance.module)
            << "\n  stage   " << orUnknown(node.stage) << "\n";
  if (!env || env->symbols().empty()) {
    std::cout << "  symbols: none (a static trace)\n";
    return;
  }
  std::cout << "  symbols:";
  for (size_t i = 0; i < env->symbols().size(); ++i) {
    const auto symbol = static_cast<int32_t>(i);
    std::cout << (i ? ", " : " ") << env->symbols()[i].name;
    if (auto v = interp().symbolValue(symbol)) std::cout << " = " << *v;
    else if (auto r = env->replacements().find(symbol); r != env->replacements().end())
      std::cout << " -> " << r->second.str() << " (replaced when traced)";
    else std::cout << " unbound (no input read so far binds it)";
  }
  std::cout << "\n";
}

void Stepper::list() const {
  const size_t cursor = interp().cursor(), size = graph().size();
  const size_t from = cursor > kListContext ? cursor - kListContext : 0;
  const size_t to = std::min(size, cursor + kListContext + 1);
  for (size_t i = from; i < to; ++i) {
    const bool ran = i < cursor;
    const char* status = ran && !interp().matched(NodeRef{static_cast<int32_t>(i)}) ? "!" : " ";
    std::cout << (i == cursor ? "=>" : "  ") << (session_.breakpointAt(i) ? "B" : " ") << status << " " << nodeLine(i, true) << "\n";
  }
  if (cursor >= size) std::cout << "=>   (end of graph)\n";
}

void Stepper::help() {
  std::cout << "commands:\n"
               "  next [N]       (n)  run N nodes (default 1), printing each and its mismatches\n"
               "  continue       (c)  run until a breakpoint, a mismatch or the end\n"
               "  break NODE|OP  (b)  break before a node (%add_3 or add_3) or any node of an op (aten.add.Tensor)\n"
               "  break               list the breakpoints\n"
               "  delete N       (d)  delete breakpoint N\n"
               "  print NODE     (p)  recorded vs real layout of a node already run, and a summary of its values\n"
               "  where          (w)  the next node's source line, module path and stage; the symbol binding\n"
               "  list           (l)  the nodes around the cursor (=> cursor, B breakpoint, ! mismatch)\n"
               "  restart             run again from the start with the same inputs (breakpoints kept)\n"
               "  quit           (q)  end the session (exit 1 if any mismatch was seen)\n"
               "  help           (h)  this list; an empty line repeats the last command\n";
}

void Stepper::printEnd() const {
  const size_t seen = session_.mismatchesSeen(), failures = session_.failures();
  std::cout << "end of session: " << seen << " mismatch" << (seen == 1 ? "" : "es") << " seen";
  if (failures) std::cout << ", " << failures << " node" << (failures == 1 ? "" : "s") << " failed to execute";
  std::cout << "\n";
}

}  // namespace fathom::cli
