// InterpSession's runs: creating the stages, starting each graph on its inputs, and the
// operations - step, continue, run to a node, restart (see InterpSession.h).
#include "viz/model/InterpSession.h"

#include <chrono>

#include "engine/core/Random.h"
#include "engine/graph/PartitionInfo.h"
#include "viz/model/InterpSessionStage.h"

namespace fathom::viz {
namespace {

bool cancelled(const CancelFlag* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

}  // namespace

InterpSession::InterpSession(std::shared_ptr<const Dump> dump, std::vector<Stage> stages, std::string graph)
    : dump_(std::move(dump)), stages_(std::move(stages)), graph_(std::move(graph)) {}

InterpSession::~InterpSession() = default;

Result<std::unique_ptr<InterpSession>> InterpSession::create(std::shared_ptr<const Dump> dump, const std::string& graph) {
  if (!dump || dump->graphs.empty()) return invalidInput("no dump to run");
  std::vector<std::string> names;
  const bool step = graph.empty() && dump->partition;
  if (step) names = {dump->partition->forward, dump->partition->backward, dump->partition->joint};
  else names = {graph.empty() ? dump->graphs.front().name : graph};
  std::vector<Stage> stages;
  for (const std::string& name : names) {
    const Graph* g = dump->graph(name);
    if (!g) return invalidInput("the dump has no graph '" + name + "'");
    CheckOptions check;
    check.graphName = name;
    check.keepIntermediates = true;  // the table shows any node already run
    Stage s;
    s.name = name;
    s.graph = g;
    s.session = std::make_unique<DebugSession>(*g, name, dump->shapeEnv.get(), std::vector<ExampleInput>{}, std::nullopt, check);
    stages.push_back(std::move(s));
  }
  return std::unique_ptr<InterpSession>(new InterpSession(std::move(dump), std::move(stages), step ? "" : names.front()));
}

std::vector<std::string> InterpSession::graphs() const {
  std::vector<std::string> out;
  for (const Stage& s : stages_) out.push_back(s.name);
  return out;
}

bool InterpSession::trainingStep() const { return stages_.size() > 1; }

int InterpSession::stageOf(const std::string& graph) const {
  for (size_t i = 0; i < stages_.size(); ++i)
    if (stages_[i].name == graph) return static_cast<int>(i);
  return -1;
}

size_t InterpSession::cursor() const {
  const Stage& s = stages_[current_];
  return s.started ? s.session->cursor() : 0;
}

std::string InterpSession::nodeName(size_t stage, size_t node) const {
  const Graph& g = *stages_[stage].graph;
  return node < g.size() ? "%" + g.nodes()[node].name : std::string("the end");
}

InterpState InterpSession::state() const {
  if (report_) return InterpState::Report;
  if (!started_) return InterpState::NotStarted;
  if (stageError_ || !stages_[current_].started) return InterpState::Failed;
  switch (stages_[current_].session->state()) {
    case SessionState::Failed: return InterpState::Failed;
    case SessionState::Finished: return InterpState::Finished;
    case SessionState::Ready: break;
  }
  return InterpState::Ready;
}

Status InterpSession::restart(const std::string& sizes) {
  auto drawn = drawRunInputs(*dump_, graph_, sizes);
  FATHOM_TRY(drawn);  // refused sizes: the run goes on as it was
  inputs_ = std::move(*drawn);
  sizes_ = sizes;
  report_.reset();
  for (Stage& s : stages_) s.started = false;
  stageError_.reset();
  started_ = true;
  ++generation_;
  nodeSeconds_ = 0;
  auto first = startStage(0);
  finish(InterpStop::None, 0, 0, first.ok() ? "inputs drawn" + (sizes.empty() ? std::string() : " at " + sizes) + "; before " +
                                                  nodeName(0, 0) : "");
  if (!first.ok()) message_ = first.error().str();
  return first;
}

Status InterpSession::startStage(size_t index) {
  current_ = index;
  Stage& s = stages_[index];
  ValueList inputs;
  if (index == 0) {
    inputs = inputs_.first;
  } else if (s.name == dump_->partition->backward) {
    auto b = backwardRunInputs(*dump_, stages_[0].session->interpreter().outputs(), inputs_.tangents);
    if (!b.ok()) {
      stageError_ = b.error().within("graph '" + s.name + "'");
      return *stageError_;
    }
    inputs = std::move(*b);
  } else {
    inputs = jointRunInputs(*dump_, inputs_.first, inputs_.tangents);
  }
  defaultGenerator().manualSeed(Generator::kDefaultSeed);  // dropout draws as in `fathom check`
  if (auto started = s.session->restartOn(std::move(inputs)); !started.ok()) {
    stageError_ = started.error().within("graph '" + s.name + "'");
    return *stageError_;
  }
  s.started = true;
  return {};
}

Status InterpSession::prepare() {
  report_.reset();
  progress_.store(0, std::memory_order_relaxed);
  nodeSeconds_ = 0;
  ++generation_;
  if (!started_) FATHOM_TRY(restart(sizes_));
  switch (state()) {
    case InterpState::Finished: return invalidInput("the run has finished; restart to run it again");
    case InterpState::Failed:
      return invalidInput("the run failed" + (stageError_ ? ": " + stageError_->str() : std::string()) + "; restart to run it again");
    default: return {};
  }
}

Result<StepResult> InterpSession::runNode() {
  Stage& s = stages_[current_];
  const auto t0 = std::chrono::steady_clock::now();
  auto r = s.session->stepOne();
  nodeSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  FATHOM_TRY(r);
  progress_.fetch_add(1, std::memory_order_relaxed);
  // The training step goes on into the next graph as soon as one ends.
  if (!r->failed() && s.session->done() && current_ + 1 < stages_.size()) (void)startStage(current_ + 1);
  return r;
}

bool InterpSession::atBreakpoint() const {
  const Stage& s = stages_[current_];
  return state() == InterpState::Ready && s.session->breakpointAt(s.session->cursor()) != nullptr;
}

InterpStop InterpSession::finish(InterpStop stop, size_t stage, int32_t node, std::string message) {
  stop_ = stop;
  focusStage_ = stage;
  focusNode_ = node;
  message_ = std::move(message);
  return stop;
}

// What the node just run (node `r.node` of stage `stage`) ends: a failure, new mismatches, a
// graph that could not start, the end; None when the run may go on.
InterpStop InterpSession::afterNode(const StepResult& r, size_t stage) {
  const auto node = static_cast<int32_t>(r.node);
  if (r.failure) return finish(InterpStop::Failure, stage, node, nodeName(stage, r.node) + " failed: " + r.failure->str());
  if (r.newMismatches > 0) {
    const Mismatch& m = stages_[stage].session->interpreter().mismatches()[r.firstMismatch];
    return finish(InterpStop::Mismatch, stage, node,
                  std::string(m.origin ? "ORIGIN" : "inherited") + " mismatch at " + nodeName(stage, r.node) + ": " + m.field +
                      " recorded " + m.expected + ", real " + m.actual);
  }
  if (stageError_) return finish(InterpStop::Failure, stage, node, stageError_->str());
  if (state() == InterpState::Finished) {
    const size_t last = stages_.size() - 1;
    return finish(InterpStop::End, last, static_cast<int32_t>(stages_[last].graph->size()) - 1, "the run finished");
  }
  return InterpStop::None;
}

Result<InterpStop> InterpSession::step(size_t count, const CancelFlag* cancel) {
  FATHOM_TRY(prepare());
  size_t ran = 0, found = 0;
  std::string last;
  for (; ran < count; ++ran) {
    if (ran > 0 && cancelled(cancel)) break;
    const size_t stage = current_;
    auto r = runNode();
    FATHOM_TRY(r);
    last = nodeName(stage, r->node);
    found += r->newMismatches;
    // A new mismatch does not end a step (the marks and the list show it); the rest does.
    StepResult ending = *r;
    ending.newMismatches = 0;
    if (InterpStop stop = afterNode(ending, stage); stop != InterpStop::None) return stop;
  }
  std::string what = ran == 1 ? "ran " + last : "ran " + std::to_string(ran) + " nodes, the last " + last;
  if (found > 0) what += " (" + std::to_string(found) + (found == 1 ? " new mismatch)" : " new mismatches)");
  return finish(ran < count ? InterpStop::Paused : InterpStop::Stepped, current_, static_cast<int32_t>(cursor()),
                what + "; before " + nodeName(current_, cursor()));
}

Result<InterpStop> InterpSession::continueRun(const CancelFlag* cancel) {
  FATHOM_TRY(prepare());
  while (true) {
    const size_t stage = current_;
    auto r = runNode();
    FATHOM_TRY(r);
    if (InterpStop stop = afterNode(*r, stage); stop != InterpStop::None) return stop;
    if (atBreakpoint()) {
      const Breakpoint* b = stages_[current_].session->breakpointAt(cursor());
      return finish(InterpStop::Breakpoint, current_, static_cast<int32_t>(cursor()),
                    "breakpoint " + std::to_string(b->id) + " (" + (b->op.empty() ? "%" + b->node : b->op) + ") before " +
                        nodeName(current_, cursor()));
    }
    if (cancelled(cancel))
      return finish(InterpStop::Paused, current_, static_cast<int32_t>(cursor()), "paused before " + nodeName(current_, cursor()));
  }
}

Result<InterpStop> InterpSession::runTo(const std::string& graph, const std::string& node, const CancelFlag* cancel) {
  const int target = stageOf(graph);
  if (target < 0) return invalidInput("graph '" + graph + "' is not part of this run");
  auto ref = stages_[static_cast<size_t>(target)].session->findNode(node);
  if (!ref) return invalidInput("no node '" + node + "' in graph '" + graph + "'");
  FATHOM_TRY(prepare());
  const auto stage = static_cast<size_t>(target), index = static_cast<size_t>(ref->index);
  if (stage < current_ || (stage == current_ && index < cursor()))
    return invalidInput(nodeName(stage, index) + " already ran in this run; restart to run to it again");
  for (bool first = true;; first = false) {
    if (!first && cancelled(cancel))
      return finish(InterpStop::Paused, current_, static_cast<int32_t>(cursor()), "paused before " + nodeName(current_, cursor()));
    if (!first && atBreakpoint() && !(current_ == stage && cursor() == index)) {
      const Breakpoint* b = stages_[current_].session->breakpointAt(cursor());
      return finish(InterpStop::Breakpoint, current_, static_cast<int32_t>(cursor()),
                    "breakpoint " + std::to_string(b->id) + " before " + nodeName(current_, cursor()));
    }
    const size_t at = current_;
    auto r = runNode();
    FATHOM_TRY(r);
    if (r->failure || stageError_) return afterNode(*r, at);
    if (at == stage && r->node == index) return finish(InterpStop::Target, at, ref->index, "ran to " + nodeName(at, index));
    if (state() == InterpState::Finished) return afterNode(*r, at);
  }
}

}  // namespace fathom::viz
