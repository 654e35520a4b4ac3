// The worker zygote (Android's name for a process that forks app processes from a warm, small
// image): forked at the start of a run, before the real values of the original's nodes exist,
// it forks every isolated query's worker from itself. A fork copies the page tables of the
// process forked, and the minifier, once it holds every intermediate value, is large: a query
// cost 40-75 ms more than in-process on the BERT-12 graphs (the fork, and the worker's copy-on-write
// faults on the heap it shares), 2-8 ms through the zygote, which is the size the minifier was
// before computing them (fathom_minify_bench, BM_QueryOverhead).
//
// Protocol, over a socket pair: the minifier sends a task (the bytes of a WireTask) with the
// write end of the worker's result pipe (SCM_RIGHTS) and the limits; the zygote forks a worker
// that runs `run(task)` through runWorkerChild (limits, verdict into the pipe) and answers with
// its pid. The minifier reads the verdict from the pipe as from its own children; it is not the
// worker's parent, so the zygote reaps the worker and appends its wait status to the pipe (then
// closes it): takeZygoteStatus. Kills go through the zygote too (kill(pid)): only it knows
// whether the pid is still its unreaped child. When the socket closes (the run ends, or the
// minifier dies) the zygote kills its workers, reaps them and exits.
//
// A zygote that dies (a bug, the OOM killer) is noticed when a task cannot be sent or a worker's
// pipe ends without a status; the run goes on forking from the minifier itself (lost()).
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "minifier/Worker.h"

namespace fathom::minify {

class Zygote {
 public:
  using Run = std::function<Verdict(std::string_view task)>;

  // Forks the zygote now, with `run` as its workers' body; null when it cannot start (onLost
  // says why). onLost is called once, with the reason, when the zygote is lost.
  static std::unique_ptr<Zygote> start(Run run, std::function<void(const std::string&)> onLost);
  ~Zygote();  // the zygote kills its workers and exits; reaped here
  Zygote(const Zygote&) = delete;
  Zygote& operator=(const Zygote&) = delete;

  // A worker on `task` answering into `resultFd` (the zygote's copy; the caller closes its own);
  // its pid, or nothing when the zygote is gone.
  std::optional<pid_t> spawn(std::string_view task, int resultFd, const WorkerLimits& limits);
  // Kills worker `pid` (its process group) if it still runs.
  void kill(pid_t pid);
  bool alive() const { return socket_ >= 0; }
  pid_t pid() const { return pid_; }
  // The zygote is no use any more (it died): it is killed, reaped, and onLost told why.
  void lost(const std::string& why);

 private:
  Zygote(pid_t pid, int socket, std::function<void(const std::string&)> onLost) : pid_(pid), socket_(socket), onLost_(std::move(onLost)) {}
  bool send(const void* data, size_t size, int fd);

  pid_t pid_;
  int socket_;  // -1 once lost
  std::function<void(const std::string&)> onLost_;
};

// A worker of the zygote: its wait status, from the end of what its pipe carried (removed from
// `received`); nothing when the zygote died before appending it.
std::optional<int> takeZygoteStatus(std::string& received);

}  // namespace fathom::minify
