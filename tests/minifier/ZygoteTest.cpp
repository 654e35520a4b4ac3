// The worker zygote (minifier/Zygote.h): a minification through it gives what forking from the
// minifier gives; its workers' crashes, timeouts and exceptions read as before; its death, idle
// or under a running worker, is survived by forking from here; nothing is left behind (no child
// processes, no open fds). And the in-flight reports (MinifyOptions::onWaiting) of slow queries.
#include <gtest/gtest.h>

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <utility>

#include "minifier/Minify.h"
#include "minifier/Predicates.h"
#include "minifier/Zygote.h"
#include "tests/minifier/MinifyTestSupport.h"

namespace fathom {
namespace {

// The processes whose parent is this one.
std::vector<pid_t> childProcesses() {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && ppid == ::getpid()) out.push_back(std::stoi(name));
  }
  return out;
}

size_t openFds() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// x -> n pointwise nodes, with mm(h, t(w)) at `at`: what faulty-crash trips on.
Graph chainWithMatmul(int n, int at) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  NodeRef w = b.input("w", fakeTensor(DType::Float32, {3, 3}));
  NodeRef h = x;
  for (int i = 0; i < n; ++i)
    h = i == at ? b.call("aten.mm.default", {h, b.call("aten.t.default", {w})}) : b.call(i % 2 ? "aten.neg.default" : "aten.abs.default", {h});
  b.output({h});
  return testing::finished(b);
}

// Minifies the chain under `crash` on faulty-crash, isolated with `jobs`; with or without zygote.
minify::MinifyResult crashMinified(const Graph& g, bool zygote, size_t jobs, minify::MinifyOptions o = {}) {
  const auto inputs = testing::seeded(g);
  minify::OracleContext ctx;
  ctx.backend = minify::findBackend("faulty-crash");
  ctx.isolate = true;
  auto oracle = minify::makeOracle(*minify::parsePredicate("crash"), g, inputs, ctx);
  EXPECT_TRUE(oracle.ok());
  o.isolate = true;
  o.jobs = jobs;
  o.timeoutSeconds = 20;
  o.zygote = zygote;
  auto r = minify::minify(g, inputs, oracle->oracle, o);
  EXPECT_TRUE(r.ok()) << r.error().str();
  return std::move(*r);
}

// The same result; with one job also the same queries (with more, how many speculative queries
// finish before an earlier one fails depends on timing).
void expectSameRun(const minify::MinifyResult& a, const minify::MinifyResult& b, bool sameQueries) {
  EXPECT_EQ(a.best.graph.size(), b.best.graph.size());
  EXPECT_EQ(a.best.inputs.size(), b.best.inputs.size());
  EXPECT_EQ(a.stats.passesThatHelped, b.stats.passesThatHelped);
  EXPECT_EQ(a.stats.flaky, b.stats.flaky);
  if (!sameQueries) return;
  EXPECT_EQ(a.stats.queries, b.stats.queries);
  EXPECT_EQ(a.stats.cacheHits, b.stats.cacheHits);
}

