// Loading plugins with containment (see the header).
#include "plugins/host/PluginHost.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "engine/ops/infer/FirstCall.h"
#include "minifier/PredicateKind.h"
#include "minifier/Worker.h"
#include "plugins/api/FathomPlugin.h"

namespace fathom::plugin {
namespace {

// What a plugin's register function asked for, before any of it is registered.
struct Staging : Registrar {
  std::vector<OpSpec> ops;
  std::vector<minify::Backend> backends;
  std::vector<PredicateSpec> predicates;
  std::vector<ImporterSpec> importers;
  void op(OpSpec o) override { ops.push_back(std::move(o)); }
  void backend(minify::Backend b) override { backends.push_back(std::move(b)); }
  void predicate(PredicateSpec p) override { predicates.push_back(std::move(p)); }
  void importer(ImporterSpec i) override { importers.push_back(std::move(i)); }
};

struct Opened {
  void* handle = nullptr;
  std::string name, version;
  Staging staged;
};

std::vector<LoadedPlugin>& loaded() {
  static std::vector<LoadedPlugin> all;
  return all;
}

// Who registered a name already: "built in" or "plugin NAME (PATH)".
std::string owner(const std::string& kind, const std::string& name) {
  for (const auto& p : loaded()) {
    const auto& names = kind == "op" ? p.ops : kind == "backend" ? p.backends : kind == "predicate" ? p.predicates : p.importers;
    for (const auto& n : names)
      if (n == name) return "by plugin " + p.name + " (" + p.path + ")";
  }
  return "built in";
}

Error taken(const std::string& kind, const std::string& name) {
  return invalidInput(kind + " '" + name + "' is already registered, " + owner(kind, name) + ": the plugin is not loaded");
}

// The staged names against what exists and against each other; an op's name from its schema.
Result<std::vector<std::string>> checkStaged(const Staging& s) {
  std::vector<std::string> opNames;
  std::set<std::string> seen;
  for (const auto& o : s.ops) {
    auto schema = parseSchema(o.schema);
    if (!schema.ok()) return invalidInput("op schema '" + o.schema + "': " + schema.error().message);
    const std::string name = schema->qualifiedName();
    if (OpRegistry::global().find(name) || !seen.insert("op " + name).second) return taken("op", name);
    if (!o.kernel) return invalidInput("op '" + name + "' has no kernel");
    opNames.push_back(name);
  }
  for (const auto& b : s.backends)
    if (minify::findBackend(b.name) || !seen.insert("backend " + b.name).second) return taken("backend", b.name);
  for (const auto& p : s.predicates)
    if (minify::findCustomPredicate(p.name) || minify::parsePredicateKind(p.name) || !seen.insert("predicate " + p.name).second)
      return taken("predicate", p.name);
  for (const auto& i : s.importers)
    for (const auto& have : dumpImporters())
      if (have.name == i.name || have.suffix == i.suffix) return taken("importer", i.name);
  return opNames;
}

// dlopen, the entry points, the version, the registrations staged (none made yet).
Result<Opened> open(const std::string& path) {
  Opened o;
  o.handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!o.handle) return invalidInput(std::string("cannot load: ") + ::dlerror());
  auto version = reinterpret_cast<int (*)()>(::dlsym(o.handle, "fathom_plugin_api_version"));
  auto name = reinterpret_cast<const char* (*)()>(::dlsym(o.handle, "fathom_plugin_name"));
  auto text = reinterpret_cast<const char* (*)()>(::dlsym(o.handle, "fathom_plugin_version"));
  auto registerAll = reinterpret_cast<void (*)(Registrar&)>(::dlsym(o.handle, "fathom_plugin_register"));
  if (!version || !name || !text || !registerAll) return invalidInput("not a Fathom plugin (no fathom_plugin_api_version / fathom_plugin_register: use FATHOM_PLUGIN)");
  if (version() != FATHOM_PLUGIN_API_VERSION)
    return invalidInput("plugin API version " + std::to_string(version()) + ", this fathom's is " + std::to_string(FATHOM_PLUGIN_API_VERSION) +
                        ": rebuild it against this Fathom");
  o.name = name();
  o.version = text();
  try {
    registerAll(o.staged);
  } catch (const std::exception& e) {
    return invalidInput(std::string("its register function threw: ") + e.what());
  }
  return o;
}

// The whole check in a child process: "" when it would load, else why; a crash is a reason too.
std::string probeInChild(const std::string& path) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return "";  // no pipe: load without the probe
  const pid_t pid = ::fork();
  if (pid < 0) {  // no child: load without the probe
    ::close(fds[0]);
    ::close(fds[1]);
    return "";
  }
  if (pid == 0) {
    // The default crash handlers (a sanitizer's would turn the crash into an exit) and no stderr:
    // the parent says how the check ended.
    ::close(fds[0]);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, SIG_DFL);
    if (int devnull = ::open("/dev/null", O_WRONLY); devnull >= 0) ::dup2(devnull, STDERR_FILENO);
    auto o = open(path);
    std::string why = !o.ok() ? o.error().message : "";
    if (o.ok())
      if (auto names = checkStaged(o->staged); !names.ok()) why = names.error().message;
    const std::string line = why.empty() ? "ok" : why;
    [[maybe_unused]] auto n = ::write(fds[1], line.data(), line.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string said;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) said.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return "crashed while loading (" + minify::signalName(WTERMSIG(status)) + "): the plugin is not loaded";
  if (said.empty()) return "loading it ended the process (exit status " + std::to_string(WEXITSTATUS(status)) + "): the plugin is not loaded";
  return said == "ok" ? "" : said;
}

}  // namespace

