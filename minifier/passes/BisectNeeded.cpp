// Bisect for needed nodes: adaptive group testing (binary splitting) in the split shape
// (SplitShape.h: every computed node returned, so each node is an element of its own), after one
// query for the returned op nodes alone (one culprit, returned: the end). The nodes
// not yet known needed are the pool. If the whole pool can go, it goes and the search ends.
// Otherwise some node of the pool is needed: halve the part known to hold one, earliest half
// first - when that half can go it goes, and the needed node is in the other half; when it
// cannot, the needed node is in it - down to one node, which is needed; it leaves the pool, and
// the pool is asked again. A needed node costs one query for the pool and one per halving, about
// k (log2(n / k) + 1) queries for k needed nodes among n, near the log2 C(n, k) that any search
// needs; and no set is asked twice. Then a round of single nodes makes the result 1-minimal
// in the split shape (a node found needed may stop being needed once others went), mostly
// answered from the cache.
//
// It runs third, right after truncate suffix and remove outputs, before the passes that walk
// (output to its operands, nodes to inputs), which take time linear in the distance between the
// output and the culprit or between two needed nodes. It replaced split-at-needed there (issue
// 25, item 2; split-at-needed and probdd stay in the table, on request): ddmin's halving starts over
// at the same chunk size after each chunk that goes, asking again the chunks that hold needed
// nodes; ProbDD remembers which sets could not go, but its model (each node needed on its own)
// spreads a needed node's probability over every set that held it, so it tries sets too large to
// go. On the side-by-side bench (BERT-12 forward, five predicates) the minifications ask 158
// queries in all with this pass, 232 with split-at-needed, 180 with probdd, with the same results
// (the minifier README has the table).
// Earliest half first: the passes before it leave the output at or just past the failure, so the
// needed nodes tend to be the late ones, and a halving then costs one query.
//
// It asks one set at a time (the next depends on the answer): with `-j N` it keeps one worker
// busy, where split-at-needed asks N chunks at once.
#include <algorithm>

#include "minifier/PassContext.h"
#include "minifier/Passes.h"
#include "minifier/passes/SplitShape.h"

namespace fathom::minify {
namespace {

// Whether `trial` still fails without `gone`; when it does, it becomes the trial. No output left
// (every node returned is in `gone`) reads as "cannot go", known without asking.
bool canGo(PassContext& context, Best& trial, const std::vector<int32_t>& gone) {
  const std::optional<Cut> cut = removeNodes(trial.cut, gone);
  return cut && context.replaceWithFirstFailing(trial, {*cut}, false, false).has_value();  // verified once, at the end
}

// A needed node of `pool` (which holds one: it cannot go), by halving its front: what goes on
// the way leaves `pool`.
int32_t findNeeded(PassContext& context, Best& trial, std::vector<int32_t>& pool) {
  for (size_t size = pool.size(); size > 1 && !context.stopRequested();) {
    const std::vector<int32_t> half(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(size / 2));
    if (canGo(context, trial, half)) {
      pool.erase(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(half.size()));
      size -= half.size();
    } else {
      size = half.size();
    }
  }
  return pool.front();
}

// Binary splitting over `nodes` on `trial`, then a round of single nodes: `nodes` ends as the
// nodes that stay.
void bisect(PassContext& context, Best& trial, std::vector<int32_t>& nodes) {
  std::vector<int32_t> pool = std::move(nodes), needed;
  while (!pool.empty() && !context.stopRequested()) {
    if (canGo(context, trial, pool)) break;
    const int32_t n = findNeeded(context, trial, pool);
    needed.push_back(n);
    std::erase(pool, n);
  }
  if (context.stopRequested()) needed.insert(needed.end(), pool.begin(), pool.end());
  std::sort(needed.begin(), needed.end());  // node indices: earliest first
  nodes = std::move(needed);
  removeChunks(context, trial, nodes, 1);  // a node found needed may stop being needed once others went
}

}  // namespace

bool runBisectNeeded(PassContext& context) { return runSplitPass(context, bisect); }

}  // namespace fathom::minify
