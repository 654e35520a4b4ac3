// ComposeScene: ViewState::scene() - walks the expanded groups from the root, translating each
// group's cached layout into scene coordinates, then maps every graph edge onto the visible items
// and routes it through the layout of the innermost group holding both ends. O(visible items +
// graph edges); no layout is computed here.
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_set>

#include "viz/model/ItemText.h"
#include "viz/model/ViewState.h"

namespace fathom::viz {

int32_t Scene::itemAt(Point p) const {
  for (size_t i = items.size(); i-- > 0;)
    if (items[i].box.contains(p)) return static_cast<int32_t>(i);
  return -1;
}

class SceneComposer {
 public:
  explicit SceneComposer(const ViewState& view) : v_(view), t_(*view.tree_), m_(*view.model_) {}

  Scene compose() {
    const size_t groups = t_.groups().size();
    childIndex_.assign(groups, -1);
    origin_.assign(groups, Point{});
    for (const Group& g : t_.groups())
      for (size_t c = 0; c < g.children.size(); ++c)
        if (g.children[c].isGroup) childIndex_[static_cast<size_t>(g.children[c].index)] = static_cast<int32_t>(c);
    countPerGroup(v_.matches_, matchCount_);
    countPerGroup(v_.selection_, selectedCount_);
    selected_.insert(v_.selection_.begin(), v_.selection_.end());
    if (v_.filter_) matched_.insert(v_.matches_.begin(), v_.matches_.end());
    s_.nodeItems.assign(m_.size(), -1);
    const int32_t root = t_.root();
    if (v_.layoutOf(root)) {
      placeGroup(root, Point{0, 0}, 1);
    } else {
      addGroupItem(root, Rect{0, 0, 200, 40}, 0, -1, -1, true);
      s_.complete = false;
    }
    routeEdges();
    spreadStubs();
    for (const SceneItem& it : s_.items) s_.bounds = s_.bounds.united(it.box);
    for (const SceneFrame& f : s_.frames) s_.bounds = s_.bounds.united(f.box);
    return std::move(s_);
  }

 private:
  struct ItemPlace {
    int32_t owner = -1;  // the group whose layout placed the item
    int32_t child = -1;  // its child index there
  };

  void countPerGroup(const std::vector<int32_t>& nodes, std::vector<int32_t>& counts) {
    counts.assign(t_.groups().size(), 0);
    for (int32_t n : nodes)
      for (int32_t g = t_.groupOfNode(n); g >= 0; g = t_.group(g).parent) ++counts[static_cast<size_t>(g)];
  }

  void placeGroup(int32_t g, Point origin, int32_t depth) {
    auto layout = v_.layoutOf(g);
    origin_[static_cast<size_t>(g)] = origin;
    const auto& children = t_.group(g).children;
    for (size_t c = 0; c < children.size(); ++c) {
      const Rect box = layout->layout.boxes[c].translated(origin.x, origin.y);
      const GroupChild child = children[c];
      if (!child.isGroup) {
        addNodeItem(child.index, box, depth, g, static_cast<int32_t>(c));
      } else if (v_.isExpanded(child.index) && v_.layoutOf(child.index)) {
        s_.frames.push_back({child.index, box, t_.title(child.index), depth});
        placeGroup(child.index, {box.x + v_.style_.framePadding, box.y + v_.style_.frameTitle + v_.style_.framePadding}, depth + 1);
      } else {
        const bool pending = v_.isExpanded(child.index);
        if (pending) s_.complete = false;
        addGroupItem(child.index, box, depth, g, static_cast<int32_t>(c), pending);
      }
    }
  }

  void addNodeItem(int32_t n, const Rect& box, int32_t depth, int32_t owner, int32_t child) {
    const NodeInfo& info = m_.node(n);
    SceneItem it;
    it.id = n;
    it.box = box;
    it.lines = nodeLines(info);
    it.depth = depth;
    it.side = info.side;
    it.role = info.role;
    it.aside = v_.aside_[static_cast<size_t>(n)];
    it.selected = selected_.count(n) > 0;
    it.dimmed = v_.filter_ && !matched_.count(n);
    it.matches = matched_.count(n) ? 1 : 0;
    if (!v_.highlight_.empty()) it.highlight = v_.highlight_[static_cast<size_t>(n)];
    if (!v_.marks_.empty()) it.mark = v_.marks_[static_cast<size_t>(n)];
    if (!v_.breakpoints_.empty()) it.breakpoint = v_.breakpoints_[static_cast<size_t>(n)];
    s_.nodeItems[static_cast<size_t>(n)] = static_cast<int32_t>(s_.items.size());
    places_.push_back({owner, child});
    s_.items.push_back(std::move(it));
  }