TEST(Zygote, AMinificationThroughTheZygoteGetsTheAnswersForkingHereGets) {
  const Graph g = chainWithMatmul(300, 120);
  const size_t fds = openFds();
  for (size_t spillBytes : {size_t{64} << 10, size_t{16}}) {  // real values inline, then all in the spill file
    const auto dir = std::filesystem::temp_directory_path() / ("fathom-zygote-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    minify::MinifyOptions o;
    o.spillFile = (dir / "values.bin").string();
    o.spillBytes = spillBytes;
    std::vector<std::string> warnings;
    o.onWarning = [&](const std::string& w) { warnings.push_back(w); };
    for (size_t jobs : {1, 2}) {
      const auto direct = crashMinified(g, false, jobs, o);
      std::filesystem::remove(o.spillFile);
      const auto viaZygote = crashMinified(g, true, jobs, o);
      std::filesystem::remove(o.spillFile);
      expectSameRun(direct, viaZygote, jobs == 1);
      EXPECT_EQ(viaZygote.best.graph.size(), 5u) << "x's value at the mm, w, t, mm, output";
    }
    std::filesystem::remove_all(dir);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
  }
  EXPECT_TRUE(childProcesses().empty()) << "the zygote and every worker are reaped";
  EXPECT_EQ(openFds(), fds);
}

TEST(Zygote, WorkersAreForkedByTheZygoteNotByTheMinifier) {
  const Graph g = chainWithMatmul(20, 10);
  // Each worker says who forked it; the original's answer comes back as originalWhat.
  minify::Oracle oracle([](const minify::Candidate&) { return minify::Verdict{true, std::to_string(::getppid())}; });
  minify::MinifyOptions o;
  o.isolate = true;
  auto viaZygote = minify::minify(g, testing::seeded(g), oracle, o);
  o.zygote = false;
  auto direct = minify::minify(g, testing::seeded(g), oracle, o);
  ASSERT_TRUE(viaZygote.ok() && direct.ok());
  EXPECT_NE(viaZygote->originalWhat, std::to_string(::getpid()));
  EXPECT_EQ(direct->originalWhat, std::to_string(::getpid()));
}

// The worker layer alone, with a zygote whose workers do what the task says.
struct ZygoteRun {
  std::unique_ptr<minify::Zygote> zygote;
  std::vector<std::string> lost;
  minify::WorkerSetup setup;
  ZygoteRun() {
    zygote = minify::Zygote::start(
        [](std::string_view task) -> minify::Verdict {
          if (task == "crash") std::raise(SIGSEGV);
          if (task == "hang") std::this_thread::sleep_for(std::chrono::seconds(60));
          if (task == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(600));
          if (task == "throw") throw std::runtime_error("boom");
          return {true, "from the zygote"};
        },
        [this](const std::string& why) { lost.push_back(why); });
    setup.limits.timeoutSeconds = 0.5;
    setup.probe = [](const minify::Candidate&) { return minify::Verdict{true, "from here"}; };
    setup.zygote = zygote.get();
  }
  minify::WorkerResult run(const std::string& task, minify::WorkerCallbacks cb = {}) {
    return minify::runTask(minify::WorkerTask{std::nullopt, minify::Candidate{}, task}, setup, cb);
  }
};

TEST(Zygote, ACrashATimeoutAndAnExceptionInItsWorkersReadAsInWorkersForkedHere) {
  ZygoteRun z;
  ASSERT_TRUE(z.zygote && z.zygote->alive());
  auto crash = z.run("crash");
  EXPECT_EQ(crash.end, minify::WorkerEnd::Crashed);
  EXPECT_EQ(crash.signal, SIGSEGV);
  EXPECT_EQ(crash.verdict.what, "crashed with SIGSEGV");
  auto hang = z.run("hang");
  EXPECT_EQ(hang.end, minify::WorkerEnd::TimedOut);
  EXPECT_EQ(hang.verdict.what, "did not finish in 0.5 s");
  auto threw = z.run("throw");
  EXPECT_EQ(threw.end, minify::WorkerEnd::Answered);
  EXPECT_EQ(threw.verdict.what, "threw: boom");
  auto fine = z.run("fine");
  EXPECT_TRUE(fine.verdict.fails);
  EXPECT_EQ(fine.verdict.what, "from the zygote");
  // The same through a worker forked here.
  minify::WorkerLimits limits;
  auto here = minify::runInWorker([]() -> minify::Verdict { std::raise(SIGSEGV); return {}; }, limits);
  EXPECT_EQ(here.end, crash.end);
  EXPECT_EQ(here.verdict.what, crash.verdict.what);
  EXPECT_TRUE(z.lost.empty());
}

TEST(Zygote, AZygoteThatDiesUnderARunningWorkerIsReplacedByForkingHere) {
  const size_t fds = openFds();
  {
    ZygoteRun z;
    ASSERT_TRUE(z.zygote);
    z.setup.limits.timeoutSeconds = 10;
    const pid_t zygotePid = z.zygote->pid();
    minify::WorkerCallbacks cb;
    bool killed = false;
    cb.onWaiting = [&](const minify::InFlight&) {  // while "slow" runs in the zygote's worker
      if (!std::exchange(killed, true)) ::kill(zygotePid, SIGKILL);
    };
    auto r = z.run("slow", cb);
    EXPECT_EQ(r.verdict.what, "from here") << "the task ran again, forked from this process";
    ASSERT_EQ(z.lost.size(), 1u);
    EXPECT_NE(z.lost[0].find("killed by SIGKILL"), std::string::npos) << z.lost[0];
    EXPECT_FALSE(z.zygote->alive());
    EXPECT_EQ(z.run("fine").verdict.what, "from here");  // and so does every later task
  }
  EXPECT_TRUE(childProcesses().empty());
  EXPECT_EQ(openFds(), fds);
}

TEST(Zygote, AZygoteKilledMidMinificationLeavesTheResultAsForkingHereGives) {
  const Graph g = chainWithMatmul(300, 120);
  const size_t fds = openFds();
  const auto direct = crashMinified(g, false, 2);
  minify::MinifyOptions o;
  std::vector<std::string> warnings;
  o.onWarning = [&](const std::string& w) { warnings.push_back(w); };
  size_t queries = 0;
  o.onQuery = [&](const minify::MinifyStats&, const char*) {
    if (++queries == 5)
      for (pid_t child : childProcesses()) ::kill(child, SIGKILL);  // the zygote: the only child of the minifier here
  };
  const auto survived = crashMinified(g, true, 2, o);
  expectSameRun(direct, survived, false);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("zygote"), std::string::npos) << warnings[0];
  EXPECT_TRUE(childProcesses().empty());
  EXPECT_EQ(openFds(), fds);
}

