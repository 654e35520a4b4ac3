// fathom-gui's frames as a user meets them (issue 19's speed targets), under Qt's offscreen
// platform:
//   1. start to first interactive frame: a fresh process (this binary again) starts Qt, opens a
//      dump file - loading, view models, grouping, the first layouts - and paints the window,
//      with its peak RSS; at 10,000 nodes (a GPT-2 AOT training step: joint, forward, backward,
//      partition), 50,000 and 100,000 (repeated blocks without module paths, as PyTorch exports
//      have them). Median of --runs processes.
//   2. pan and zoom of the 50,000-node overview: the time of each frame (an arrow key or +/-
//      sent to the canvas, then a synchronous repaint), median and 90th percentile.
//   3. expanding the group with the most children (about 500) of the 50,000- and 100,000-node
//      graphs: from the request to its laid-out frame painted (the 100k one, with its pan/zoom
//      frames, in a fresh process: one QApplication a process).
// References in the same run: parseDump of each file alone (the part of the first frame that is
// loading), and the whole graph through Graphviz dot (in a child process, cut off after
// --dot-seconds, default 60) - what a viewer that lays out everything with dot pays.
//   build/tests/bench/fathom_gui_frame_bench [--runs=N] [--dot-seconds=S] [--keep=DIR]
// Not a Google Benchmark binary: each figure needs a fresh process or a live window, and the
// targets are wall-clock frames, not loops.
#include <QApplication>
#include <QElapsedTimer>
#include <QKeyEvent>

#include <gvc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/aot/AotCompile.h"
#include "engine/dump/Dump.h"
#include "engine/graph/GraphPrinter.h"
#include "samples/models/Models.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// This process's peak resident memory (VmHWM). Not getrusage's ru_maxrss: that survives exec,
// so a child forked from the parent (which built the models) would report the parent's peak.
long peakRssMb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmHWM: %ld kB", &kb) == 1) break;
  std::fclose(f);
  return kb < 0 ? -1 : kb / 1024;
}

// Runs Qt's loop until the window has nothing loading or laying out and shows a graph.
bool waitIdle(MainWindow& w, int timeoutMs = 120000) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < timeoutMs) {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    if (w.idle() && w.currentTab() && !w.currentTab()->canvas()->scene().items.empty()) return true;
    if (!w.errorText().isEmpty()) return false;
  }
  return false;
}

// --- child modes --------------------------------------------------------------------------

// Child: start Qt, open FILE, wait for the first frame, paint it. Prints "ms rss_mb items".
int childFirstFrame(const char* path, Clock::time_point start, int argc, char** argv) {
  QApplication app(argc, argv);
  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  w.openFile(QString::fromLocal8Bit(path));
  if (!waitIdle(w)) {
    std::fprintf(stderr, "no first frame: %s\n", w.errorText().toLocal8Bit().constData());
    return 1;
  }
  w.grab();  // paints every widget once, as the first frame on screen would
  std::printf("%.1f %ld %zu\n", msSince(start), peakRssMb(), w.currentTab()->canvas()->scene().items.size());
  return 0;
}

// Child: the whole graph GRAPH of FILE through Graphviz dot. Prints "ms".
int childDot(const char* path, const char* graph) {
  auto dump = loadDump(path);
  if (!dump.ok()) return 1;
  const Graph* g = dump->graph(graph);
  if (!g) return 1;
  const std::string dot = graphToDot(*g, graph);
  const auto t0 = Clock::now();
  GVC_t* gvc = gvContext();
  Agraph_t* ag = agmemread(dot.c_str());
  if (!ag || gvLayout(gvc, ag, "dot") != 0) return 1;
  std::printf("%.1f\n", msSince(t0));
  return 0;
}

// --- the parent ---------------------------------------------------------------------------

struct Child {
  bool ok = false;
  bool timedOut = false;
  std::string out;
};

// Runs this binary with `args`, killing it after `timeoutS` seconds.
Child runChild(const std::vector<std::string>& args, int timeoutS) {
  Child c;
  int fds[2];
  if (pipe(fds) != 0) return c;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    std::vector<char*> argv;
    const std::string exe = fs::read_symlink("/proc/self/exe").string();
    argv.push_back(const_cast<char*>(exe.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  close(fds[1]);
  const auto t0 = Clock::now();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (msSince(t0) > timeoutS * 1000.0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      c.timedOut = true;
      break;
    }
    usleep(20000);
  }
  char buf[256];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) c.out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  c.ok = !c.timedOut && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return c;
}

