// While a SkipUnreadableGuards lives on a thread, loading a dump there skips each shape_env
// guard it cannot read - a guard over a symbol the env does not declare, text that is not an
// integer relation - and keeps its error, instead of failing the whole load. `fathom guards
// --check` uses it to report such guards and still analyse the rest.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace fathom {

class SkipUnreadableGuards {
 public:
  SkipUnreadableGuards();
  ~SkipUnreadableGuards();
  SkipUnreadableGuards(const SkipUnreadableGuards&) = delete;
  SkipUnreadableGuards& operator=(const SkipUnreadableGuards&) = delete;

  // "/shape_env/guards/3/expr: guard 's9 < 4' names s9, which shape_env/symbols does not declare"
  const std::vector<std::string>& skipped() const { return skipped_; }
  // Each skipped guard's position in the dump's shape_env/guards, ascending: the guards that were
  // read keep their dump positions for reports only with these.
  const std::vector<size_t>& skippedPositions() const { return positions_; }
  void add(size_t position, std::string error) {
    positions_.push_back(position);
    skipped_.push_back(std::move(error));
  }

 private:
  std::vector<std::string> skipped_;
  std::vector<size_t> positions_;
  SkipUnreadableGuards* previous_;
};

}  // namespace fathom