  void addGroupItem(int32_t g, const Rect& box, int32_t depth, int32_t owner, int32_t child, bool pending) {
    SceneItem it;
    it.isGroup = true;
    it.id = g;
    it.box = box;
    it.lines = groupLines(t_, g);
    it.depth = depth;
    it.pending = pending;
    it.matches = matchCount_[static_cast<size_t>(g)];
    it.selected = selectedCount_[static_cast<size_t>(g)] > 0;
    it.dimmed = v_.filter_ && it.matches == 0;
    const auto item = static_cast<int32_t>(s_.items.size());
    // Every node below shows as this box; the group's side is that of its nodes when they agree.
    std::vector<int32_t> stack{g};
    bool first = true;
    while (!stack.empty()) {
      const Group& grp = t_.group(stack.back());
      stack.pop_back();
      for (GroupChild c : grp.children) {
        if (c.isGroup) {
          stack.push_back(c.index);
          continue;
        }
        s_.nodeItems[static_cast<size_t>(c.index)] = item;
        const Side side = m_.node(c.index).side;
        it.side = first ? side : (it.side == side ? side : Side::None);
        first = false;
        if (!v_.highlight_.empty() && v_.highlight_[static_cast<size_t>(c.index)] != Highlight::None)
          it.highlight = v_.highlight_[static_cast<size_t>(c.index)];
        if (!v_.marks_.empty() && markRank(v_.marks_[static_cast<size_t>(c.index)]) > markRank(it.mark))
          it.mark = v_.marks_[static_cast<size_t>(c.index)];
        if (!v_.breakpoints_.empty() && v_.breakpoints_[static_cast<size_t>(c.index)]) it.breakpoint = true;
      }
    }
    places_.push_back({owner, child});
    s_.items.push_back(std::move(it));
  }

  std::string labelOf(int32_t item) const {
    const SceneItem& it = s_.items[static_cast<size_t>(item)];
    return it.isGroup ? t_.title(it.id) : "%" + m_.node(it.id).name;
  }

  void addStub(int32_t item, int32_t other, bool incoming, int32_t count, bool cut) {
    SceneStub st;
    st.item = item;
    st.incoming = incoming;
    st.label = (incoming ? "\u2190 " : "\u2192 ") + labelOf(other);
    st.otherItem = other;
    st.otherNode = s_.items[static_cast<size_t>(other)].isGroup ? -1 : s_.items[static_cast<size_t>(other)].id;
    st.count = count;
    st.crossesCut = cut;
    s_.stubs.push_back(std::move(st));
  }

  // The innermost group whose layout holds both items, and the children there that hold them.
  // False when an item was not placed by a layout (the pending root).
  bool commonLayout(int32_t a, int32_t b, int32_t* group, int32_t* ca, int32_t* cb) const {
    int32_t ga = places_[static_cast<size_t>(a)].owner, gb = places_[static_cast<size_t>(b)].owner;
    int32_t ia = places_[static_cast<size_t>(a)].child, ib = places_[static_cast<size_t>(b)].child;
    if (ga < 0 || gb < 0) return false;
    while (ga != gb) {
      if (t_.group(ga).depth >= t_.group(gb).depth) {
        ia = childIndex_[static_cast<size_t>(ga)];
        ga = t_.group(ga).parent;
      } else {
        ib = childIndex_[static_cast<size_t>(gb)];
        gb = t_.group(gb).parent;
      }
      if (ga < 0 || gb < 0) return false;
    }
    *group = ga, *ca = ia, *cb = ib;
    return true;
  }