struct Case {
  std::string label;
  std::string graph;  // the tab the window opens on and dot lays out
  fs::path file;
  size_t nodes = 0;
};

// 10k: the "~10,000-node training graph", GPT-2 with 62 blocks traced with AOT autograd
// (joint 10,133 nodes, plus its forward, backward and partition). 50k / 100k: the joint graph
// alone of a deeper GPT-2 (~163 nodes a block), module paths removed as a PyTorch 1.13 export
// has none, so the viewer must find the repeated blocks itself.
Result<Case> writeCase(const fs::path& dir, int64_t nodes) {
  Case c;
  c.graph = "joint";
  const int64_t layers = nodes == 10000 ? 62 : nodes / 163;
  auto model = models::buildModel("gpt2", {.layers = layers, .batch = 2, .seq = 8});
  FATHOM_TRY(model);
  auto compiled = aot::aotCompile(**model, {});
  FATHOM_TRY(compiled);
  Dump d;
  if (nodes == 10000) {
    d = std::move(compiled->dump);
    c.label = "GPT-2-62 AOT, all graphs";
  } else {
    Graph joint = *compiled->dump.graph("joint");
    for (Node& n : joint.mutableNodes()) n.provenance.module.clear();
    d.graphs.push_back({"joint", std::move(joint)});
    c.label = "GPT-2-" + std::to_string(layers) + " joint, no module paths";
  }
  c.nodes = d.graph(c.graph)->size();
  c.file = dir / ("gui-bench-" + std::to_string(nodes) + ".fathom.json");
  FATHOM_TRY(saveDump(d, c.file.string()));
  return c;
}

// Pan and zoom frames of the window's fitted overview of `c`.
void measurePanZoom(MainWindow& w, const Case& c) {
  GraphCanvas* canvas = w.currentTab()->canvas();
  canvas->repaint();
  std::vector<double> frames;
  const int keys[] = {Qt::Key_Plus, Qt::Key_Right, Qt::Key_Right, Qt::Key_Down, Qt::Key_Plus, Qt::Key_Left,
                      Qt::Key_Minus, Qt::Key_Up, Qt::Key_Minus, Qt::Key_Right};
  for (int i = 0; i < 200; ++i) {
    QKeyEvent press(QEvent::KeyPress, keys[i % 10], Qt::NoModifier);
    const auto t0 = Clock::now();
    QApplication::sendEvent(canvas, &press);
    canvas->repaint();
    frames.push_back(msSince(t0));
  }
  std::printf("pan/zoom of the %zu-node overview (%zu items, 1600x1000 window): median %.2f ms, p90 %.2f ms, max %.2f ms "
              "over %zu frames; target median <= 16 ms: %s\n",
              c.nodes, canvas->scene().items.size(), median(frames), percentile(frames, 0.9),
              *std::max_element(frames.begin(), frames.end()), frames.size(), median(frames) <= 16 ? "PASS" : "FAIL");
}

// Expanding the group of `c` with the most children, from the request to its painted frame.
void measureExpand(MainWindow& w, const Case& c) {
  GraphCanvas* canvas = w.currentTab()->canvas();
  const GroupTree& tree = w.currentTab()->tree();
  int32_t best = -1;
  for (size_t g = 1; g < tree.groups().size(); ++g)
    if (best < 0 || tree.group(static_cast<int32_t>(g)).children.size() > tree.group(best).children.size())
      best = static_cast<int32_t>(g);
  if (best < 0) return;
  const QString label = QString::fromStdString(tree.group(best).label);
  const auto t0 = Clock::now();
  if (!w.currentTab()->expandGroup(label) || !waitIdle(w)) {
    std::printf("expand: could not expand '%s'\n", tree.group(best).label.c_str());
    return;
  }
  canvas->repaint();
  const double ms = msSince(t0);
  std::printf("expanding '%s' (%zu children, %d nodes below) in the %zu-node graph: %.1f ms to its painted frame; "
              "target <= 150 ms: %s\n",
              tree.group(best).label.c_str(), tree.group(best).children.size(), tree.group(best).numNodes, c.nodes, ms,
              ms <= 150 ? "PASS" : "FAIL");
}

// In this process: open `c` in a window, then its pan/zoom frames and one expansion (the window's
// layout cache starts empty).
void measureWindow(const Case& c, int argc, char** argv) {
  QApplication app(argc, argv);
  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  w.openFile(QString::fromStdString(c.file.string()));
  if (!waitIdle(w)) {
    std::printf("the window did not open %s\n", c.file.c_str());
    return;
  }
  measurePanZoom(w, c);
  measureExpand(w, c);
}

