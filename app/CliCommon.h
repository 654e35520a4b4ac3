// What every `fathom` subcommand shares: the exit codes of DESIGN.md's CLI contract, the one-line
// error report on stderr, JSON output, and the JSON shape of tensor layouts.
//
// A subcommand is added to the parser by its own file (InfoCommand.cpp, ...) and returns a
// Command: the CLI11 subcommand and the function to call once it parsed. Run functions return
// an exit code; they print errors with reportError() and never exit() themselves.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "engine/dump/MismatchJson.h"
#include "engine/interp/DebugInterpreter.h"

namespace fathom::cli {

inline constexpr int kExitOk = 0;        // success
inline constexpr int kExitProblem = 1;   // the tool ran and found a problem (a mismatch, ...)
inline constexpr int kExitBadInput = 2;  // bad usage or input: one stderr line naming file and place
inline constexpr int kExitInternal = 3;  // a bug in Fathom

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command addInfoCommand(CLI::App& parent);
Command addShowCommand(CLI::App& parent);
Command addDiffCommand(CLI::App& parent);
Command addRunCommand(CLI::App& parent);
Command addSampleCommand(CLI::App& parent);
Command addGuardsCommand(CLI::App& parent);
Command addTraceCommand(CLI::App& parent);
Command addStepCommand(CLI::App& parent);
Command addCheckCommand(CLI::App& parent);
Command addMinifyCommand(CLI::App& parent);
Command addExportCommand(CLI::App& parent);
Command addProbeCommand(CLI::App& parent);
Command addPluginsCommand(CLI::App& parent);

using Json = nlohmann::ordered_json;

// A run's work folder (spill files, script predicates' candidates), removed however it ends.
struct RemovedAtExit {
  std::filesystem::path dir;
  ~RemovedAtExit() {
    std::error_code e;
    std::filesystem::remove_all(dir, e);
  }
};

// Prints "fathom: <message>" as exactly one line on stderr (newlines and control characters
// are replaced, so a hostile file name cannot break the one-line contract).
void printErrorLine(std::string_view message);
// Prints the error and returns its exit code: Internal -> 3, anything else (bad input, a
// memory-limit refusal) -> 2.
int reportError(const Error& error);
int usageError(std::string_view message);  // prints, returns 2
// How a trace log names a file (a dump it wrote or read): absolute, so a viewer finds it from
// wherever it runs; as given when that fails.
std::string loggedPath(const std::string& path);
// "1048576", "512K", "64M", "8G", "1T" (binary multiples; "MiB", "MB" and "m" read the same).
std::optional<uint64_t> parseBytes(const std::string& text);
// --seed's value: nothing when empty, else an integer from 0 to 2^64-1 (false: not one).
bool parseSeed(const std::string& text, std::optional<uint64_t>* seed);
// How a command reads the dumps (and inputs files) it is given: the flags every command that
// loads one takes, added the same way by addDumpLoadFlags.
struct DumpLoadFlags {
  bool keepUnknownOps = false;  // --keep-unknown-ops: unknown ops load as opaque nodes
  bool trustPaths = false;      // --trust-paths: side files may be outside the dump's folder
  DumpReadOptions readOptions() const;
};
// --keep-unknown-ops and --trust-paths, the same on every command that loads a dump.
void addDumpLoadFlags(CLI::App* app, DumpLoadFlags* flags);
// The prologue the commands that read one dump share, worded the same everywhere: the DUMP
// argument with the load flags, --inputs FILE and --memory-limit SIZE (applyMemoryLimit).
void addDumpArgument(CLI::App* app, std::string* dump, DumpLoadFlags* flags);
void addInputsOption(CLI::App* app, std::string* inputsFile);
void addMemoryLimitOption(CLI::App* app, std::string* memoryLimit);
// --graph NAME; `help` says what the command does without it.
void addGraphOption(CLI::App* app, std::string* graph, const std::string& help = "Which graph (default: the first in the dump)");
// --seed N (parsed later by parseSeed, so a bad one is exit 2 with the usual message).
void addSeedOption(CLI::App* app, std::string* seed);

// The example inputs to run `graphName` with: the --inputs file when given (checked against the
// graph's placeholders), else the dump's. Errors name the file they are about.
// An inputs file's side files follow the dump's rule (flags.trustPaths).
Result<std::vector<ExampleInput>> graphInputs(const Dump& dump, const std::string& graphName, const std::string& inputsFile,
                                              const std::string& dumpPath, const DumpLoadFlags& flags = {});
// Sets the tensor memory limit from a --memory-limit value (nothing when empty); returns 2 with
// a message for a bad value, else 0.
int applyMemoryLimit(const std::string& text);

// Pretty-printed JSON on stdout; invalid UTF-8 in strings is replaced, never thrown on.
void printJson(const Json& j);

// Loads a dump; on failure prints the error (naming the file and JSON pointer) and returns
// nullopt, with the exit code in *exitCode.
std::optional<Dump> loadDumpOrReport(const std::string& path, int* exitCode, const DumpLoadFlags& flags = {});
// The graph called `name` (the first graph when name is empty), or an error listing the
// graphs the dump has.
Result<const NamedGraph*> selectGraph(const Dump& dump, const std::string& name, const std::string& path);
// Both: the dump into *dump and its graph `name`; null after the one-line error (*exitCode set).
const NamedGraph* loadGraphOrReport(const std::string& path, const std::string& name, const DumpLoadFlags& flags,
                                    std::optional<Dump>* dump, int* exitCode);

// JSON for layouts: sizes/strides as integers (a symbolic one as its expression string).
Json symIntListJson(const SymIntList& list);
// A debug-interpreter mismatch as one text line ("ORIGIN    %add = aten.add.Tensor  strides: ...");
// as JSON it is mismatchJson (engine/dump/MismatchJson.h).
std::string mismatchLine(const Mismatch& m);
Json tensorMetaJson(const TensorMeta& meta);  // {"dtype", "sizes", "strides", "offset"}
// "[2, 3]"
std::string intListText(const SymIntList& list);
using fathom::intListText;  // IntList (engine/tensor/Tensor.h)

}  // namespace fathom::cli
