// `fathom sample --list` and `fathom sample NAME -o FILE [--force]`: lists the bundled sample
// graphs (samples/Samples.h) or writes one as a dump. An existing file is kept unless --force.
#include <sys/stat.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "samples/Samples.h"

namespace fathom::cli {
namespace {

struct SampleOptions {
  std::string name;
  std::string output;
  bool list = false;
  bool force = false;
  bool json = false;
};

std::string sampleNames() {
  std::string names;
  for (const auto& s : samples::allSamples()) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

int listSamples(bool json) {
  if (json) {
    Json list = Json::array();
    for (const auto& s : samples::allSamples()) list.push_back({{"name", s.name}, {"description", s.description}});
    printJson({{"samples", std::move(list)}});
    return kExitOk;
  }
  for (const auto& s : samples::allSamples()) {
    char line[512];
    std::snprintf(line, sizeof line, "%-12s %s\n", s.name.c_str(), s.description.c_str());
    std::cout << line;
  }
  return kExitOk;
}

int writeSample(const SampleOptions& opts) {
  if (opts.name.empty()) return usageError("sample: give a sample NAME and -o FILE, or --list");
  const samples::SampleInfo* info = samples::findSample(opts.name);
  if (!info) return usageError("unknown sample '" + opts.name + "' (available: " + sampleNames() + ")");
  if (opts.output.empty()) return usageError("sample " + opts.name + ": -o FILE is required");
  struct stat st;
  if (!opts.force && ::stat(opts.output.c_str(), &st) == 0)
    return reportError(invalidInput("already exists; pass --force to overwrite it", opts.output));
  auto dump = info->build();
  if (!dump.ok()) {
    // A bundled sample that does not build is our bug, whatever the engine called it.
    Error e = dump.error();
    e.code = ErrorCode::Internal;
    return reportError(e.within("sample '" + opts.name + "'"));
  }
  if (auto saved = saveDump(*dump, opts.output); !saved.ok()) return reportError(saved.error());
  if (opts.json) printJson({{"sample", opts.name}, {"file", opts.output}});
  else std::cout << "wrote sample '" << opts.name << "' to " << opts.output << "\n";
  return kExitOk;
}

}  // namespace

Command addSampleCommand(CLI::App& parent) {
  auto opts = std::make_shared<SampleOptions>();
  CLI::App* app = parent.add_subcommand("sample", "List the bundled sample graphs, or write one as a dump");
  CLI::Option* name = app->add_option("NAME", opts->name, "Sample to write (see --list)");
  app->add_option("-o,--output", opts->output, "Where to write the dump");
  app->add_flag("--list", opts->list, "List the bundled samples")->excludes(name);
  app->add_flag("--force", opts->force, "Overwrite FILE if it exists");
  app->add_flag("--json", opts->json, "Print JSON ({samples: [{name, description}]} for --list)");
  return {app, [opts] { return opts->list ? listSamples(opts->json) : writeSample(*opts); }};
}

}  // namespace fathom::cli
