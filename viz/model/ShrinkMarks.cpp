// ShrinkMarks (see the header).
#include "viz/model/ShrinkMarks.h"

namespace fathom::viz {

ShrinkView mapCandidate(const GraphModel& original, const std::vector<std::string>& inputs, const std::vector<std::string>& calls) {
  ShrinkView view;
  view.marks.assign(original.size(), NodeMark::Removed);
  auto keep = [&](const std::string& name, bool asInput) {
    const int32_t n = original.find(name);
    if (n < 0) {
      ++view.unknown;
      return;
    }
    const bool cut = asInput && original.node(n).kind != NodeKind::Placeholder;
    view.marks[static_cast<size_t>(n)] = cut ? NodeMark::Changed : NodeMark::Same;
    view.becameInputs += cut ? 1 : 0;
  };
  for (const auto& name : inputs) keep(name, true);
  for (const auto& name : calls) keep(name, false);
  // The output node is always there: it returns the candidate's outputs.
  for (const NodeInfo& n : original.nodes())
    if (n.kind == NodeKind::Output) view.marks[static_cast<size_t>(n.index)] = NodeMark::Same;
  for (size_t i = 0; i < view.marks.size(); ++i)
    if (view.marks[i] != NodeMark::Removed && original.node(static_cast<int32_t>(i)).kind != NodeKind::Output)
      view.kept.push_back(static_cast<int32_t>(i));
  return view;
}

ShrinkView mapCandidate(const GraphModel& original, const Graph& candidate) {
  std::vector<std::string> inputs, calls;
  for (const Node& n : candidate.nodes()) {
    if (n.kind == NodeKind::Placeholder) inputs.push_back(n.name);
    else if (n.kind == NodeKind::Call) calls.push_back(n.name);
  }
  return mapCandidate(original, inputs, calls);
}

}  // namespace fathom::viz
