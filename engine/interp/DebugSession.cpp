#include "engine/interp/DebugSession.h"

#include "engine/interp/ExampleInputs.h"

namespace fathom {

DebugSession::DebugSession(const Graph& graph, std::string graphName, const sym::ShapeEnv* env,
                           std::vector<ExampleInput> inputs, std::optional<uint64_t> seed, CheckOptions check)
    : graph_(graph),
      graphName_(std::move(graphName)),
      env_(env),
      inputs_(std::move(inputs)),
      seed_(seed),
      check_(std::move(check)) {}

DebugSession::~DebugSession() = default;

Status DebugSession::restart() {
  auto tensors = materializeInputs(inputs_, seed_);
  if (!tensors.ok()) {
    failed_ = true;
    return std::move(tensors.error());
  }
  return restartOn(std::move(*tensors));
}

Status DebugSession::restartOn(ValueList inputs) {
  interp_ = std::make_unique<DebugInterpreter>(graph_, check_);
  auto started = interp_->start(std::move(inputs));
  failed_ = !started.ok();
  return started;
}

SessionState DebugSession::state() const {
  if (failed_ || !interp_) return SessionState::Failed;
  return interp_->done() ? SessionState::Finished : SessionState::Ready;
}

Status DebugSession::checkReady() const {
  if (!interp_) return internalError("the debug session has not started: call restart() first");
  switch (state()) {
    case SessionState::Failed: return invalidInput("the last node failed to execute; restart to run the graph again");
    case SessionState::Finished: return invalidInput("the graph has finished; restart to run it again");
    case SessionState::Ready: break;
  }
  return {};
}

Result<StepResult> DebugSession::stepOne() {
  FATHOM_TRY(checkReady());
  StepResult r;
  r.node = interp_->cursor();
  r.firstMismatch = interp_->mismatches().size();
  if (auto s = interp_->step(); !s.ok()) {
    failed_ = true;
    ++failures_;
    r.failure = std::move(s.error());
    return r;
  }
  r.newMismatches = interp_->mismatches().size() - r.firstMismatch;
  mismatchesSeen_ += r.newMismatches;
  return r;
}

Result<RunResult> DebugSession::runToBreak() {
  FATHOM_TRY(checkReady());
  RunResult run;
  do {
    auto step = stepOne();
    FATHOM_TRY(step);
    run.last = std::move(*step);
    ++run.nodesRun;
    if (run.last.failed()) {
      run.reason = StopReason::Failure;
      return run;
    }
    if (run.last.newMismatches > 0) {
      run.reason = StopReason::Mismatch;
      return run;
    }
  } while (!interp_->done() && !breakpointAt(interp_->cursor()));
  if (const Breakpoint* b = interp_->done() ? nullptr : breakpointAt(interp_->cursor())) {
    run.reason = StopReason::Breakpoint;
    run.breakpoint = b->id;
  }
  return run;
}

std::optional<NodeRef> DebugSession::findNode(std::string_view name) const {
  if (!name.empty() && name[0] == '%') name.remove_prefix(1);
  return graph_.find(name);
}

Result<AddedBreakpoint> DebugSession::addBreakpoint(std::string_view target) {
  Breakpoint b;
  if (auto ref = findNode(target)) {
    b.node = graph_.node(*ref).name;
  } else {
    size_t uses = 0;
    for (const auto& n : graph_.nodes()) uses += n.target == target ? 1 : 0;
    if (uses == 0) return invalidInput("no node or op '" + std::string(target) + "' in graph '" + graphName_ + "'");
    b.op = std::string(target);
  }
  for (const auto& other : breakpoints_)
    if (other.node == b.node && other.op == b.op) return AddedBreakpoint{other, false};
  b.id = nextBreakpointId_++;
  breakpoints_.push_back(b);
  return AddedBreakpoint{std::move(b), true};
}

bool DebugSession::removeBreakpoint(int id) {
  for (auto it = breakpoints_.begin(); it != breakpoints_.end(); ++it)
    if (it->id == id) {
      breakpoints_.erase(it);
      return true;
    }
  return false;
}

const Breakpoint* DebugSession::breakpointAt(size_t index) const {
  const Node& node = graph_.nodes()[index];
  for (const auto& b : breakpoints_)
    if (b.node == node.name || (!b.op.empty() && b.op == node.target)) return &b;
  return nullptr;
}

}  // namespace fathom
