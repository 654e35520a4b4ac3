// Find: queries, result cursor, navigation history (Find.h).
#include "viz/model/Find.h"

#include <algorithm>

namespace fathom::viz {

bool modulePathWithin(std::string_view module, std::string_view prefix) {
  if (prefix.empty()) return true;
  if (module.size() < prefix.size() || module.substr(0, prefix.size()) != prefix) return false;
  return module.size() == prefix.size() || module[prefix.size()] == '.';
}

Result<NodeMatcher> NodeMatcher::compile(const FindQuery& query) {
  NodeMatcher m;
  m.query_ = query;
  auto flags = std::regex::ECMAScript | std::regex::optimize;
  if (query.ignoreCase) flags |= std::regex::icase;
  try {
    if (!query.name.empty()) m.name_.emplace(query.name, flags);
  } catch (const std::regex_error& e) {
    return invalidInput("bad name pattern '" + query.name + "': " + e.what() + " (ECMAScript regex syntax)", "find");
  }
  try {
    if (!query.op.empty()) m.op_.emplace(query.op, flags);
  } catch (const std::regex_error& e) {
    return invalidInput("bad op pattern '" + query.op + "': " + e.what() + " (ECMAScript regex syntax)", "find");
  }
  return m;
}

bool NodeMatcher::matches(const NodeInfo& n) const {
  if (query_.side && n.side != *query_.side) return false;
  if (query_.hasGuard && n.guards.empty()) return false;
  if (query_.savedAcrossCut && n.role != PartitionRole::SavedForBackward && n.role != PartitionRole::SavedInput &&
      n.role != PartitionRole::CrossesCut)
    return false;
  if (!query_.module.empty() && !modulePathWithin(n.module, query_.module)) return false;
  if (name_ && !std::regex_search(n.name, *name_)) return false;
  if (op_ && !std::regex_search(n.op, *op_) && !std::regex_search(n.opShort, *op_)) return false;
  return true;
}

Result<std::vector<int32_t>> findNodes(const GraphModel& model, const FindQuery& query) {
  auto matcher = NodeMatcher::compile(query);
  if (!matcher.ok()) return std::move(matcher.error());
  std::vector<int32_t> out;
  for (const NodeInfo& n : model.nodes())
    if (matcher->matches(n)) out.push_back(n.index);
  return out;
}

int32_t FindCursor::next() {
  if (results_.empty()) return -1;
  pos_ = pos_ < 0 ? 0 : (pos_ + 1) % static_cast<int32_t>(results_.size());
  return current();
}

int32_t FindCursor::previous() {
  if (results_.empty()) return -1;
  const auto n = static_cast<int32_t>(results_.size());
  pos_ = pos_ <= 0 ? n - 1 : pos_ - 1;
  return current();
}

int32_t FindCursor::seek(int32_t node) {
  if (results_.empty()) return -1;
  auto it = std::lower_bound(results_.begin(), results_.end(), node);
  pos_ = it == results_.end() ? 0 : static_cast<int32_t>(it - results_.begin());
  return current();
}

bool Navigator::go(int32_t node) {
  if (node < 0 || static_cast<size_t>(node) >= model_->size()) return false;
  if (node == current_) return true;
  if (current_ >= 0) backStack_.push_back(current_);
  forwardStack_.clear();
  current_ = node;
  return true;
}

bool Navigator::followInput(size_t k) {
  if (current_ < 0) return false;
  const auto& inputs = model_->node(current_).inputs;
  return k < inputs.size() && go(inputs[k]);
}

bool Navigator::followUser(size_t k) {
  if (current_ < 0) return false;
  const auto& users = model_->node(current_).users;
  return k < users.size() && go(users[k]);
}

bool Navigator::back() {
  if (backStack_.empty()) return false;
  forwardStack_.push_back(current_);
  current_ = backStack_.back();
  backStack_.pop_back();
  return true;
}

bool Navigator::forward() {
  if (forwardStack_.empty()) return false;
  backStack_.push_back(current_);
  current_ = forwardStack_.back();
  forwardStack_.pop_back();
  return true;
}

}  // namespace fathom::viz
