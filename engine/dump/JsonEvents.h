// Internal to engine/dump: JSON text as nlohmann's SAX events, parsed by simdjson.
// nlohmann's own parser reads about 20 MB/s, which was 95% of loading a 100,000-node dump;
// simdjson validates and tapes the whole text at GB/s, and walking its tape gives the events
// the dump readers already consume. Reading stays in nlohmann's vocabulary (json_sax), so the
// handlers need not know which parser ran, and writing stays with nlohmann.
//
// No positions are known here: on any syntax error the walk returns false and the caller
// parses again with nlohmann, which reports "line L, column C". simdjson refuses a little
// that nlohmann accepts (integers beyond 64 bits, which nlohmann reads as floats); those
// fall back the same way, so the caller's result never depends on which parser took it.
//
// The text is parsed once (ParsedJson) and can be walked more than once: the dump reader streams
// it, and when streaming gives up (a symbolic dump) builds the DOM from the same parse.
//
// Example:
//   ParsedJson parsed(text, 64);
//   json doc;
//   if (!parsed.buildDom(doc)) doc = json::parse(text);  // the slow path, with its message
#pragma once

#include <memory>
#include <string_view>

#include "engine/dump/DumpValueReader.h"

namespace fathom::dumpread {

class ParsedJson {
 public:
  // Parses `text` (copied: simdjson reads past the end). Not ok() when simdjson cannot parse it
  // or it nests deeper than `maxDepth` (counted as checkJsonDepth counts).
  ParsedJson(std::string_view text, int maxDepth);
  ~ParsedJson();
  ParsedJson(const ParsedJson&) = delete;
  ParsedJson& operator=(const ParsedJson&) = delete;

  bool ok() const;
  // Sends every value to `handler` in document order, as nlohmann::sax_parse would (non-negative
  // integers as number_unsigned, negative as number_integer, the rest as number_float). False
  // when not ok() or the handler gave up.
  bool walk(nlohmann::json_sax<json>& handler) const;
  // The whole document as a DOM, as json::parse builds it. False when not ok(); `out` is then
  // unspecified.
  bool buildDom(json& out) const;

 private:
  struct Impl;  // simdjson stays out of this header
  std::unique_ptr<Impl> impl_;
};

}  // namespace fathom::dumpread