Result<LoadedPlugin> loadPlugin(const std::string& path) {
  if (const std::string why = probeInChild(path); !why.empty()) return invalidInput(why, path);
  auto o = open(path);
  if (!o.ok()) return o.error().within(path);
  auto opNames = checkStaged(o->staged);
  if (!opNames.ok()) return opNames.error().within(path);
  LoadedPlugin p{path, o->name, o->version, *opNames, {}, {}, {}, {}};
  for (size_t k = 0; k < o->staged.ops.size(); ++k) {
    // A kernel-only op's layout is inferred from its kernel; a declared meta is checked against
    // the kernel before its first use (engine/ops/infer/FirstCall.h).
    OpSpec& op = o->staged.ops[k];
    if (!op.meta) p.opsWithoutMeta.push_back(p.ops[k]);
    OpFn meta = op.meta ? infer::checkedOnFirstCall(p.ops[k], std::move(op.meta)) : infer::inferredOnFirstCall(p.ops[k]);
    if (auto s = OpRegistry::global().add(op.schema, std::move(meta), std::move(op.kernel), op.tags); !s.ok()) return s.error().within(path);
  }
  for (auto& b : o->staged.backends) {
    p.backends.push_back(b.name);
    if (auto s = minify::registerBackend(std::move(b)); !s.ok()) return s.error().within(path);
  }
  for (auto& pr : o->staged.predicates) {
    p.predicates.push_back(pr.name);
    if (auto s = minify::registerPredicate(std::move(pr)); !s.ok()) return s.error().within(path);
  }
  for (auto& i : o->staged.importers) {
    p.importers.push_back(i.name);
    if (auto s = registerImporter(std::move(i)); !s.ok()) return s.error().within(path);
  }
  loaded().push_back(p);
  return p;
}

PluginLoadReport loadPlugins(const std::vector<std::string>& asked, const char* searchPath) {
  std::vector<std::pair<std::string, bool>> paths;
  for (const auto& a : asked) paths.emplace_back(a, true);
  for (std::string rest = searchPath ? searchPath : ""; !rest.empty();) {
    const auto colon = rest.find(':');
    const std::string entry = rest.substr(0, colon);
    rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
    std::error_code ec;
    if (std::filesystem::is_directory(entry, ec)) {
      std::vector<std::string> found;
      for (const auto& f : std::filesystem::directory_iterator(entry, ec))
        if (f.path().extension() == ".so") found.push_back(f.path().string());
      std::sort(found.begin(), found.end());
      for (const auto& f : found) paths.emplace_back(f, false);
    } else if (!entry.empty()) {
      paths.emplace_back(entry, false);
    }
  }
  PluginLoadReport report;
  std::set<std::string> done;
  for (const auto& p : loaded()) done.insert(std::filesystem::weakly_canonical(p.path).string());
  for (const auto& [path, isAsked] : paths) {
    std::error_code ec;
    if (!done.insert(std::filesystem::weakly_canonical(path, ec).string()).second) continue;
    auto r = loadPlugin(path);
    if (r.ok()) report.loaded.push_back(*r);
    else report.errors.push_back({path, r.error().message, isAsked});
  }
  return report;
}

const std::vector<LoadedPlugin>& loadedPlugins() { return loaded(); }

std::vector<PluginError>& errorsMet() {
  static std::vector<PluginError> all;
  return all;
}

std::string loadProgramPlugins(const std::vector<std::string>& asked, const std::function<void(const std::string&)>& warn) {
  const PluginLoadReport report = loadPlugins(asked, std::getenv("FATHOM_PLUGIN_PATH"));
  exportPluginPath();
  for (const auto& e : report.errors) {
    errorsMet().push_back(e);
    if (e.asked) return e.path + ": " + e.message;
    warn("warning: " + e.path + " (from FATHOM_PLUGIN_PATH): " + e.message + "; going on without it");
  }
  return "";
}

const std::vector<PluginError>& loadErrors() { return errorsMet(); }

void exportPluginPath() {
  const char* env = std::getenv("FATHOM_PLUGIN_PATH");
  std::string path = env ? env : "";
  for (const auto& p : loaded()) {
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(p.path, ec).string();
    if ((":" + path + ":").find(":" + absolute + ":") == std::string::npos) path += (path.empty() ? "" : ":") + absolute;
  }
  if (!path.empty()) ::setenv("FATHOM_PLUGIN_PATH", path.c_str(), 1);
}

}  // namespace fathom::plugin
