// The streaming fast path of parseDump: see DumpStreamReader.h for what it promises. Outside
// the node arrays the handler builds DOM values exactly as nlohmann's own DOM parser does; each
// node is built straight from its events by NodeEventBuilder, which gives up on anything it
// does not read exactly like readNode.
#include "engine/dump/DumpStreamReader.h"

#include <array>

#include "engine/dump/NodeEventBuilder.h"

namespace fathom::dumpread {
namespace {

// SAX handler: the skeleton DOM, with each node of a node array built by NodeEventBuilder.
// Every callback returns false to give up; nlohmann then stops and sax_parse returns false.
class SkeletonBuilder {
 public:
  explicit SkeletonBuilder(StreamedDump& out) : out_(out) {}

  bool null() { return inNode_ ? node_.null() : place(json(nullptr)) != nullptr; }
  bool boolean(bool v) { return inNode_ ? node_.boolean(v) : place(json(v)) != nullptr; }
  bool number_integer(json::number_integer_t v) { return inNode_ ? node_.integer(v) : place(json(v)) != nullptr; }
  bool number_unsigned(json::number_unsigned_t v) {
    return inNode_ ? node_.unsignedInteger(v) : place(json(v)) != nullptr;
  }
  bool number_float(json::number_float_t v, const json::string_t&) {
    return inNode_ ? node_.number(v) : place(json(v)) != nullptr;
  }
  bool string(json::string_t& v) { return inNode_ ? node_.string(v) : place(json(v)) != nullptr; }
  bool binary(json::binary_t&) { return false; }  // JSON text has no binary values

  bool start_object(std::size_t) {
    if (inNode_) return node_.startObject();
    if (nodesDepth_ != 0 && stack_.size() == nodesDepth_) {  // an element of a node array
      node_.begin();
      inNode_ = true;
      return true;
    }
    return open(json::value_t::object);
  }
  bool end_object() {
    if (!inNode_) return close();
    if (!node_.endObject()) return false;
    return !node_.done() || appendNode();
  }
  bool start_array(std::size_t) {
    if (inNode_) return node_.startArray();
    const bool isNodes = isNodesArrayNext();
    if (!open(json::value_t::array)) return false;
    if (isNodes) beginNodes();
    return true;
  }
  bool end_array() {
    if (inNode_) return node_.endArray();
    if (nodesDepth_ == stack_.size()) nodesDepth_ = 0;
    return close();
  }

  bool key(json::string_t& k) {
    if (inNode_) return node_.key(k);
    json& obj = *stack_.back();
    // A repeated key would make the DOM keep its last value in its first place; streaming
    // cannot undo what it already read, so leave that case to the DOM path.
    if (obj.contains(k)) return false;
    if (stack_.size() < keys_.size()) keys_[stack_.size()] = k;
    member_ = &obj[k];
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
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

  void beginNodes() {
    nodesDepth_ = stack_.size();
    graphName_ = keys_[2];
    out_.graphs.emplace_back(graphName_, Graph{});
    graph_ = &out_.graphs.back().second;
    names_.clear();
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

  // Appends the node just completed; a repeated name is left to the DOM path to report.
  bool appendNode() {
    inNode_ = false;
    Node n = node_.take();
    if (!names_.emplace(n.name, static_cast<int32_t>(graph_->size())).second) return false;
    graph_->append(std::move(n));
    return true;
  }

  StreamedDump& out_;
  std::vector<json*> stack_;       // open containers, outermost first
  json* member_ = nullptr;         // the object member whose value comes next
  std::array<std::string, 4> keys_;  // keys_[d]: current key of the open object at depth d (1-3)
  size_t nodesDepth_ = 0;          // stack size while a node array is the innermost container
  std::string graphName_;
  Graph* graph_ = nullptr;
  NameIndex names_;                // this graph's nodes so far
  NodeEventBuilder node_{names_};  // the node being built
  bool inNode_ = false;            // events go to node_
};

}  // namespace

Graph* StreamedDump::graph(std::string_view name) {
  for (auto& [n, g] : graphs)
    if (n == name) return &g;
  return nullptr;
}

std::optional<StreamedDump> streamDump(std::string_view text) {
  StreamedDump out;
  SkeletonBuilder builder(out);
  try {
    if (!json::sax_parse(text, &builder)) return std::nullopt;
  } catch (...) {
    // ReadError from a node, or anything else unexpected: the DOM path decides what to report.
    return std::nullopt;
  }
  return out;
}

}  // namespace fathom::dumpread
