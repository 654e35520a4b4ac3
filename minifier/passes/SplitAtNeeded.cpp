// Split at needed nodes: when a failure needs several nodes together (a softmax and a gelu both
// present), the other passes keep the whole chain between them - cutting a node in the middle
// into an input drops everything upstream of it, the first needed node included. Here every
// computed node of the best becomes an output of its own first, so a node cut into an input takes
// nothing else with it; then chunks of op nodes are cut into inputs (and dropped as outputs),
// halving down to single nodes, earliest first. What stays is the needed nodes, each returned,
// with what lies between them cut away: fx_minifier's "delta debugging" + "remove outputs"
// shape. Taken when it leaves fewer op nodes than the best (verified fresh, as every best).
// Ending on single nodes with none removable, it checks 1-minimality with respect to removing
// any one op node.
//
// It runs on request only (`--passes`): bisect-needed reaches the same shape in the same place
// with fewer queries (the minifier README has the side-by-side bench's figures). Its halving
// costs about 2k log n queries for k needed nodes among n - where the walking passes take time
// linear in a distance: output-to-operands walks up one node per step from where truncate
// suffix's binary search landed (182 queries for a culprit a layer away), nodes-to-inputs halves
// down to single nodes over the whole chain between two needed nodes (636 queries) - but after
// each chunk that goes it starts over at the same chunk size, asking again the chunks that hold
// the needed nodes. Earliest first: the passes before it leave the output at or just past the
// culprit, so the early chunks go first and each halving costs one query, not two. First it asks
// the returned op nodes alone (everything else cut into inputs): with one culprit, returned, that
// is the end in one query. The split shape's pieces are in SplitShape.h.
#include "minifier/PassContext.h"
#include "minifier/Passes.h"
#include "minifier/passes/SplitShape.h"

namespace fathom::minify {

bool runSplitAtNeeded(PassContext& context) {
  return runSplitPass(context, [](PassContext& c, Best& trial, std::vector<int32_t>& nodes) {
    removeChunks(c, trial, nodes, nodes.size() / 2);  // ends on single nodes
  });
}

}  // namespace fathom::minify
