// Shared helpers of the `fathom` subcommands: error lines, exit codes, JSON output.
#include "app/CliCommon.h"

#include "engine/interp/ExampleInputs.h"

#include <charconv>

#include "engine/tensor/Storage.h"

#include <filesystem>
#include <iostream>

namespace fathom::cli {

void printErrorLine(std::string_view message) {
  std::string line = "fathom: ";
  for (char c : message) {
    const auto u = static_cast<unsigned char>(c);
    line += (u < 0x20 || u == 0x7f) ? ' ' : c;  // keep UTF-8, drop newlines and escapes
  }
  std::cerr << line << '\n' << std::flush;
}

int reportError(const Error& error) {
  printErrorLine(error.str());
  return error.code == ErrorCode::Internal ? kExitInternal : kExitBadInput;
}

int usageError(std::string_view message) {
  printErrorLine(message);
  return kExitBadInput;
}

namespace {
std::string scalarText(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

bool isFlat(const Json& j) {
  if (!j.is_array()) return false;
  for (const auto& e : j)
    if (e.is_structured()) return false;
  return true;
}

// Two-space indentation, except that arrays of scalars stay on one line ("sizes": [32, 784]).
void writeJson(std::string& out, const Json& j, int indent) {
  const std::string pad(static_cast<size_t>(indent + 2), ' ');
  if (j.is_object() && !j.empty()) {
    out += "{";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      out += (first ? "\n" : ",\n") + pad + scalarText(Json(it.key())) + ": ";
      writeJson(out, it.value(), indent + 2);
      first = false;
    }
    out += "\n" + std::string(static_cast<size_t>(indent), ' ') + "}";
  } else if (j.is_array() && !j.empty() && !isFlat(j)) {
    out += "[";
    for (size_t i = 0; i < j.size(); ++i) {
      out += (i ? ",\n" : "\n") + pad;
      writeJson(out, j[i], indent + 2);
    }
    out += "\n" + std::string(static_cast<size_t>(indent), ' ') + "]";
  } else if (j.is_array()) {
    out += "[";
    for (size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + scalarText(j[i]);
    out += "]";
  } else {
    out += scalarText(j);
  }
}
}  // namespace

void printJson(const Json& j) {
  std::string out;
  writeJson(out, j, 0);
  std::cout << out << '\n';
}

DumpReadOptions DumpLoadFlags::readOptions() const {
  DumpReadOptions options;
  options.keepUnknownOps = keepUnknownOps;
  options.trustPaths = trustPaths;
  return options;
}

void addDumpLoadFlags(CLI::App* app, DumpLoadFlags* flags) {
  app->add_flag("--keep-unknown-ops", flags->keepUnknownOps,
                "Load ops this build does not know (a newer torch, custom ops) as opaque nodes: they run as zero tensors "
                "with their recorded meta, so the rest of the graph still runs and checks");
  app->add_flag("--trust-paths", flags->trustPaths,
                "Read side files wherever the dump names them (absolute, with '..', or through a link out of its folder); "
                "without it they must be inside the dump's folder, so a dump from someone else cannot read your files");
}

void addDumpArgument(CLI::App* app, std::string* dump, DumpLoadFlags* flags) {
  app->add_option("DUMP", *dump, "The dump file (*.fathom.json)")->required();
  addDumpLoadFlags(app, flags);
}

void addInputsOption(CLI::App* app, std::string* inputsFile) {
  app->add_option("--inputs", *inputsFile, "Inputs file ({\"format\": \"fathom-inputs\", ...}) to run with");
}

void addMemoryLimitOption(CLI::App* app, std::string* memoryLimit) {
  app->add_option("--memory-limit", *memoryLimit, "Refuse to hold more tensor memory than this (e.g. 512M, 8G; default 8G)");
}

void addGraphOption(CLI::App* app, std::string* graph, const std::string& help) {
  app->add_option("--graph", *graph, help);
}

void addSeedOption(CLI::App* app, std::string* seed) {
  app->add_option("--seed", *seed, "Draw seeded example inputs from this seed (0 to 2^64-1) instead of the dump's");
}

std::optional<Dump> loadDumpOrReport(const std::string& path, int* exitCode, const DumpLoadFlags& flags) {
  auto dump = loadDump(path, flags.readOptions());
  if (!dump.ok()) {
    *exitCode = reportError(dump.error());
    return std::nullopt;
  }
  return std::move(*dump);
}

Result<const NamedGraph*> selectGraph(const Dump& dump, const std::string& name, const std::string& path) {
  if (dump.graphs.empty()) return invalidInput("the dump has no graphs", path);
  if (name.empty()) return &dump.graphs.front();
  std::string available;
  for (const auto& g : dump.graphs) {
    if (g.name == name) return &g;
    available += (available.empty() ? "" : ", ") + g.name;
  }
  return invalidInput("no graph named '" + name + "' (the dump has: " + available + ")", path);
}

const NamedGraph* loadGraphOrReport(const std::string& path, const std::string& name, const DumpLoadFlags& flags,
                                    std::optional<Dump>* dump, int* exitCode) {
  *dump = loadDumpOrReport(path, exitCode, flags);
  if (!*dump) return nullptr;
  auto graph = selectGraph(**dump, name, path);
  if (!graph.ok()) {
    *exitCode = reportError(graph.error());
    return nullptr;
  }
  return *graph;
}

Json symIntListJson(const SymIntList& list) {
  Json out = Json::array();
  for (const auto& s : list) {
    if (s.isSymbolic()) out.push_back(s.str());
    else out.push_back(s.hint());
  }
  return out;
}

Json tensorMetaJson(const TensorMeta& meta) {
  Json j = Json::object();
  j["dtype"] = std::string(dtypeName(meta.dtype));
  j["sizes"] = symIntListJson(meta.sizes);
  j["strides"] = symIntListJson(meta.strides);
  if (meta.storageOffset.isSymbolic()) j["offset"] = meta.storageOffset.str();
  else j["offset"] = meta.storageOffset.hint();
  return j;
}

std::string intListText(const SymIntList& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + list[i].str();
  return out + "]";
}

// "1048576", "512K", "64M", "8G", "1T" (binary multiples; "MiB", "MB" and "m" read the same).
std::optional<uint64_t> parseBytes(const std::string& text) {
  size_t i = 0;
  uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, text[i] - '0', &value))
      return std::nullopt;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string suffix;
  for (; i < text.size(); ++i) suffix += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
  int shift = 0;
  if (!suffix.empty() && suffix != "B") {
    const std::string units = "KMGT";
    const size_t u = units.find(suffix[0]);
    const std::string rest = suffix.substr(1);
    if (u == std::string::npos || !(rest.empty() || rest == "B" || rest == "IB")) return std::nullopt;
    shift = 10 * static_cast<int>(u + 1);
  }
  if (shift && value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

int applyMemoryLimit(const std::string& text) {
  if (text.empty()) return kExitOk;
  auto limit = parseBytes(text);
  if (!limit) return usageError("--memory-limit: expected a byte count like 1048576, 512M or 8G, got '" + text + "'");
  setMemoryLimit(*limit);
  return kExitOk;
}

bool parseSeed(const std::string& text, std::optional<uint64_t>* seed) {
  *seed = std::nullopt;
  if (text.empty()) return true;
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return false;
  *seed = value;
  return true;
}

Result<std::vector<ExampleInput>> graphInputs(const Dump& dump, const std::string& graphName, const std::string& inputsFile,
                                              const std::string& dumpPath, const DumpLoadFlags& flags) {
  std::optional<std::vector<ExampleInput>> fromFile;
  if (!inputsFile.empty()) {
    auto loaded = loadInputsFile(inputsFile, flags.readOptions());
    FATHOM_TRY(loaded);
    fromFile = std::move(*loaded);
  }
  auto inputs = chooseInputs(dump.graph(graphName), graphName, dump.inputsFor(graphName), fromFile ? &*fromFile : nullptr);
  if (!inputs.ok()) return inputs.error().within(fromFile ? inputsFile : dumpPath);
  return inputs;
}

std::string mismatchLine(const Mismatch& m) {
  std::string line = std::string(m.origin ? "ORIGIN    " : "inherited ") + "%" + m.node + " = " + m.op + "  " + m.field +
                     ": recorded " + m.expected + ", real " + m.actual;
  if (!m.source.empty()) line += "  at " + m.source;
  if (!m.module.empty()) line += "  in " + m.module;
  return line;
}

std::string loggedPath(const std::string& path) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(path, ec);
  return ec ? path : absolute.lexically_normal().string();
}

}  // namespace fathom::cli
