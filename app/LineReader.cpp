#include "app/LineReader.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#ifdef FATHOM_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace fathom::cli {

Result<std::unique_ptr<LineReader>> LineReader::open(const std::string& commandsFile) {
  std::unique_ptr<LineReader> reader(new LineReader());
  if (!commandsFile.empty()) {
    reader->file_ = std::make_unique<std::ifstream>(commandsFile);
    if (!*reader->file_) return invalidInput("cannot open the commands file (check the path)", commandsFile);
  } else {
    reader->interactive_ = isatty(STDIN_FILENO) != 0;
  }
  return reader;
}

std::optional<std::string> LineReader::read(const std::string& prompt) {
  if (interactive_) {
#ifdef FATHOM_HAVE_READLINE
    char* raw = readline(prompt.c_str());
    if (!raw) {
      std::cout << "\n";
      return std::nullopt;
    }
    std::string line(raw);
    std::free(raw);
    if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    return line;
#else
    std::cout << prompt << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) {
      std::cout << "\n";
      return std::nullopt;
    }
    return line;
#endif
  }
  std::istream& in = file_ ? static_cast<std::istream&>(*file_) : std::cin;
  std::string line;
  do {  // blank lines in a script are skipped: they would repeat the last command on a terminal
    if (!std::getline(in, line)) return std::nullopt;
    if (!line.empty() && line.back() == '\r') line.pop_back();
  } while (line.find_first_not_of(" \t") == std::string::npos);
  std::cout << prompt << line << "\n";  // the transcript shows what was run
  return line;
}

}  // namespace fathom::cli
