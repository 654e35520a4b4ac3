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
// Example:
//   json doc;
//   if (!buildJsonDom(text, 64, doc)) doc = json::parse(text);  // the slow path, with its message
#pragma once

#include <string_view>

#include "engine/dump/DumpValueReader.h"

namespace fathom::dumpread {

// Parses `text` and sends every value to `handler` in document order, as nlohmann::sax_parse
// would (non-negative integers as number_unsigned, negative as number_integer, the rest as
// number_float). False when simdjson cannot parse the text, it nests deeper than `maxDepth`
// (counted as checkJsonDepth counts), or the handler gave up.
bool parseJsonEvents(std::string_view text, int maxDepth, nlohmann::json_sax<json>& handler);

// The whole document as a DOM, as json::parse builds it. False as above; `out` is then unspecified.
bool buildJsonDom(std::string_view text, int maxDepth, json& out);

}  // namespace fathom::dumpread
