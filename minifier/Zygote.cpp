#include "minifier/Zygote.h"

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>

namespace fathom::minify {
namespace {

enum class Kind : uint32_t { Spawn, Kill };

struct Request {
  Kind kind = Kind::Spawn;
  int32_t pid = 0;         // Kill: the worker
  uint64_t taskBytes = 0;  // Spawn: the task's bytes, which follow
  uint64_t memoryLimitMb = 0;
  int32_t threads = 0;
};

// What ends the pipe of a worker the zygote reaped: this mark, then the int32 wait status.
constexpr char kStatusMark[4] = {'\0', 'Z', 'y', 'g'};
constexpr size_t kStatusBytes = sizeof kStatusMark + sizeof(int32_t);

bool readAll(int fd, void* data, size_t size) {
  auto* at = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// MSG_NOSIGNAL: a dead zygote is an error here, not a SIGPIPE that ends the minifier.
bool sendAll(int socket, const void* data, size_t size) {
  const auto* at = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::send(socket, at, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// --- the zygote process ----------------------------------------------------------------------

int gWake = -1;  // written by the SIGCHLD handler: wakes the zygote's poll to reap
extern "C" void onChildEnded(int) {
  const int saved = errno;
  [[maybe_unused]] ssize_t n = ::write(gWake, "c", 1);
  errno = saved;
}

struct ZygoteState {
  int control;
  int wake[2];
  std::map<pid_t, int> workers;  // unreaped worker -> the write end of its result pipe
  const Zygote::Run& run;
};

// Every ended worker: its status appended to its pipe, which then closes.
void reapWorkers(ZygoteState& z) {
  int status = 0;
  for (pid_t pid; (pid = ::waitpid(-1, &status, WNOHANG)) > 0;) {
    auto it = z.workers.find(pid);
    if (it == z.workers.end()) continue;
    char trailer[kStatusBytes];
    const int32_t s = status;
    std::memcpy(trailer, kStatusMark, sizeof kStatusMark);
    std::memcpy(trailer + sizeof kStatusMark, &s, sizeof s);
    [[maybe_unused]] ssize_t n = ::write(it->second, trailer, sizeof trailer);  // EPIPE: nobody waits for it any more
    ::close(it->second);
    z.workers.erase(it);
  }
}

// A Request and the fd that came with it (-1: none); false when the minifier closed the socket.
bool receive(int control, Request& r, int& fd) {
  fd = -1;
  alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))];
  iovec io{&r, sizeof r};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  m.msg_control = space;
  m.msg_controllen = sizeof space;
  ssize_t n;
  while ((n = ::recvmsg(control, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {  // a worker's exec'd scripts do not keep it
  }
  if (n <= 0) return false;
  if (cmsghdr* c = CMSG_FIRSTHDR(&m); c && c->cmsg_type == SCM_RIGHTS) std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return readAll(control, reinterpret_cast<char*>(&r) + n, sizeof r - static_cast<size_t>(n));
}

// Forks the worker of one task; its pid (or -errno) goes back to the minifier. False when the
// minifier is gone.
bool spawnWorker(ZygoteState& z, const Request& r, int fd) {
  std::string task(r.taskBytes, '\0');
  if (!readAll(z.control, task.data(), task.size())) {
    if (fd >= 0) ::close(fd);
    return false;
  }
  const pid_t pid = fd >= 0 ? ::fork() : (errno = EBADF, -1);
  if (pid == 0) {
    std::signal(SIGCHLD, SIG_DFL);  // before closing the wake pipe the handler writes to
    ::close(z.control);
    ::close(z.wake[0]);
    ::close(z.wake[1]);
    for (const auto& [other, otherFd] : z.workers) ::close(otherFd);  // or their pipes would end with this worker
    runWorkerChild(fd, [&] { return z.run(task); }, WorkerLimits{0, r.memoryLimitMb, r.threads});
  }
  const int32_t answer = pid > 0 ? pid : -errno;
  if (pid > 0) {
    ::setpgid(pid, pid);  // also here: whichever of zygote and worker runs first
    z.workers[pid] = fd;
  } else if (fd >= 0) {
    ::close(fd);
  }
  return sendAll(z.control, &answer, sizeof answer);
}

[[noreturn]] void zygoteMain(int control, const Zygote::Run& run) {
  std::signal(SIGINT, SIG_IGN);   // Ctrl-C at the terminal is the minifier's to handle
  std::signal(SIGPIPE, SIG_IGN);  // a result pipe nobody reads any more
  ZygoteState z{control, {-1, -1}, {}, run};
  if (::pipe2(z.wake, O_CLOEXEC | O_NONBLOCK) != 0) ::_exit(1);
  gWake = z.wake[1];
  struct sigaction sa{};
  sa.sa_handler = onChildEnded;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  ::sigaction(SIGCHLD, &sa, nullptr);
#ifdef __GLIBC__
  ::malloc_trim(0);  // what the minifier freed before the run: no fork of a worker should copy it
#endif
  for (;;) {
    pollfd fds[2] = {{control, POLLIN, 0}, {z.wake[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) break;
    if (fds[1].revents & POLLIN) {
      char drain[64];
      while (::read(z.wake[0], drain, sizeof drain) > 0) {
      }
      reapWorkers(z);
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    Request r;
    int fd = -1;
    if (!receive(control, r, fd)) break;
    if (r.kind == Kind::Spawn) {
      if (!spawnWorker(z, r, fd)) break;
    } else if (r.kind == Kind::Kill && z.workers.count(r.pid)) {
      ::kill(-r.pid, SIGKILL);
      ::kill(r.pid, SIGKILL);
    }
  }
  for (const auto& [pid, fd] : z.workers) {  // the run is over: nothing of it outlives it
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  ::_exit(0);
}

std::string describeStatus(int status) {
  if (WIFSIGNALED(status)) return "killed by " + signalName(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

std::unique_ptr<Zygote> Zygote::start(Run run, std::function<void(const std::string&)> onLost) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    if (onLost) onLost(std::string("no socket for the worker zygote: ") + std::strerror(errno));
    return nullptr;
  }
  std::fflush(nullptr);  // or the zygote would inherit (and could repeat) unwritten output
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(sv[0]);
    zygoteMain(sv[1], run);
  }
  ::close(sv[1]);
  if (pid < 0) {
    ::close(sv[0]);
    if (onLost) onLost(std::string("the worker zygote could not start: ") + std::strerror(errno));
    return nullptr;
  }
  return std::unique_ptr<Zygote>(new Zygote(pid, sv[0], std::move(onLost)));
}

Zygote::~Zygote() {
  if (socket_ < 0) return;
  ::close(socket_);  // the zygote sees the end, kills its workers and exits
  ::waitpid(pid_, nullptr, 0);
}

bool Zygote::send(const void* data, size_t size, int fd) {
  iovec io{const_cast<void*>(data), size};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))];
  if (fd >= 0) {
    m.msg_control = space;
    m.msg_controllen = sizeof space;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  ssize_t n;
  while ((n = ::sendmsg(socket_, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  if (n <= 0) return false;
  return sendAll(socket_, static_cast<const char*>(data) + n, size - static_cast<size_t>(n));
}

std::optional<pid_t> Zygote::spawn(std::string_view task, int resultFd, const WorkerLimits& limits) {
  if (!alive()) return std::nullopt;
  const Request r{Kind::Spawn, 0, task.size(), limits.memoryLimitMb, limits.threads};
  int32_t pid = 0;
  if (!send(&r, sizeof r, resultFd) || !sendAll(socket_, task.data(), task.size()) || !readAll(socket_, &pid, sizeof pid)) {
    lost("it stopped answering");
    return std::nullopt;
  }
  if (pid < 0) return std::nullopt;  // its fork failed (no memory, no pids): this one tries
  return pid;
}

void Zygote::kill(pid_t pid) {
  const Request r{Kind::Kill, pid, 0, 0, 0};
  if (alive() && !send(&r, sizeof r, -1)) lost("it stopped answering");
}

void Zygote::lost(const std::string& why) {
  if (!alive()) return;
  ::kill(pid_, SIGKILL);
  ::close(socket_);
  socket_ = -1;
  int status = 0;
  ::waitpid(pid_, &status, 0);
  if (onLost_) onLost_("the worker zygote (pid " + std::to_string(pid_) + ") " + describeStatus(status) + ": " + why);
}

std::optional<int> takeZygoteStatus(std::string& received) {
  if (received.size() < kStatusBytes) return std::nullopt;
  const char* trailer = received.data() + received.size() - kStatusBytes;
  if (std::memcmp(trailer, kStatusMark, sizeof kStatusMark) != 0) return std::nullopt;
  int32_t status = 0;
  std::memcpy(&status, trailer + sizeof kStatusMark, sizeof status);
  received.resize(received.size() - kStatusBytes);
  return status;
}

}  // namespace fathom::minify
