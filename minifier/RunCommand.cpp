// A predicate's command, spawned and waited for (see the header).
#include "minifier/RunCommand.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "minifier/Worker.h"

extern char** environ;

namespace fathom::minify {

namespace {

// fork + exec for OnWorkerKill::Terminated: a parent-death signal is not a posix_spawn attribute.
// 0 and the child's pid, else an errno.
int spawnTerminatedWithParent(char* const* argv, const std::string& output, const std::string& errors, pid_t* pid) {
  const int out = ::open(output.empty() ? "/dev/null" : output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err = ::open(errors.empty() ? "/dev/null" : errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const pid_t parent = ::getpid();
  *pid = (out < 0 || err < 0) ? -1 : ::fork();
  if (*pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);  // the worker died before the line above
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    ::execve(argv[0], argv, environ);
    ::_exit(127);
  }
  const int error = *pid < 0 ? (errno ? errno : EIO) : 0;
  if (out >= 0) ::close(out);
  if (err >= 0) ::close(err);
  return error;
}

}  // namespace

int runCommand(const std::vector<std::string>& args, const std::string& output, const std::string& errors, std::string* why,
               OnWorkerKill onKill) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  int spawned = 0;
  if (onKill == OnWorkerKill::Terminated) {
    spawned = spawnTerminatedWithParent(argv.data(), output, errors, &pid);
  } else {
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, output.empty() ? "/dev/null" : output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&files, STDERR_FILENO, errors.empty() ? "/dev/null" : errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    spawned = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
  }
  int status = 0;
  if (spawned != 0 || waitpid(pid, &status, 0) < 0) {
    *why = "could not start " + args[0];
    return -1;
  }
  if (WIFSIGNALED(status)) {
    *why = args[0] + " died with " + signalName(WTERMSIG(status));
    return -1;
  }
  return WEXITSTATUS(status);
}

std::string shellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace fathom::minify
