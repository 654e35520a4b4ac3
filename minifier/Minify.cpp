// The driver: the original is asked once, then the selected passes of the table (Passes.def)
// run in order, round after round, until a whole round makes no progress. Each pass works
// through the PassContext (PassContext.h), which owns the asking, caching and verifying.
#include "minifier/Minify.h"

#include <algorithm>

#include "minifier/PassContext.h"

namespace fathom::minify {
namespace {

Status checkPassKeys(const std::vector<std::string>& keys) {
  for (const auto& key : keys)
    if (!findPass(key)) return invalidInput("unknown minifier pass '" + key + "'; the passes are " + passKeyList());
  return {};
}

bool isSelected(const PassInfo& pass, const std::vector<std::string>& keys) {
  return std::find(keys.begin(), keys.end(), pass.key) != keys.end();
}

// Runs the selected passes over context.best() until none helps (or a stop is requested).
void runPasses(PassContext& context) {
  const MinifyOptions& options = context.options();
  MinifyStats& stats = context.stats();
  for (bool changed = true; changed && !context.stopRequested();) {
    changed = false;
    for (const PassInfo& p : allPasses()) {
      if (context.stopRequested()) break;
      if (!isSelected(p, options.passes)) continue;
      context.setPass(p.name);
      if (!p.run(context)) continue;
      changed = true;
      stats.endNodes = context.best().candidate.graph.size();
      if (options.onImprove) options.onImprove(context.best().candidate, stats);
      auto& helped = stats.passesThatHelped;
      if (std::find(helped.begin(), helped.end(), p.name) == helped.end()) helped.push_back(p.name);
    }
  }
}

}  // namespace

Result<MinifyResult> minify(const Graph& graph, const std::vector<ExampleInput>& inputs, const Oracle& oracle,
                            const MinifyOptions& options) {
  if (graph.placeholders().size() != inputs.size())
    return invalidInput("the graph has " + std::to_string(graph.placeholders().size()) + " placeholders but " +
                        std::to_string(inputs.size()) + " inputs were given");
  FATHOM_TRY(checkPassKeys(options.passes));
  PassContext context(graph, inputs, oracle, options);
  context.startZygote();  // before the real values: it is forked small, and so are the workers it forks
  FATHOM_TRY(context.computeRealValues());
  auto original = context.askOriginal();
  FATHOM_TRY(original);
  if (!original->fails) {
    context.stats().endNodes = graph.size();
    return MinifyResult{std::move(context.best().candidate), context.stats(), false, original->what};
  }
  runPasses(context);
  context.stats().endNodes = context.best().candidate.graph.size();
  return MinifyResult{std::move(context.best().candidate), context.stats(), true, original->what};
}

}  // namespace fathom::minify
