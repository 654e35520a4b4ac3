// The `fathom` command-line tool: CLI11 parses, one file per subcommand calls the engine.
// Exit codes (DESIGN.md): 0 ok, 1 a problem found, 2 bad usage or input (one line on stderr),
// 3 internal error. CLI11's own exit codes (106, 109, ...) are mapped to 2; --help and
// --version exit 0.
#include <exception>
#include <vector>

#include "app/CliCommon.h"
#include "app/PluginFlags.h"

namespace fathom::cli {
namespace {

// "info, show, run or sample"
std::string commandList(const std::vector<Command>& commands) {
  std::string out;
  for (size_t i = 0; i < commands.size(); ++i)
    out += (i == 0 ? "" : i + 1 == commands.size() ? " or " : ", ") + commands[i].app->get_name();
  return out;
}

int handleParseError(CLI::App& app, const std::vector<Command>& commands, const CLI::ParseError& e) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
  std::string context = "fathom";
  for (const auto& c : commands)
    if (c.app->parsed()) context += " " + c.app->get_name();
  std::string message = e.what();
  if (dynamic_cast<const CLI::RequiredError*>(&e) && context == "fathom")
    message = "a subcommand is required: " + commandList(commands);
  return usageError((context == "fathom" ? "" : context.substr(7) + ": ") + message + " (see '" + context + " --help')");
}

int runCli(int argc, char** argv) {
  std::vector<std::string> plugins;
  if (int bad = takePluginFlags(argc, argv, &plugins); bad != kExitOk) return bad;
  if (int bad = loadCommandPlugins(plugins); bad != kExitOk) return bad;
  CLI::App app{"Fathom: find out why a compiled tensor program goes wrong.", "fathom"};
  app.footer("Every command takes --plugin PATH (any number of times): a plugin's ops, backends, predicates and importers "
             "(plugins/api/FathomPlugin.h); FATHOM_PLUGIN_PATH lists more (files or folders of *.so, colon-separated). "
             "'fathom plugins' lists them.");
  app.set_version_flag("--version", std::string("fathom ") + FATHOM_VERSION);
  app.require_subcommand(1);
  const std::vector<Command> commands = {addInfoCommand(app), addShowCommand(app), addRunCommand(app),
                                         addSampleCommand(app), addTraceCommand(app),
                                         addGuardsCommand(app), addCheckCommand(app), addStepCommand(app),
                                         addMinifyCommand(app), addProbeCommand(app), addExportCommand(app), addDiffCommand(app),
                                         addPluginsCommand(app)};

  // Clearer lines than CLI11's "argument was not expected" for the first word.
  if (argc > 1) {
    const std::string first = argv[1];
    bool known = false;
    for (const auto& c : commands) known |= c.app->get_name() == first;
    if (first[0] != '-' && !known)
      return usageError("unknown subcommand '" + first + "' (expected " + commandList(commands) + "; see 'fathom --help')");
    if (first[0] == '-' && first != "-h" && first != "--help" && first != "--version")
      return usageError("unknown option '" + first + "' (options go after the subcommand: fathom SUBCOMMAND [OPTIONS]; see 'fathom --help')");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return handleParseError(app, commands, e);
  }
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return usageError("a subcommand is required: " + commandList(commands));
}

}  // namespace
}  // namespace fathom::cli

int main(int argc, char** argv) {
  using namespace fathom::cli;
  try {
    return runCli(argc, argv);
  } catch (const std::exception& e) {
    printErrorLine(std::string("internal error: ") + e.what());
  } catch (...) {
    printErrorLine("internal error: unknown exception");
  }
  return kExitInternal;
}
