// Running a command for a predicate: a script (script:CMD), PyTorch (torch:KIND) or a launcher
// (Launcher.h) - posix_spawn, its output into files, waited for. In a worker it runs in the
// worker's process group, so a timeout's kill of the group ends the command too.
#pragma once

#include <string>
#include <vector>

namespace fathom::minify {

// How the command ends when the worker running it is killed.
enum class OnWorkerKill {
  Killed,      // in the worker's process group: the group's SIGKILL takes it too
  Terminated,  // its own group, and SIGTERM when the worker dies: srun then ends its job step
               // and gives the allocation back (killed outright, the job stays allocated until
               // its time limit, on clusters without an InactiveLimit)
};

// Runs args[0] (a path) with its stdout in `output` and its stderr in `errors` (each: when given,
// else silenced): the exit status, or -1 when it could not start or died by a signal (then
// `why` says which).
int runCommand(const std::vector<std::string>& args, const std::string& output, const std::string& errors, std::string* why,
               OnWorkerKill onKill = OnWorkerKill::Killed);

// `text` quoted for a POSIX shell: in single quotes, each ' written as '\''.
std::string shellQuoted(const std::string& text);

}  // namespace fathom::minify