  void routeEdges() {
    const bool bothSides = m_.hasBothSides();
    struct Merged {
      int32_t count = 0;
      bool cut = false;
    };
    std::map<std::pair<int32_t, int32_t>, Merged> merged;
    std::unordered_set<uint64_t> asideStubs;
    for (const NodeInfo& v : m_.nodes()) {
      const int32_t b = s_.nodeItems[static_cast<size_t>(v.index)];
      for (int32_t u : v.inputs) {
        const int32_t a = s_.nodeItems[static_cast<size_t>(u)];
        if (a < 0 || b < 0 || a == b) continue;
        const bool asideEnd = (!s_.items[static_cast<size_t>(a)].isGroup && v_.aside_[static_cast<size_t>(u)]) ||
                              (!s_.items[static_cast<size_t>(b)].isGroup && v_.aside_[static_cast<size_t>(v.index)]);
        if (asideEnd) {  // one stub at the end away from the aside node, once per pair
          const bool sourceAside = !s_.items[static_cast<size_t>(a)].isGroup && v_.aside_[static_cast<size_t>(u)];
          const int32_t at = sourceAside ? b : a, other = sourceAside ? a : b;
          if (asideStubs.insert((static_cast<uint64_t>(at) << 32) | static_cast<uint32_t>(other)).second)
            addStub(at, other, sourceAside, 1, false);
          continue;
        }
        Merged& e = merged[{a, b}];
        ++e.count;
        e.cut = e.cut || (bothSides && m_.node(u).side == Side::Forward && v.side == Side::Backward);
      }
    }
    for (const auto& [ends, e] : merged) routeEdge(ends.first, ends.second, e.count, e.cut);
  }

  void routeEdge(int32_t a, int32_t b, int32_t count, bool cut) {
    const Rect& ra = s_.items[static_cast<size_t>(a)].box;
    const Rect& rb = s_.items[static_cast<size_t>(b)].box;
    SceneEdge e{a, b, {}, count, cut, false};
    int32_t g = -1, ca = -1, cb = -1;
    if (commonLayout(a, b, &g, &ca, &cb)) {
      auto layout = v_.layoutOf(g);
      const auto& edges = layout->edges;
      const LayoutEdge key{ca, cb, 0};
      auto it = std::lower_bound(edges.begin(), edges.end(), key, [](const LayoutEdge& x, const LayoutEdge& y) {
        return x.from != y.from ? x.from < y.from : x.to < y.to;
      });
      if (it != edges.end() && it->from == ca && it->to == cb) {
        const RoutedEdge& r = layout->layout.edges[static_cast<size_t>(it - edges.begin())];
        if (r.route == EdgeRoute::Stubbed || r.route == EdgeRoute::Aside) {
          addStub(a, b, false, count, cut);
          addStub(b, a, true, count, cut);
          return;
        }
        if (r.route == EdgeRoute::Polyline && r.points.size() >= 2) {
          const Point o = origin_[static_cast<size_t>(g)];
          const bool directA = places_[static_cast<size_t>(a)].owner == g, directB = places_[static_cast<size_t>(b)].owner == g;
          e.reversed = r.reversed;
          e.points.push_back(directA ? Point{r.points.front().x + o.x, r.points.front().y + o.y}
                                     : (r.reversed ? ra.topCenter() : ra.bottomCenter()));
          for (size_t k = 1; k + 1 < r.points.size(); ++k) e.points.push_back({r.points[k].x + o.x, r.points[k].y + o.y});
          e.points.push_back(directB ? Point{r.points.back().x + o.x, r.points.back().y + o.y}
                                     : (r.reversed ? rb.bottomCenter() : rb.topCenter()));
        }
      }
    }
    if (e.points.empty()) e.points = {ra.bottomCenter(), rb.topCenter()};
    if (std::abs(e.points.back().y - e.points.front().y) > v_.style_.maxEdgeLength) {
      addStub(a, b, false, count, cut);
      addStub(b, a, true, count, cut);
      return;
    }
    s_.edges.push_back(std::move(e));
  }

  // Stubs on one item are spread along its top (incoming) or bottom (outgoing) side.
  void spreadStubs() {
    std::map<std::pair<int32_t, bool>, std::vector<size_t>> byItem;
    for (size_t k = 0; k < s_.stubs.size(); ++k) byItem[{s_.stubs[k].item, s_.stubs[k].incoming}].push_back(k);
    for (const auto& [key, list] : byItem) {
      const Rect& box = s_.items[static_cast<size_t>(key.first)].box;
      for (size_t k = 0; k < list.size(); ++k)
        s_.stubs[list[k]].at = {box.x + box.width * (static_cast<double>(k) + 1) / (static_cast<double>(list.size()) + 1),
                                key.second ? box.y : box.bottom()};
    }
  }

  const ViewState& v_;
  const GroupTree& t_;
  const GraphModel& m_;
  Scene s_;
  std::vector<int32_t> childIndex_;
  std::vector<Point> origin_;
  std::vector<ItemPlace> places_;  // per item
  std::vector<int32_t> matchCount_, selectedCount_;
  std::unordered_set<int32_t> selected_, matched_;
};

Scene ViewState::scene() const { return SceneComposer(*this).compose(); }

}  // namespace fathom::viz
