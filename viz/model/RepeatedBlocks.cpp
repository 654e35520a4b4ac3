// RepeatedBlocks: periods of an op sequence (RepeatedBlocks.h).
#include "viz/model/RepeatedBlocks.h"

#include <algorithm>
#include <unordered_map>

namespace fathom::viz {
namespace {

// The candidate periods: gaps between consecutive occurrences of equal windows, most frequent
// first (step 2).
std::vector<int32_t> candidatePeriods(const std::vector<int32_t>& ops, const RepeatOptions& o) {
  const auto n = static_cast<int32_t>(ops.size());
  const int32_t w = std::max(1, std::min(o.window, o.minBlock));
  const int32_t maxPeriod = n / std::max(2, o.minCount);
  if (n < w || maxPeriod < o.minBlock) return {};
  constexpr uint64_t kBase = 1000003;
  uint64_t top = 1;  // kBase^(w-1)
  for (int32_t i = 1; i < w; ++i) top *= kBase;
  std::unordered_map<uint64_t, int32_t> last;
  last.reserve(static_cast<size_t>(n));
  std::vector<int32_t> gapCount(static_cast<size_t>(maxPeriod) + 1, 0);
  uint64_t h = 0;
  for (int32_t i = 0; i < n; ++i) {
    if (i >= w) h -= top * static_cast<uint64_t>(ops[static_cast<size_t>(i - w)] + 1);
    h = h * kBase + static_cast<uint64_t>(ops[static_cast<size_t>(i)] + 1);
    if (i + 1 < w) continue;
    const int32_t at = i + 1 - w;  // window start
    auto [it, fresh] = last.try_emplace(h, at);
    if (!fresh) {
      const int32_t gap = at - it->second;
      if (gap >= o.minBlock && gap <= maxPeriod) ++gapCount[static_cast<size_t>(gap)];
      it->second = at;
    }
  }
  std::vector<int32_t> periods;
  for (int32_t d = o.minBlock; d <= maxPeriod; ++d)
    if (gapCount[static_cast<size_t>(d)] > 0) periods.push_back(d);
  std::sort(periods.begin(), periods.end(), [&](int32_t a, int32_t b) {
    return gapCount[static_cast<size_t>(a)] != gapCount[static_cast<size_t>(b)]
               ? gapCount[static_cast<size_t>(a)] > gapCount[static_cast<size_t>(b)]
               : a > b;
  });
  if (periods.size() > static_cast<size_t>(o.candidates)) periods.resize(static_cast<size_t>(o.candidates));
  return periods;
}

// The longest stretch [begin, begin + length) that is d-periodic (step 3).
std::pair<int32_t, int32_t> longestPeriodicStretch(const std::vector<int32_t>& ops, int32_t d) {
  const auto n = static_cast<int32_t>(ops.size());
  int32_t bestBegin = 0, bestRun = -1, runBegin = 0;
  for (int32_t i = 0; i + d <= n; ++i) {
    const bool match = i + d < n && ops[static_cast<size_t>(i)] == ops[static_cast<size_t>(i + d)];
    if (match) continue;
    if (i - runBegin > bestRun) bestRun = i - runBegin, bestBegin = runBegin;
    runBegin = i + 1;
  }
  return {bestBegin, bestRun < 0 ? 0 : bestRun + d};
}

}  // namespace

RepeatRun findRepeatRun(const std::vector<int32_t>& ops, const std::vector<std::vector<int32_t>>& inputs,
                        const RepeatOptions& options) {
  RepeatRun best;
  int64_t bestCover = 0;
  int32_t stretchBegin = 0, stretchLength = 0;
  for (int32_t d : candidatePeriods(ops, options)) {
    const auto [begin, length] = longestPeriodicStretch(ops, d);
    const int32_t count = length / d;
    const int64_t cover = static_cast<int64_t>(count) * d;
    if (count < options.minCount) continue;
    if (cover > bestCover || (cover == bestCover && d > best.period)) {
      best = {begin, d, count};
      bestCover = cover;
      stretchBegin = begin;
      stretchLength = length;
    }
  }
  if (best.count == 0) return best;

  // Step 4: among the phases that keep the most blocks, the one whose boundaries cut the fewest
  // edges. crossing[c] = edges u -> v with u < c <= v.
  const auto n = static_cast<int32_t>(ops.size());
  std::vector<int32_t> crossing(static_cast<size_t>(n) + 2, 0);
  for (size_t v = 0; v < inputs.size() && v < ops.size(); ++v)
    for (int32_t u : inputs[v])
      if (u >= 0 && static_cast<size_t>(u) < v) {
        ++crossing[static_cast<size_t>(u) + 1];
        --crossing[v + 1];
      }
  for (size_t c = 1; c < crossing.size(); ++c) crossing[c] += crossing[c - 1];
  double bestCost = -1;
  for (int32_t phase = 0; phase < best.period; ++phase) {
    const int32_t count = (stretchLength - phase) / best.period;
    if (count < best.count) break;  // later phases only lose blocks
    double cost = 0;
    for (int32_t k = 0; k <= count; ++k) cost += crossing[static_cast<size_t>(stretchBegin + phase + k * best.period)];
    cost /= count + 1;
    if (bestCost < 0 || cost < bestCost) {
      bestCost = cost;
      best.begin = stretchBegin + phase;
    }
  }
  return best;
}

}  // namespace fathom::viz
