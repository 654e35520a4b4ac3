#include "minifier/Worker.h"

#include "engine/ops/cpu/ComputeThreads.h"
#include "minifier/Zygote.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace fathom::minify {
namespace {

using Clock = std::chrono::steady_clock;

constexpr bool kUnderAddressSanitizer =
#if defined(__SANITIZE_ADDRESS__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

// The process's address-space size now, in bytes (0 when unknown).
uint64_t addressSpaceBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

void writeAll(int fd, const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

// Its own process group (Ctrl-C at the terminal reaches the minifier, not its workers, and a kill
// of the group takes the probe's own subprocesses too), default handlers for the crash signals
// (a sanitizer's handler would turn a crash into an exit) and for SIGCHLD (the zygote's writes
// to its wake-up pipe), no core files, the memory limit on top of what it inherited, stdout
// silenced. Sends the verdict and _exits (no atexit handlers, no flushing of the parent's buffers).
[[noreturn]] void runWorkerChild(int fd, const std::function<Verdict()>& probe, const WorkerLimits& limits) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // no orphan outlives whoever forked it (a probe killed on a cluster node)
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGPIPE, SIGCHLD}) std::signal(sig, SIG_DFL);
  const rlimit noCore{0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);
  if (limits.memoryLimitMb && !kUnderAddressSanitizer) {
    const rlim_t bytes = addressSpaceBytes() + (static_cast<rlim_t>(limits.memoryLimitMb) << 20);
    const rlimit as{bytes, bytes};
    ::setrlimit(RLIMIT_AS, &as);
  }
  setComputeThreads(limits.threads > 0 ? limits.threads : static_cast<int>(std::thread::hardware_concurrency()));
  if (int devnull = ::open("/dev/null", O_RDWR); devnull >= 0) {
    ::dup2(devnull, STDIN_FILENO);
    ::dup2(devnull, STDOUT_FILENO);
  }
  std::string message;
  try {
    Verdict v = probe();
    message = (v.fails ? "Y" : "N") + v.what;
  } catch (const std::bad_alloc&) {
    message = "Mran out of memory";
  } catch (const std::exception& e) {
    message = std::string("Nthrew: ") + e.what();
  }
  writeAll(fd, message.substr(0, 4096));
  ::_exit(0);
}

namespace {

struct Child {
  size_t index = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string received;
  Clock::time_point started;
  std::optional<Clock::time_point> deadline;
  // A child of the zygote: its task, kept to run again from here should the zygote die before
  // saying how the child ended.
  std::shared_ptr<const WorkerTask> viaZygote;
};

Child started(size_t index, pid_t pid, int fd, const WorkerLimits& limits) {
  Child c{index, pid, fd, {}, Clock::now(), std::nullopt, nullptr};
  if (limits.timeoutSeconds > 0)
    c.deadline = c.started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.timeoutSeconds));
  return c;
}

// A child forked from this process, with `probe` (and what it captures) in memory.
std::optional<Child> spawnHere(size_t index, const std::function<Verdict()>& probe, const WorkerLimits& limits) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  std::fflush(nullptr);  // or the child would inherit (and could repeat) unwritten output
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    ::close(fds[0]);
    runWorkerChild(fds[1], probe, limits);
  }
  ::setpgid(pid, pid);  // also here: whichever of parent and child runs first
  ::close(fds[1]);
  return started(index, pid, fds[0], limits);
}

// Task `index` in a child: the zygote's when it lives and the task has bytes, else this process's.
std::optional<Child> spawn(size_t index, WorkerTask task, const WorkerSetup& setup) {
  if (setup.zygote && !task.wire.empty() && setup.zygote->alive()) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
    const std::optional<pid_t> pid = setup.zygote->spawn(task.wire, fds[1], setup.limits);
    ::close(fds[1]);
    if (pid) {
      Child c = started(index, *pid, fds[0], setup.limits);
      c.viaZygote = std::make_shared<const WorkerTask>(std::move(task));
      return c;
    }
    ::close(fds[0]);  // the zygote is gone: from here on, this process forks
  }
  const Candidate& candidate = *task.candidate;
  return spawnHere(index, [&] { return setup.probe(candidate); }, setup.limits);
}

void kill(Child& c, Zygote* zygote) {
  if (c.viaZygote && zygote && zygote->alive()) {
    zygote->kill(c.pid);  // the zygote reaps its children: only it knows the pid is still theirs
  } else {
    ::kill(-c.pid, SIGKILL);
    ::kill(c.pid, SIGKILL);
    if (!c.viaZygote) ::waitpid(c.pid, nullptr, 0);
  }
  ::close(c.fd);
}