int parent(int argc, char** argv) {
  int runs = 3, dotSeconds = 60;
  fs::path keep;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--runs=", 7) == 0) runs = std::max(1, std::atoi(argv[i] + 7));
    else if (std::strncmp(argv[i], "--dot-seconds=", 14) == 0) dotSeconds = std::atoi(argv[i] + 14);
    else if (std::strncmp(argv[i], "--keep=", 7) == 0) keep = argv[i] + 7;
  }
  const fs::path dir = keep.empty() ? fs::temp_directory_path() / ("fathom-gui-bench-" + std::to_string(getpid())) : keep;
  fs::create_directories(dir);
  std::vector<Case> cases;
  for (int64_t n : {10000, 50000, 100000}) {
    auto c = writeCase(dir, n);
    if (!c.ok()) {
      std::fprintf(stderr, "cannot make the %lld-node dump: %s\n", static_cast<long long>(n), c.error().str().c_str());
      return 1;
    }
    cases.push_back(*c);
  }

  std::printf("first interactive frame (fresh process: Qt start, load, models, grouping, layouts, one paint), median of %d:\n", runs);
  const double targets[] = {500, 1500, 3000};
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    std::vector<double> ms, rss;
    std::string items;
    for (int r = 0; r < runs; ++r) {
      Child ch = runChild({"--first-frame", c.file.string()}, 120);
      double t = 0;
      long mb = 0;
      char it[32] = {0};
      if (!ch.ok || std::sscanf(ch.out.c_str(), "%lf %ld %31s", &t, &mb, it) != 3) {
        std::printf("  %s: the child failed\n", c.file.c_str());
        continue;
      }
      ms.push_back(t);
      rss.push_back(static_cast<double>(mb));
      items = it;
    }
    // The loading part alone, in this process.
    std::vector<double> load;
    for (int r = 0; r < runs; ++r) {
      const auto t0 = Clock::now();
      auto d = loadDump(c.file.string());
      load.push_back(msSince(t0));
    }
    const double size = static_cast<double>(fs::file_size(c.file)) / 1e6;
    std::printf("  %7zu nodes (%s, %.1f MB): %.0f ms, peak RSS %.0f MB, %s items drawn; loadDump alone %.0f ms; "
                "target <= %.0f ms: %s%s\n",
                c.nodes, c.label.c_str(), size, median(ms), median(rss), items.c_str(), median(load), targets[i],
                !ms.empty() && median(ms) <= targets[i] ? "PASS" : "FAIL",
                i == 2 ? (median(rss) <= 1024 ? ", RSS <= 1 GB: PASS" : ", RSS <= 1 GB: FAIL") : "");
  }

  std::printf("reference, the whole graph through Graphviz dot (child process, cut off after %d s):\n", dotSeconds);
  for (const Case& c : cases) {
    Child ch = runChild({"--dot", c.file.string(), c.graph}, dotSeconds);
    if (ch.timedOut) std::printf("  %7zu nodes: > %d s (cut off)\n", c.nodes, dotSeconds);
    else if (!ch.ok) std::printf("  %7zu nodes: dot failed\n", c.nodes);
    else std::printf("  %7zu nodes: %.0f ms\n", c.nodes, std::atof(ch.out.c_str()));
  }

  measureWindow(cases[1], argc, argv);
  // The 100k graph's, in a fresh process (one QApplication a process).
  std::fflush(stdout);
  Child expand = runChild({"--window", cases[2].file.string()}, 120);
  std::printf("%s", expand.out.c_str());
  if (keep.empty()) fs::remove_all(dir);
  return 0;
}

}  // namespace
}  // namespace fathom::viz

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  setenv("QT_QPA_PLATFORM", "offscreen", 0);
  using namespace fathom::viz;
  if (argc == 3 && std::strcmp(argv[1], "--first-frame") == 0) return childFirstFrame(argv[2], start, argc, argv);
  if (argc == 4 && std::strcmp(argv[1], "--dot") == 0) return childDot(argv[2], argv[3]);
  if (argc == 3 && std::strcmp(argv[1], "--window") == 0) {
    Case c;
    c.file = argv[2];
    c.graph = "joint";
    auto d = fathom::loadDump(argv[2]);
    c.nodes = d.ok() ? d->graphs[0].graph.size() : 0;
    measureWindow(c, argc, argv);
    return 0;
  }
  return parent(argc, argv);
}