TEST(Zygote, AStopKillsItsWorkersAtOnce) {
  const Graph g = chainWithMatmul(40, 20);
  minify::Oracle slow([](const minify::Candidate& c) {
    if (c.graph.size() < 40) std::this_thread::sleep_for(std::chrono::seconds(30));  // every candidate; not the original
    return minify::Verdict{true, ""};
  });
  minify::MinifyOptions o;
  o.isolate = true;
  o.jobs = 2;
  const auto began = std::chrono::steady_clock::now();
  o.shouldStop = [&] { return std::chrono::steady_clock::now() - began > std::chrono::milliseconds(500); };
  auto r = minify::minify(g, testing::seeded(g), slow, o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->stats.stopped);
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(10)) << "the 30 s workers were killed";
  EXPECT_TRUE(childProcesses().empty());
}

TEST(MinifyProgress, SlowQueriesAreReportedWhileTheyRun) {
  const Graph g = chainWithMatmul(4, 2);
  minify::Oracle oracle([](const minify::Candidate&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    return minify::Verdict{true, ""};
  });
  minify::MinifyOptions o;
  o.isolate = true;
  o.jobs = 2;
  std::vector<std::pair<std::string, minify::InFlight>> seen;
  o.onWaiting = [&](const minify::MinifyStats&, const char* pass, const minify::InFlight& f) { seen.emplace_back(pass, f); };
  auto r = minify::minify(g, testing::seeded(g), oracle, o);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front().first, "checking the original");
  double longest = 0;
  size_t most = 0;
  for (const auto& [pass, f] : seen) {
    longest = std::max(longest, f.longestSeconds);
    most = std::max(most, f.running);
  }
  EXPECT_GE(longest, 0.2) << "a 0.4 s query is seen running before it ends";
  EXPECT_LT(longest, 5.0);
  EXPECT_EQ(most, 2u) << "-j 2: two queries in flight at once";
}

}  // namespace
}  // namespace fathom