// How a child ended: what it sent, and its wait status.
WorkerResult resultOf(const std::string& received, int status) {
  WorkerResult r;
  if (!received.empty()) {
    const char code = received[0];
    r.verdict = Verdict{code == 'Y', received.substr(1)};
    if (code == 'M') r.end = WorkerEnd::OutOfMemory;
    return r;
  }
  r.end = WorkerEnd::Crashed;
  if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
    r.verdict.what = "crashed with " + signalName(r.signal);
  } else {
    r.verdict.what = "exited with status " + std::to_string(WEXITSTATUS(status)) + " without answering";
  }
  return r;
}

// A child whose pipe closed: how it ended; nothing for a child of a zygote that died before
// saying (the zygote appends the status when it reaps the child).
std::optional<WorkerResult> reap(Child& c) {
  int status = 0;
  if (c.viaZygote) {
    const std::optional<int> s = takeZygoteStatus(c.received);
    if (!s) return std::nullopt;
    status = *s;
  } else {
    ::waitpid(c.pid, &status, 0);
  }
  ::close(c.fd);
  return resultOf(c.received, status);
}

WorkerResult timedOut(Child& c, double seconds, Zygote* zygote) {
  kill(c, zygote);
  WorkerResult r;
  r.end = WorkerEnd::TimedOut;
  char text[64];
  std::snprintf(text, sizeof text, "did not finish in %g s", seconds);
  r.verdict.what = text;
  return r;
}

// The zygote died under child `c`: the orphan is killed and its task starts again, forked from
// here (nothing when it cannot: an answer "does not fail", as for any child that cannot start).
std::optional<Child> restartHere(Child& c, const WorkerSetup& setup) {
  ::kill(-c.pid, SIGKILL);
  ::kill(c.pid, SIGKILL);
  ::close(c.fd);
  setup.zygote->lost("a worker's answer came without its exit status");
  const Candidate& candidate = *c.viaZygote->candidate;
  return spawnHere(c.index, [&] { return setup.probe(candidate); }, setup.limits);
}

// Waits until some child finishes (or a deadline passes, or 100 ms for shouldStop), reading what
// the children send; returns the positions in `running` of those that are done, with results.
std::vector<std::pair<size_t, WorkerResult>> waitSome(std::vector<Child>& running, const WorkerSetup& setup) {
  std::vector<pollfd> fds;
  auto wait = std::chrono::milliseconds(100);
  const auto now = Clock::now();
  for (const auto& c : running) {
    fds.push_back({c.fd, POLLIN, 0});
    if (c.deadline) wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(*c.deadline - now) + std::chrono::milliseconds(1));
  }
  ::poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(wait.count(), 0)));
  std::vector<std::pair<size_t, WorkerResult>> done;
  for (size_t i = 0; i < running.size(); ++i) {
    Child& c = running[i];
    if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[4096];
      const ssize_t n = ::read(c.fd, buf, sizeof buf);
      if (n > 0) {
        c.received.append(buf, static_cast<size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (auto r = reap(c)) done.emplace_back(i, std::move(*r));
      else if (auto again = restartHere(c, setup)) c = std::move(*again);
      else done.emplace_back(i, WorkerResult{WorkerEnd::Answered, 0, Verdict{false, "could not start a worker"}});
    } else if (c.deadline && Clock::now() >= *c.deadline) {
      done.emplace_back(i, timedOut(c, setup.limits.timeoutSeconds, setup.zygote));
    }
  }
  return done;
}

InFlight inFlight(const std::vector<Child>& running) {
  InFlight f{running.size(), 0};
  const auto now = Clock::now();
  for (const auto& c : running) f.longestSeconds = std::max(f.longestSeconds, std::chrono::duration<double>(now - c.started).count());
  return f;
}

}  // namespace

bool oracleFails(const Oracle& oracle, const WorkerResult& r) {
  if (r.end == WorkerEnd::Answered) return r.verdict.fails;
  return oracle.lostWorkerFails && oracle.lostWorkerFails(r.end, r.signal);
}

std::string signalName(int signal) {
  if (const char* abbrev = ::sigabbrev_np(signal)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal);
}

