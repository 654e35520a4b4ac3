// The streaming fast path of parseDump: see DumpStreamReader.h for what it promises. Events come
// from simdjson (JsonEvents.h). Outside the node arrays the handler builds DOM values exactly as
// nlohmann's own DOM parser does; each
// node is built straight from its events by NodeEventBuilder, which gives up on anything it
// does not read exactly like readNode.
#include "engine/dump/DumpStreamReader.h"

#include <array>

#include "engine/dump/JsonEvents.h"
#include "engine/dump/NodeEventBuilder.h"

namespace fathom::dumpread {
namespace {

// SAX handler: the skeleton DOM, with each node of a node array built by NodeEventBuilder.
// Every callback returns false to give up; the walk then stops and ParsedJson::walk returns false.
class SkeletonBuilder final : public nlohmann::json_sax<json> {
 public:
  explicit SkeletonBuilder(StreamedDump& out) : out_(out) {}

  bool null() override { return inNode_ ? node_.null() : place(json(nullptr)) != nullptr; }
  bool boolean(bool v) override { return inNode_ ? node_.boolean(v) : place(json(v)) != nullptr; }
  bool number_integer(number_integer_t v) override { return inNode_ ? node_.integer(v) : place(json(v)) != nullptr; }
  bool number_unsigned(number_unsigned_t v) override {
    return inNode_ ? node_.unsignedInteger(v) : place(json(v)) != nullptr;
  }
  bool number_float(number_float_t v, const string_t&) override {
    return inNode_ ? node_.number(v) : place(json(v)) != nullptr;
  }
  bool string(string_t& v) override { return inNode_ ? node_.string(v) : place(json(v)) != nullptr; }
  bool binary(binary_t&) override { return false; }  // JSON text has no binary values

  bool start_object(std::size_t) override {
    if (inNode_) return node_.startObject();
    if (nodesDepth_ != 0 && stack_.size() == nodesDepth_) {  // an element of a node array
      node_.begin(*graph_);
      inNode_ = true;
      return true;
    }
    return open(json::value_t::object);
  }
  bool end_object() override {
    if (!inNode_) return close();
    if (!node_.endObject()) return false;
    return !node_.done() || appendNode();
  }
  bool start_array(std::size_t elements) override {
    if (inNode_) return node_.startArray();
    const bool isNodes = isNodesArrayNext();
    if (!open(json::value_t::array)) return false;
    if (isNodes) beginNodes(elements);
    return true;
  }
  bool end_array() override {
    if (inNode_) return node_.endArray();
    if (nodesDepth_ == stack_.size()) nodesDepth_ = 0;
    return close();
  }

  bool key(string_t& k) override {
    if (inNode_) return node_.key(k);
    json& obj = *stack_.back();
    // Symbols must be read before the graphs' symbolic sizes: the DOM path does that.
    if (stack_.size() == 1 && k == "shape_env") return false;
    // A repeated key would make the DOM keep its last value in its first place; streaming
    // cannot undo what it already read, so leave that case to the DOM path.
    if (obj.contains(k)) return false;
    if (stack_.size() < keys_.size()) keys_[stack_.size()] = k;
    member_ = &obj[k];
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // the DOM path parses again and reports it with line and column
  }

 private:
  // Is the value about to start /graphs/<name>/nodes?
  bool isNodesArrayNext() const {
    if (stack_.size() != 3 || nodesDepth_ != 0) return false;
    for (const json* c : stack_)
      if (!c->is_object()) return false;
    return keys_[1] == "graphs" && keys_[3] == "nodes";
  }

  // `elements`: the array's length, known up front from simdjson's tape, so the graph and its
  // name index never grow (rehashing 100,000 names took a tenth of the load).
  void beginNodes(std::size_t elements) {
    nodesDepth_ = stack_.size();
    graphName_ = keys_[2];
    out_.graphs.emplace_back(graphName_, Graph{});
    graph_ = &out_.graphs.back().second;
    graph_->reserve(elements);
  }

  // Puts a value where the parser is (root, array element, or the pending object member).
  // Null means give up.
  json* place(json&& v) {
    if (stack_.empty()) {
      out_.skeleton = std::move(v);
      return &out_.skeleton;
    }
    json& top = *stack_.back();
    if (!top.is_array()) {
      *member_ = std::move(v);
      return member_;
    }
    if (nodesDepth_ == stack_.size()) return nullptr;  // not a node: the DOM path says so
    top.push_back(std::move(v));
    return &top.back();
  }

  bool open(json::value_t type) {
    json* c = place(json(type));
    if (!c) return false;
    stack_.push_back(c);
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  // Appends the node just completed. A repeated name fails the graph's verify() after the
  // parse, and the DOM path then reports it.
  bool appendNode() {
    inNode_ = false;
    graph_->append(node_.take());
    return true;
  }

  StreamedDump& out_;
  std::vector<json*> stack_;       // open containers, outermost first
  json* member_ = nullptr;         // the object member whose value comes next
  std::array<std::string, 4> keys_;  // keys_[d]: current key of the open object at depth d (1-3)
  size_t nodesDepth_ = 0;          // stack size while a node array is the innermost container
  std::string graphName_;
  Graph* graph_ = nullptr;
  NodeEventBuilder node_;          // the node being built
  bool inNode_ = false;            // events go to node_
};

}  // namespace

Graph* StreamedDump::graph(std::string_view name) {
  for (auto& [n, g] : graphs)
    if (n == name) return &g;
  return nullptr;
}

std::optional<StreamedDump> streamDump(const ParsedJson& parsed) {
  StreamedDump out;
  SkeletonBuilder builder(out);
  try {
    if (!parsed.walk(builder)) return std::nullopt;
  } catch (...) {
    // ReadError from a node, or anything else unexpected: the DOM path decides what to report.
    return std::nullopt;
  }
  return out;
}

}  // namespace fathom::dumpread
