#include "minifier/Worker.h"

#include "engine/ops/cpu/ComputeThreads.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
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

// The child: its own process group (Ctrl-C at the terminal reaches the minifier, not its workers,
// and a kill of the group takes the probe's own subprocesses too), default handlers for the
// crash signals (a sanitizer's handler would turn a crash into an exit), no core files, the
// memory limit on top of what it inherited, stdout silenced. Sends the verdict and _exits
// (no atexit handlers, no flushing of the parent's buffers).
[[noreturn]] void childMain(int fd, const std::function<Verdict()>& probe, const WorkerLimits& limits) {
  ::setpgid(0, 0);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGPIPE}) std::signal(sig, SIG_DFL);
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

struct Child {
  size_t index = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string received;
  std::optional<Clock::time_point> deadline;
};

std::optional<Child> spawn(size_t index, const std::function<Verdict()>& probe, const WorkerLimits& limits) {
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
    childMain(fds[1], probe, limits);
  }
  ::setpgid(pid, pid);  // also here: whichever of parent and child runs first
  ::close(fds[1]);
  Child c{index, pid, fds[0], {}, std::nullopt};
  if (limits.timeoutSeconds > 0)
    c.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.timeoutSeconds));
  return c;
}

void kill(Child& c) {
  ::kill(-c.pid, SIGKILL);
  ::kill(c.pid, SIGKILL);
  ::waitpid(c.pid, nullptr, 0);
  ::close(c.fd);
}

// A child whose pipe closed: how it ended.
WorkerResult reap(Child& c) {
  int status = 0;
  ::waitpid(c.pid, &status, 0);
  ::close(c.fd);
  WorkerResult r;
  if (!c.received.empty()) {
    const char code = c.received[0];
    r.verdict = Verdict{code == 'Y', c.received.substr(1)};
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

WorkerResult timedOut(Child& c, double seconds) {
  kill(c);
  WorkerResult r;
  r.end = WorkerEnd::TimedOut;
  char text[64];
  std::snprintf(text, sizeof text, "did not finish in %g s", seconds);
  r.verdict.what = text;
  return r;
}

// Waits until some child finishes (or a deadline passes, or 100 ms for shouldStop), reading what
// the children send; returns the positions in `running` of those that are done, with results.
std::vector<std::pair<size_t, WorkerResult>> waitSome(std::vector<Child>& running, const WorkerLimits& limits) {
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
      done.emplace_back(i, reap(c));
    } else if (c.deadline && Clock::now() >= *c.deadline) {
      done.emplace_back(i, timedOut(c, limits.timeoutSeconds));
    }
  }
  return done;
}

}  // namespace

std::string signalName(int signal) {
  if (const char* abbrev = ::sigabbrev_np(signal)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal);
}

WorkerResult runInWorker(const std::function<Verdict()>& probe, const WorkerLimits& limits) {
  auto child = spawn(0, probe, limits);
  if (!child) return WorkerResult{WorkerEnd::Crashed, 0, Verdict{false, std::string("could not start a worker: ") + std::strerror(errno)}};
  std::vector<Child> running{*child};
  for (;;) {
    auto done = waitSome(running, limits);
    if (!done.empty()) return done.front().second;
  }
}

namespace {

// The failing tasks among `count`, in order. With stopAtFirst, only the first (as if run one by
// one): later children are killed once an earlier task fails; without, every task runs.
std::vector<size_t> runTasks(size_t count, size_t jobs, const WorkerLimits& limits, const std::function<Verdict(const Candidate&)>& probe,
                             const WorkerCallbacks& cb, bool stopAtFirst) {
  jobs = std::max<size_t>(jobs, 1);
  std::vector<Child> running;
  std::vector<size_t> failing;
  std::optional<size_t> best;  // stopAtFirst: the earliest failing task so far
  size_t next = 0;
  auto stopAll = [&] {
    for (auto& c : running) kill(c);
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
      // The child gets the candidate with the fork: nothing to keep once it runs.
      const Candidate c = std::move(*t.candidate);
      auto child = spawn(i, [&] { return probe(c); }, limits);
      if (!child) continue;  // no process to run it in: an answer "does not fail", not a crash
      running.push_back(*child);
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
    auto done = waitSome(running, limits);
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
          kill(running[k]);
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

std::optional<size_t> firstFailing(size_t count, size_t jobs, const WorkerLimits& limits, const std::function<Verdict(const Candidate&)>& probe,
                                   const WorkerCallbacks& callbacks) {
  auto failing = runTasks(count, jobs, limits, probe, callbacks, true);
  if (failing.empty()) return std::nullopt;
  return failing.front();
}

std::vector<size_t> allFailing(size_t count, size_t jobs, const WorkerLimits& limits, const std::function<Verdict(const Candidate&)>& probe,
                               const WorkerCallbacks& callbacks) {
  return runTasks(count, jobs, limits, probe, callbacks, false);
}

}  // namespace fathom::minify
