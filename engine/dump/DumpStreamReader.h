// Internal to engine/dump: the fast path of parseDump. A 100,000-node dump is ~22 MB of JSON;
// building its whole DOM cost more than half the load time and most of the memory. This reader
// streams the text once (SAX events from simdjson, JsonEvents.h): every node of /graphs/<name>/nodes is built
// straight from its events (NodeEventBuilder.h), with no DOM of its own; the rest of the
// document (format, producer, inputs, ...) is kept as a DOM "skeleton".
//
// It only ever succeeds on input the DOM reader accepts, with the same result: at the first
// thing it does not handle exactly like the DOM reader (a syntax error, a problem in a node, a
// reference to a later node, a duplicate key, an unusual shape) it gives up, and parseDump reads
// the text again the DOM way, which reports the first problem in the documented order.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/dump/DumpValueReader.h"
#include "engine/dump/JsonEvents.h"

namespace fathom::dumpread {

struct StreamedDump {
  json skeleton;  // the document, with each /graphs/<name>/nodes array left empty
  // The nodes of those arrays, by graph name in file order: names checked, read, appended; the
  // graphs are not verified yet.
  std::vector<std::pair<std::string, Graph>> graphs;

  Graph* graph(std::string_view name);
};

// The streamed document, or nullopt when the DOM reader must take over (see above).
std::optional<StreamedDump> streamDump(const ParsedJson& parsed);

// parseDump without the streaming path: what every input must give on either path (tests compare
// the two); `parsed`, when given, is the text already parsed with options.maxDepth, so the DOM is
// built without parsing again. Defined in DumpReader.cpp.
Result<Dump> parseDumpDomOnly(std::string_view text, const std::string& label, const DumpReadOptions& limits = {},
                              const ParsedJson* parsed = nullptr);

}  // namespace fathom::dumpread
