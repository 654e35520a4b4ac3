// GroupTree: sides, module paths, repeated blocks, sections; children capped; structural hashes
// (Grouping.h).
#include "viz/model/Grouping.h"
#include "viz/model/HashMix.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <queue>
#include <unordered_map>

#include "viz/model/RepeatedBlocks.h"

namespace fathom::viz {

std::string_view groupKindName(GroupKind k) {
  switch (k) {
    case GroupKind::Root: return "graph";
    case GroupKind::Side: return "side";
    case GroupKind::Module: return "module";
    case GroupKind::Block: return "block";
    case GroupKind::Section: return "section";
  }
  return "";
}

namespace {

uint64_t mix(uint64_t h, uint64_t v) { return hashMix(h, v); }

// A module path's trie, before it becomes groups: nodes directly at each path, child paths.
struct ModuleTrie {
  std::string path;
  std::vector<int32_t> nodes;
  std::map<std::string, size_t> kids;  // component -> index into the trie's storage
};

}  // namespace

class GroupBuilder {
 public:
  GroupBuilder(const GraphModel& model, const GroupingOptions& options) : m_(model), o_(options) {
    t_.nodeGroup_.assign(model.size(), 0);
    if (o_.maxChildren < 2) o_.maxChildren = 2;
  }

  GroupTree build() {
    t_.groups_.push_back({GroupKind::Root, -1, 0, m_.graphName(), {}, 0, 0, 0, -1, 0});
    std::vector<int32_t> all(m_.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int32_t>(i);
    if (o_.useSides && m_.hasBothSides()) {
      std::vector<int32_t> sides[3];
      for (int32_t n : all) sides[static_cast<int>(m_.node(n).side)].push_back(n);
      place(0, sides[0]);
      for (Side s : {Side::Forward, Side::Backward}) {
        auto& members = sides[static_cast<int>(s)];
        if (members.empty()) continue;
        const int32_t g = newGroup(GroupKind::Side, 0, std::string(sideName(s)));
        groupScope(g, members);
      }
    } else {
      groupScope(0, all);
    }
    finish();
    return std::move(t_);
  }

 private:
  int32_t newGroup(GroupKind kind, int32_t parent, std::string label) {
    Group g;
    g.kind = kind;
    g.parent = parent;
    g.label = std::move(label);
    t_.groups_.push_back(std::move(g));
    const auto id = static_cast<int32_t>(t_.groups_.size()) - 1;
    t_.groups_[static_cast<size_t>(parent)].children.push_back({true, id});
    return id;
  }

  void place(int32_t g, const std::vector<int32_t>& nodes) {
    for (int32_t n : nodes) {
      t_.groups_[static_cast<size_t>(g)].children.push_back({false, n});
      t_.nodeGroup_[static_cast<size_t>(n)] = g;
    }
  }

  // Module paths when the scope's calls have them, else repeats and sections.
  void groupScope(int32_t g, const std::vector<int32_t>& nodes) {
    bool modules = false;
    if (o_.useModules)
      for (int32_t n : nodes) modules = modules || !m_.node(n).module.empty();
    if (!modules) return groupFlat(g, nodes);
    std::vector<ModuleTrie> trie(1);
    for (int32_t n : nodes) {
      const std::string& path = m_.node(n).module;
      size_t at = 0;
      for (size_t begin = 0; !path.empty() && begin <= path.size();) {
        size_t end = path.find('.', begin);
        if (end == std::string::npos) end = path.size();
        auto [it, fresh] = trie[at].kids.try_emplace(path.substr(begin, end - begin), trie.size());
        if (fresh) trie.push_back({path.substr(0, end), {}, {}});
        at = it->second;
        begin = end + 1;
      }
      trie[at].nodes.push_back(n);
    }
    groupFlat(g, trie[0].nodes);
    for (const auto& [name, kid] : trie[0].kids) materialize(trie, kid, g);
  }

  void materialize(const std::vector<ModuleTrie>& trie, size_t at, int32_t parent) {
    while (trie[at].nodes.empty() && trie[at].kids.size() == 1) at = trie[at].kids.begin()->second;  // merge chains
    const int32_t g = newGroup(GroupKind::Module, parent, trie[at].path);
    groupFlat(g, trie[at].nodes);
    for (const auto& [name, kid] : trie[at].kids) materialize(trie, kid, g);
  }

  // Places `nodes` (graph order) under g: flat when few, else repeated blocks, else sections.
  void groupFlat(int32_t g, const std::vector<int32_t>& nodes) {
    if (static_cast<int32_t>(nodes.size()) <= o_.maxChildren) return place(g, nodes);
    if (o_.useRepeats) {
      const RepeatRun run = findRepeats(nodes);
      if (run.count >= 2) {
        const auto begin = nodes.begin() + run.begin;
        const auto end = begin + static_cast<std::ptrdiff_t>(run.period) * run.count;
        groupFlat(g, std::vector<int32_t>(nodes.begin(), begin));
        for (int32_t k = 0; k < run.count; ++k) {
          const int32_t b = newGroup(GroupKind::Block, g, "block " + std::to_string(k));
          t_.groups_[static_cast<size_t>(b)].repeatIndex = k;
          t_.groups_[static_cast<size_t>(b)].repeatCount = run.count;
          const auto from = begin + static_cast<std::ptrdiff_t>(run.period) * k;
          groupFlat(b, std::vector<int32_t>(from, from + run.period));
        }
        groupFlat(g, std::vector<int32_t>(end, nodes.end()));
        return;
      }
    }
    const size_t chunk = balancedChunk(nodes.size());
    for (size_t s = 0; s < nodes.size(); s += chunk) {
      const size_t e = std::min(nodes.size(), s + chunk);
      const int32_t sec = newGroup(GroupKind::Section, g, "");
      place(sec, std::vector<int32_t>(nodes.begin() + static_cast<std::ptrdiff_t>(s), nodes.begin() + static_cast<std::ptrdiff_t>(e)));
    }
  }

  RepeatRun findRepeats(const std::vector<int32_t>& nodes) {
    std::vector<int32_t> ops(nodes.size());
    std::vector<std::vector<int32_t>> inputs(nodes.size());
    std::unordered_map<int32_t, int32_t> position;
    position.reserve(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      const NodeInfo& n = m_.node(nodes[i]);
      ops[i] = opIds_.try_emplace(n.op, static_cast<int32_t>(opIds_.size())).first->second;
      for (int32_t u : n.inputs)
        if (auto it = position.find(u); it != position.end()) inputs[i].push_back(it->second);
      position.emplace(nodes[i], static_cast<int32_t>(i));
    }
    RepeatOptions ro;
    ro.minBlock = o_.minBlockSize;
    return findRepeatRun(ops, inputs, ro);
  }

  // Sections of nodes: equal sizes, as few as the cap allows (1,200 nodes: 3 x 400).
  size_t balancedChunk(size_t n) const {
    const auto cap = static_cast<size_t>(o_.maxChildren);
    const size_t sections = (n + cap - 1) / cap;
    return (n + sections - 1) / sections;
  }
  // Sections of children (groups and nodes): about sqrt(n) sections of sqrt(n) each, so both
  // levels stay browsable - 686 blocks make 27 sections of 26, not 2 of 343.
  size_t childChunk(size_t n) const {
    const auto cap = static_cast<size_t>(o_.maxChildren);
    const auto root = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
    const size_t sections = std::max((n + cap - 1) / cap, root);
    return std::max<size_t>(1, (n + sections - 1) / sections);
  }

  // Wraps runs of children into sections until no group has more than maxChildren.
  void capChildren(int32_t g) {
    const auto cap = static_cast<size_t>(o_.maxChildren);
    while (t_.groups_[static_cast<size_t>(g)].children.size() > cap) {
      std::vector<GroupChild> kids = std::move(t_.groups_[static_cast<size_t>(g)].children);
      t_.groups_[static_cast<size_t>(g)].children.clear();
      const size_t chunk = childChunk(kids.size());
      for (size_t s = 0; s < kids.size(); s += chunk) {
        const int32_t sec = newGroup(GroupKind::Section, g, "");
        for (size_t k = s; k < std::min(kids.size(), s + chunk); ++k) {
          t_.groups_[static_cast<size_t>(sec)].children.push_back(kids[k]);
          if (kids[k].isGroup) t_.groups_[static_cast<size_t>(kids[k].index)].parent = sec;
          else t_.nodeGroup_[static_cast<size_t>(kids[k].index)] = sec;
        }
      }
    }
  }

  int32_t firstNodeOf(GroupChild c) const {
    return c.isGroup ? t_.groups_[static_cast<size_t>(c.index)].firstNode : c.index;
  }

  // Sizes and first node from the (finished) children; children sorted by first node.
  void summarize(int32_t g) {
    Group& grp = t_.groups_[static_cast<size_t>(g)];
    grp.numNodes = 0;
    grp.firstNode = static_cast<int32_t>(m_.size());
    for (GroupChild c : grp.children) {
      grp.numNodes += c.isGroup ? t_.groups_[static_cast<size_t>(c.index)].numNodes : 1;
      grp.firstNode = std::min(grp.firstNode, firstNodeOf(c));
    }
    std::sort(grp.children.begin(), grp.children.end(),
              [&](GroupChild a, GroupChild b) { return firstNodeOf(a) < firstNodeOf(b); });
  }

  // Post-order: summaries and caps (new sections are summarized in creation order, which puts
  // children first); then depths from the root, section labels and hashes.
  void finish() {
    std::function<void(int32_t)> visit = [&](int32_t g) {
      for (GroupChild c : std::vector<GroupChild>(t_.groups_[static_cast<size_t>(g)].children))
        if (c.isGroup) visit(c.index);
      summarize(g);
      const size_t before = t_.groups_.size();
      capChildren(g);
      for (size_t s = before; s < t_.groups_.size(); ++s) summarize(static_cast<int32_t>(s));
      if (t_.groups_.size() > before) summarize(g);
    };
    visit(0);
    childOf_.assign(m_.size(), -1);
    for (size_t g = 0; g < t_.groups_.size(); ++g) orderByFlow(static_cast<int32_t>(g));
    std::vector<int32_t> stack{0};
    while (!stack.empty()) {
      const int32_t g = stack.back();
      stack.pop_back();
      for (GroupChild c : t_.groups_[static_cast<size_t>(g)].children)
        if (c.isGroup) {
          t_.groups_[static_cast<size_t>(c.index)].depth = t_.groups_[static_cast<size_t>(g)].depth + 1;
          stack.push_back(c.index);
        }
    }
    scratch_.assign(m_.size(), -1);
    for (size_t g = 0; g < t_.groups_.size(); ++g) {
      Group& grp = t_.groups_[g];
      if (grp.kind == GroupKind::Section) {
        const auto below = t_.nodesBelow(static_cast<int32_t>(g));
        grp.label = below.empty() ? "nodes" : "nodes " + std::to_string(below.front()) + "-" + std::to_string(below.back());
      }
      grp.structuralHash = structuralHash(static_cast<int32_t>(g));
    }
  }

  // Children in an order that data flows along: a topological order of the edges between them,
  // ties and cycles broken by first node. Layouts draw edges from earlier to later children
  // downward; by first node alone, a module whose parameters open the graph came before the
  // activations feeding it (BERT's "attention" above hidden_states, every edge into it upward).
  void orderByFlow(int32_t g) {
    std::vector<GroupChild>& children = t_.groups_[static_cast<size_t>(g)].children;
    const size_t k = children.size();
    if (k < 2) return;
    std::vector<std::vector<int32_t>> below(k);
    for (size_t i = 0; i < k; ++i) {
      below[i] = children[i].isGroup ? t_.nodesBelow(children[i].index) : std::vector<int32_t>{children[i].index};
      for (int32_t n : below[i]) childOf_[static_cast<size_t>(n)] = static_cast<int32_t>(i);
    }
    std::vector<std::vector<int32_t>> users(k);
    std::vector<int32_t> pending(k, 0);  // inputs from other children not yet placed
    for (size_t i = 0; i < k; ++i)
      for (int32_t n : below[i])
        for (int32_t u : m_.node(n).inputs) {
          const int32_t from = childOf_[static_cast<size_t>(u)];
          if (from < 0 || from == static_cast<int32_t>(i)) continue;
          users[static_cast<size_t>(from)].push_back(static_cast<int32_t>(i));
          ++pending[i];
        }
    for (const auto& b : below)
      for (int32_t n : b) childOf_[static_cast<size_t>(n)] = -1;
    std::priority_queue<int32_t, std::vector<int32_t>, std::greater<>> ready;  // by first node
    for (size_t i = 0; i < k; ++i)
      if (pending[i] == 0) ready.push(static_cast<int32_t>(i));
    std::vector<uint8_t> placed(k, 0);
    std::vector<GroupChild> order;
    order.reserve(k);
    size_t earliest = 0;  // the first child not placed: where a cycle is broken
    while (order.size() < k) {
      if (ready.empty()) {
        while (placed[earliest]) ++earliest;
        ready.push(static_cast<int32_t>(earliest));
      }
      const auto i = static_cast<size_t>(ready.top());
      ready.pop();
      if (placed[i]) continue;
      placed[i] = 1;
      order.push_back(children[i]);
      for (int32_t j : users[i])
        if (!placed[static_cast<size_t>(j)] && --pending[static_cast<size_t>(j)] == 0) ready.push(j);
    }
    children = std::move(order);
  }

  // Over the nodes below g in graph order - op, kind, each input as a distance back within g or
  // "outside" - and over the shape of the nesting (each child: group kind and size, or node).
  uint64_t structuralHash(int32_t g) {
    const auto below = t_.nodesBelow(g);
    for (size_t k = 0; k < below.size(); ++k) scratch_[static_cast<size_t>(below[k])] = static_cast<int32_t>(k);
    uint64_t h = mix(0x5157, below.size());
    for (size_t k = 0; k < below.size(); ++k) {
      const NodeInfo& n = m_.node(below[k]);
      h = mix(h, std::hash<std::string>{}(n.op));
      for (int32_t u : n.inputs) {
        const int32_t at = scratch_[static_cast<size_t>(u)];
        h = mix(h, at < 0 ? 0xFFFFFFFFULL : static_cast<uint64_t>(static_cast<int32_t>(k) - at));
      }
      h = mix(h, 0xABCD);
    }
    for (GroupChild c : t_.groups_[static_cast<size_t>(g)].children)
      h = mix(h, c.isGroup ? mix(static_cast<uint64_t>(t_.groups_[static_cast<size_t>(c.index)].kind) + 1,
                                 static_cast<uint64_t>(t_.groups_[static_cast<size_t>(c.index)].numNodes))
                           : 0);
    for (int32_t n : below) scratch_[static_cast<size_t>(n)] = -1;
    return h;
  }

  const GraphModel& m_;
  GroupingOptions o_;
  GroupTree t_;
  std::unordered_map<std::string, int32_t> opIds_;
  std::vector<int32_t> scratch_;
  std::vector<int32_t> childOf_;  // orderByFlow: node -> position of the child holding it, or -1
};

GroupTree GroupTree::build(const GraphModel& model, const GroupingOptions& options) {
  return GroupBuilder(model, options).build();
}

std::vector<int32_t> GroupTree::ancestors(int32_t group) const {
  std::vector<int32_t> out;
  for (int32_t g = groups_[static_cast<size_t>(group)].parent; g >= 0; g = groups_[static_cast<size_t>(g)].parent) out.push_back(g);
  return out;
}

bool GroupTree::within(int32_t group, int32_t ancestor) const {
  for (int32_t g = group; g >= 0; g = groups_[static_cast<size_t>(g)].parent)
    if (g == ancestor) return true;
  return false;
}

std::vector<int32_t> GroupTree::nodesBelow(int32_t group) const {
  std::vector<int32_t> out;
  std::vector<int32_t> stack{group};
  while (!stack.empty()) {
    const Group& g = groups_[static_cast<size_t>(stack.back())];
    stack.pop_back();
    for (GroupChild c : g.children) {
      if (c.isGroup) stack.push_back(c.index);
      else out.push_back(c.index);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string GroupTree::title(int32_t group) const {
  const Group& g = groups_[static_cast<size_t>(group)];
  return g.label + " (" + std::to_string(g.numNodes) + (g.numNodes == 1 ? " node)" : " nodes)");
}

}  // namespace fathom::viz
