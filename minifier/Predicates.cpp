#include "minifier/Predicates.h"

#include <spawn.h>
#include <sys/wait.h>

#include <atomic>
#include <optional>
#include <filesystem>
#include <regex>

#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"

extern char** environ;

namespace fathom::minify {
namespace {

// The error of running `c`, or nothing when it runs cleanly.
std::optional<Error> runError(const Graph& g, const std::vector<ExampleInput>& inputs) {
  auto tensors = materializeInputs(inputs);
  if (!tensors.ok()) return tensors.error();
  auto out = Interpreter(g).run(std::move(*tensors));
  if (out.ok()) return std::nullopt;
  return out.error();
}

// An error's signature: the op's message, without "; while executing %node = ..." (node names
// change as the graph shrinks).
std::string signature(const std::string& message) {
  const auto at = message.find("; while executing");
  return at == std::string::npos ? message : message.substr(0, at);
}

// `/bin/sh -c 'CMD "$1"' fathom-minify PATH`: exit status 0 means still failing.
bool runScript(const std::string& command, const std::string& path) {
  const std::string script = command + " \"$1\"";
  const char* argv[] = {"/bin/sh", "-c", script.c_str(), "fathom-minify", path.c_str(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char* const*>(argv), environ) != 0) return false;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

Result<PredicateSpec> parsePredicate(const std::string& text) {
  const auto colon = text.find(':');
  PredicateSpec spec{text.substr(0, colon), colon == std::string::npos ? "" : text.substr(colon + 1)};
  if (spec.kind == "exception" || spec.kind == "mismatch" || spec.kind == "script") {
    if (spec.kind == "script" && spec.arg.empty()) return invalidInput("--predicate script:CMD needs a command");
    if (spec.kind == "mismatch" && colon != std::string::npos) return invalidInput("--predicate mismatch takes no argument");
    if (spec.kind == "exception" && !spec.arg.empty()) {
      try {
        std::regex re(spec.arg);
      } catch (const std::regex_error& e) {
        return invalidInput("--predicate exception:REGEX: '" + spec.arg + "' is not a regular expression (" + e.what() + ")");
      }
    }
    return spec;
  }
  return invalidInput("--predicate must be exception[:REGEX], mismatch or script:CMD, not '" + text + "'");
}

Dump candidateDump(const Candidate& c, const Dump& original, const std::string& graphName) {
  Dump d;
  d.producer = original.producer;
  d.producer.emplace_back("minified", "true");
  d.shapeEnv = original.shapeEnv;  // symbolic sizes in the candidate are over these symbols
  d.graphs.push_back({graphName, c.graph});
  d.inputs.emplace_back(graphName, c.inputs);
  return d;
}

Result<Oracle> makeOracle(const PredicateSpec& spec, const Graph& graph, const std::vector<ExampleInput>& inputs,
                          const OracleContext& context) {
  if (spec.kind == "exception") {
    if (!spec.arg.empty()) {
      auto re = std::make_shared<std::regex>(spec.arg);
      return Oracle([re](const Candidate& c) {
        auto e = runError(c.graph, c.inputs);
        return e && std::regex_search(e->message, *re);
      });
    }
    auto original = runError(graph, inputs);
    if (!original) return invalidInput("the graph runs without an error: there is no exception to keep (give --predicate exception:REGEX, or another kind)");
    const std::string want = signature(original->message);
    return Oracle([want](const Candidate& c) {
      auto e = runError(c.graph, c.inputs);
      return e && signature(e->message) == want;
    });
  }
  if (spec.kind == "mismatch") {
    return Oracle([](const Candidate& c) {
      auto tensors = materializeInputs(c.inputs);
      if (!tensors.ok()) return false;
      DebugInterpreter di(c.graph, {});
      if (!di.run(std::move(*tensors)).ok()) return false;
      for (const auto& m : di.mismatches())
        if (m.origin) return true;
      return false;
    });
  }
  // script: each candidate is written as a dump for the command to read.
  if (!context.dump) return internalError("a script predicate needs the original dump");
  auto counter = std::make_shared<std::atomic<size_t>>(0);
  const Dump* dump = context.dump;
  const std::string dir = context.workDir, name = context.graphName, command = spec.arg;
  return Oracle([=](const Candidate& c) {
    const std::string path = (std::filesystem::path(dir) / ("candidate-" + std::to_string((*counter)++) + ".fathom.json")).string();
    if (!saveDump(candidateDump(c, *dump, name), path).ok()) return false;
    const bool fails = runScript(command, path);
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return fails;
  });
}

}  // namespace fathom::minify
