// Find: queries over one graph's nodes (the find bar and the filter share them), results in graph
// order with next/previous, and a Navigator that walks the graph (follow an input or a user) and
// goes back and forth through a history - the headless equivalents of the GUI's find bar and
// keyboard navigation.
//
//   FindQuery q;  q.op = "addmm|mm";  q.module = "encoder.layer.3";
//   auto found = findNodes(model, q);            // Result<std::vector<int32_t>>
//   FindCursor cursor(*found);  cursor.next();   // first result
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "viz/model/GraphModel.h"

namespace fathom::viz {

struct FindQuery {
  std::string name;          // std::regex (ECMAScript), searched in the node name; "" = any
  std::string op;            // std::regex, searched in the full and the short op name; "" = any
  std::string module;        // module path prefix by components ("encoder.layer.3" matches
                             // "encoder.layer.3.attention", not "encoder.layer.30"); "" = any
  std::optional<Side> side;  // forward / backward only
  bool hasGuard = false;     // only nodes some guard names
  bool savedAcrossCut = false;  // only saved values: SavedForBackward, SavedInput, CrossesCut
  bool ignoreCase = false;   // for the regexes
  bool empty() const {
    return name.empty() && op.empty() && module.empty() && !side && !hasGuard && !savedAcrossCut;
  }
};

// A compiled query. A bad regex is an InvalidInput error naming the field and std::regex's reason.
class NodeMatcher {
 public:
  static Result<NodeMatcher> compile(const FindQuery& query);
  bool matches(const NodeInfo& node) const;

 private:
  FindQuery query_;
  std::optional<std::regex> name_, op_;
};

// Every node matching `query`, in graph order.
Result<std::vector<int32_t>> findNodes(const GraphModel& model, const FindQuery& query);
// Whether a module path lies at or below `prefix`, by components.
bool modulePathWithin(std::string_view module, std::string_view prefix);

// Next / previous over a result list, wrapping around. Starts before the first result.
class FindCursor {
 public:
  explicit FindCursor(std::vector<int32_t> results) : results_(std::move(results)) {}
  const std::vector<int32_t>& results() const { return results_; }
  // The result at the cursor, or -1 before the first step / when there are none.
  int32_t current() const { return pos_ < 0 ? -1 : results_[static_cast<size_t>(pos_)]; }
  int32_t position() const { return pos_; }  // 0-based; -1 before the first step
  int32_t next();      // the result after the cursor (the first one at the start); -1 if none
  int32_t previous();  // the result before it (the last one at the start); -1 if none
  // Puts the cursor on the first result at or after `node` in graph order (find from here).
  int32_t seek(int32_t node);

 private:
  std::vector<int32_t> results_;
  int32_t pos_ = -1;
};

// Walks one graph from node to node, with a browser-like history.
class Navigator {
 public:
  explicit Navigator(const GraphModel& model) : model_(&model) {}
  int32_t current() const { return current_; }  // -1 before the first go()
  // Goes to `node` (recorded in the history; forward history is dropped). False if out of range.
  bool go(int32_t node);
  // Goes to the current node's k-th input / user (NodeInfo::inputs / users). False if none.
  bool followInput(size_t k = 0);
  bool followUser(size_t k = 0);
  bool back();     // to the previous node of the history
  bool forward();  // undoes back()
  bool canGoBack() const { return !backStack_.empty(); }
  bool canGoForward() const { return !forwardStack_.empty(); }

 private:
  const GraphModel* model_;
  int32_t current_ = -1;
  std::vector<int32_t> backStack_, forwardStack_;
};

}  // namespace fathom::viz