WorkerResult runInWorker(const std::function<Verdict()>& probe, const WorkerLimits& limits) {
  auto child = spawnHere(0, probe, limits);
  if (!child) return WorkerResult{WorkerEnd::Crashed, 0, Verdict{false, std::string("could not start a worker: ") + std::strerror(errno)}};
  std::vector<Child> running{*child};
  for (;;) {
    auto done = waitSome(running, WorkerSetup{1, limits, nullptr, nullptr});
    if (!done.empty()) return done.front().second;
  }
}

namespace {

// The failing tasks among `count`, in order. With stopAtFirst, only the first (as if run one by
// one): later children are killed once an earlier task fails; without, every task runs.
std::vector<size_t> runTasks(size_t count, const WorkerSetup& setup, const WorkerCallbacks& cb, bool stopAtFirst) {
  const size_t jobs = std::max<size_t>(setup.jobs, 1);
  std::vector<Child> running;
  std::vector<size_t> failing;
  std::optional<size_t> best;  // stopAtFirst: the earliest failing task so far
  size_t next = 0;
  auto lastReport = Clock::now();
  auto stopAll = [&] {
    for (auto& c : running) kill(c, setup.zygote);
    running.clear();
  };
  auto found = [&](size_t i) {
    failing.push_back(i);
    if (stopAtFirst && (!best || i < *best)) best = i;
  };
  for (;;) {
    while (running.size() < jobs && next < count && (!best || next < *best)) {
      const size_t i = next++;
      WorkerTask t = cb.task(i);
      if (t.known || !t.candidate) {
        if (t.known.value_or(false)) found(i);
        continue;
      }
      auto child = spawn(i, std::move(t), setup);
      if (!child) continue;  // no process to run it in: an answer "does not fail", not a crash
      running.push_back(std::move(*child));
    }
    // Done when nothing runs, or when nothing before the first failure is still running.
    bool needed = false;
    for (const auto& c : running) needed |= !best || c.index < *best;
    if (!needed) {
      stopAll();
      break;
    }
    if (cb.shouldStop && cb.shouldStop()) {
      stopAll();
      return {};
    }
    if (cb.onWaiting && Clock::now() - lastReport >= std::chrono::milliseconds(100)) {
      cb.onWaiting(inFlight(running));
      lastReport = Clock::now();
    }
    auto done = waitSome(running, setup);
    std::vector<size_t> finished;
    for (auto& [pos, result] : done) {
      finished.push_back(pos);
      if (cb.onFinished) cb.onFinished(running[pos].index, result);
      if (cb.fails(result)) found(running[pos].index);
    }
    std::sort(finished.rbegin(), finished.rend());
    for (size_t pos : finished) running.erase(running.begin() + static_cast<std::ptrdiff_t>(pos));
    if (best)  // speculative children past the first failure are not needed
      for (size_t k = running.size(); k-- > 0;)
        if (running[k].index > *best) {
          kill(running[k], setup.zygote);
          running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
        }
  }
  std::sort(failing.begin(), failing.end());
  if (stopAtFirst && best) return {*best};
  return failing;
}

}  // namespace

WorkerResult runProbe(const std::function<Verdict()>& probe, bool isolate, const WorkerLimits& limits) {
  if (isolate) return runInWorker(probe, limits);
  return WorkerResult{WorkerEnd::Answered, 0, probe()};
}

WorkerResult runTask(WorkerTask task, const WorkerSetup& setup, const WorkerCallbacks& callbacks) {
  std::optional<WorkerResult> result;
  WorkerCallbacks one = callbacks;
  one.task = [&](size_t) { return std::move(task); };
  one.fails = [](const WorkerResult&) { return false; };
  one.onFinished = [&](size_t, const WorkerResult& r) { result = r; };
  one.shouldStop = nullptr;
  runTasks(1, WorkerSetup{1, setup.limits, setup.probe, setup.zygote}, one, false);
  if (!result) return WorkerResult{WorkerEnd::Crashed, 0, Verdict{false, std::string("could not start a worker: ") + std::strerror(errno)}};
  return *result;
}

std::optional<size_t> firstFailing(size_t count, const WorkerSetup& setup, const WorkerCallbacks& callbacks) {
  auto failing = runTasks(count, setup, callbacks, true);
  if (failing.empty()) return std::nullopt;
  return failing.front();
}

std::vector<size_t> allFailing(size_t count, const WorkerSetup& setup, const WorkerCallbacks& callbacks) {
  return runTasks(count, setup, callbacks, false);
}

}  // namespace fathom::minify
