// Worker subprocesses for the minifier's isolated mode: each candidate's probe runs in a forked
// child with a time limit and an address-space limit, so a segfault, hang or OOM of the code
// under test ends that child, not the minifier. The child sends back one verdict byte and a line
// of text through a pipe. A child is forked by the run's zygote (Zygote.h: a small process
// started before the real values existed, given the task as bytes) when there is one, else by
// this process, with the candidate already in memory - the fallback when the zygote is gone or
// the task cannot travel as bytes.
//
// firstFailing() runs up to `jobs` children at once over an ordered list of tasks and returns the
// first task (in list order) that fails - exactly what running them one by one would return, but
// later tasks are already running speculatively while earlier ones finish; children past a
// failing task are killed.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "minifier/Minify.h"

namespace fathom::minify {

class Zygote;

struct WorkerLimits {
  double timeoutSeconds = 0;  // 0: none
  size_t memoryLimitMb = 0;   // 0: none (and always none under AddressSanitizer)
  int threads = 0;            // compute threads per worker; 0: the machine's cores
};

// How one task ended: the child's verdict, or how the child ended without one.
struct WorkerResult {
  WorkerEnd end = WorkerEnd::Answered;
  int signal = 0;  // Crashed: the signal (0: it exited without answering)
  Verdict verdict;
};

// What the caller knows about task i before running it: a known answer (from its cache, or
// "not smaller, no need to ask"), or a candidate to run - and the same as the zygote's bytes
// (WireTask.h; empty: it cannot travel, this process forks its child).
struct WorkerTask {
  std::optional<bool> known;
  std::optional<Candidate> candidate;
  std::string wire;
};

struct WorkerCallbacks {
  std::function<WorkerTask(size_t)> task;                          // built lazily, in order
  std::function<bool(const WorkerResult&)> fails;                  // a finished child's answer
  std::function<void(size_t, const WorkerResult&)> onFinished;     // every child that finished
  std::function<bool()> shouldStop;                                // checked while waiting
  std::function<void(const InFlight&)> onWaiting;                  // about every 100 ms of waiting
};

// Where and how the children run.
struct WorkerSetup {
  size_t jobs = 1;
  WorkerLimits limits;
  std::function<Verdict(const Candidate&)> probe;  // what a child forked from this process runs
  Zygote* zygote = nullptr;  // forks the children of tasks with bytes while it lives; null: none
};

// Runs one probe in a child forked from this process and waits for it (the original's check
// before a run).
WorkerResult runInWorker(const std::function<Verdict()>& probe, const WorkerLimits& limits);
// runInWorker when isolated, else the probe here: one candidate asked the way the run asks all.
WorkerResult runProbe(const std::function<Verdict()>& probe, bool isolate, const WorkerLimits& limits);
// One task in a child, waited for (shouldStop is not asked: the original, a re-verification).
WorkerResult runTask(WorkerTask task, const WorkerSetup& setup, const WorkerCallbacks& callbacks);

// The first of `count` tasks (in order) that fails, as if run one by one; nullopt when none does
// or when shouldStop() turned true (then every child is killed).
std::optional<size_t> firstFailing(size_t count, const WorkerSetup& setup, const WorkerCallbacks& callbacks);

// Every failing task of `count`, in order: all of them run (a batch of a parallel pass).
std::vector<size_t> allFailing(size_t count, const WorkerSetup& setup, const WorkerCallbacks& callbacks);

// The body of every worker child, whoever forked it: its own process group, the limits, stdout
// silenced; runs `probe` and writes the verdict to `fd`, then _exits.
[[noreturn]] void runWorkerChild(int fd, const std::function<Verdict()>& probe, const WorkerLimits& limits);

// What a worker's end says about its candidate: its answer, or - crashed, timed out, out of
// memory - what the oracle's lostWorkerFails makes of that.
bool oracleFails(const Oracle& oracle, const WorkerResult& r);

// "SIGSEGV", "signal 42".
std::string signalName(int signal);

}  // namespace fathom::minify
