// LineReader: where `fathom step` reads its commands from. On a terminal it is GNU readline with
// history (when Fathom was built with it; std::getline otherwise); from a commands file or a
// pipe it reads plain lines and echoes each one after the prompt, so a transcript reads like an
// interactive session.
#pragma once

#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "engine/core/Result.h"

namespace fathom::cli {

class LineReader {
 public:
  // Reads from `commandsFile`, or from stdin when it is empty. An error names a file that
  // cannot be opened.
  static Result<std::unique_ptr<LineReader>> open(const std::string& commandsFile);

  // The next line without its newline (from a script: the next non-blank one); nullopt at the
  // end of input.
  std::optional<std::string> read(const std::string& prompt);
  // A person is typing (stdin is a terminal and no commands file was given).
  bool interactive() const { return interactive_; }

 private:
  LineReader() = default;

  bool interactive_ = false;
  std::unique_ptr<std::ifstream> file_;  // null: stdin
};

}  // namespace fathom::cli
