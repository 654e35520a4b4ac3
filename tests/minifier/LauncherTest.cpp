// The launcher (minifier/Launcher.h): its three forms parse and nothing else does; the line it
// runs carries the probe, the limits and srun's arguments (ours first, so the user's win); a
// probe's JSON is the answer and a launcher without one says why; and a Slurm launcher outlives
// the SIGKILL of its worker just long enough to get SIGTERM (so srun can end its job).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "minifier/Launcher.h"
#include "minifier/RunCommand.h"

namespace fathom {
namespace {

minify::RemoteQueries queries(const std::string& launcher) {
  minify::RemoteQueries q;
  q.launcher = *minify::parseLauncher(launcher);
  q.fathom = "/opt/my fathom/fathom";
  q.sharedDir = "/shared";
  q.limits = {90, 2048, 0};
  return q;
}

TEST(Launcher, ParsesSlurmSlurmWithArgumentsAndACommandWithBraces) {
  EXPECT_EQ(minify::parseLauncher("slurm")->kind, minify::Launcher::Kind::Slurm);
  EXPECT_EQ(minify::parseLauncher("slurm:-p gpu --gres=gpu:1")->args, "-p gpu --gres=gpu:1");
  auto ssh = minify::parseLauncher("ssh gpu1 {}");
  ASSERT_TRUE(ssh.ok());
  EXPECT_EQ(ssh->kind, minify::Launcher::Kind::Command);
  auto bad = minify::parseLauncher("ssh gpu1");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("slurm:SRUN-ARGS, or a command line with {}"), std::string::npos);
}

TEST(Launcher, SlurmLineHasTheProbeTheLimitsAndTheUsersArgumentsLast) {
  const std::string line = minify::launchLine(queries("slurm:--time=30 -p gpu"), "/shared/q 1.fathom.json");
  EXPECT_EQ(line.rfind("exec srun --quiet --job-name=fathom-probe --nodes=1 --ntasks=1 --time=3 --time=30 -p gpu ", 0), 0u) << line;
  EXPECT_NE(line.find("'/opt/my fathom/fathom' probe '/shared/q 1.fathom.json' --json --trust-repro --timeout 90 --memory-limit 2048M"),
            std::string::npos)
      << line;
}

TEST(Launcher, CommandLineGetsTheProbeAtEveryBraces) {
  const std::string line = minify::launchLine(queries("echo {} && {}"), "/shared/q.json");
  const std::string probe = "'/opt/my fathom/fathom' probe '/shared/q.json' --json --trust-repro --timeout 90 --memory-limit 2048M";
  EXPECT_EQ(line, "echo " + probe + " && " + probe);
}

TEST(Launcher, TheProbesJsonIsTheAnswerAndWithoutItTheLauncherSaysWhy) {
  const auto dir = std::filesystem::temp_directory_path() / ("fathom-launcher-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto q = queries("printf '%s' '{\"fails\": true, \"what\": \"raised: boom\", \"predicate\": \"exception:boom\"}' || {}");
  const minify::RemoteAnswer yes = minify::askRemote(q, (dir / "q.json").string());
  EXPECT_TRUE(yes.answered && yes.fails);
  EXPECT_EQ(yes.what, "raised: boom");
  EXPECT_EQ(yes.predicate, "exception:boom");
  q = queries("echo 'srun: error: invalid partition' >&2; exit 1; {}");
  const minify::RemoteAnswer no = minify::askRemote(q, (dir / "q.json").string());
  EXPECT_FALSE(no.answered || no.fails);
  EXPECT_EQ(no.what, "the launcher exited with status 1 without a verdict: srun: error: invalid partition");
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "its output files are left behind";
  std::filesystem::remove_all(dir);
}

// A worker (a forked child) runs a command that records SIGTERM, then is SIGKILLed as a timeout
// or Ctrl-C kills workers: Terminated commands get SIGTERM, Killed ones go with the group.
bool gotSigterm(minify::OnWorkerKill onKill) {
  const auto mark = std::filesystem::temp_directory_path() / ("fathom-term-" + std::to_string(::getpid()));
  std::filesystem::remove(mark);
  const pid_t worker = ::fork();
  if (worker == 0) {
    ::setpgid(0, 0);
    std::string why;
    minify::runCommand({"/bin/sh", "-c", "trap 'echo term > " + mark.string() + "; exit 0' TERM; while :; do sleep 0.05; done"}, "", "", &why,
                       onKill);
    ::_exit(0);
  }
  ::setpgid(worker, worker);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(-worker, SIGKILL);
  ::waitpid(worker, nullptr, 0);
  for (int i = 0; i < 40 && !std::filesystem::exists(mark); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const bool got = std::filesystem::exists(mark);
  std::filesystem::remove(mark);
  return got;
}

TEST(RunCommand, ATerminatedCommandGetsSigtermWhenItsWorkerIsKilled) {
  EXPECT_TRUE(gotSigterm(minify::OnWorkerKill::Terminated));
  EXPECT_FALSE(gotSigterm(minify::OnWorkerKill::Killed));
}

}  // namespace
}  // namespace fathom
