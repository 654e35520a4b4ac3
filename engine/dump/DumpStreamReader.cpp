// The streaming fast path of parseDump: see DumpStreamReader.h for what it promises. The handler
// below builds DOM values exactly as nlohmann's own DOM parser does (a repeated key inside a node
// keeps its first position and its last value), so readNode sees the same JSON on both paths.
#include "engine/dump/DumpStreamReader.h"

#include <array>

namespace fathom::dumpread {
namespace {

// SAX handler: the skeleton DOM, with node arrays diverted one node at a time into readNode.
// Every callback returns false to give up; nlohmann then stops and sax_parse returns false.
class SkeletonBuilder {
 public:
  explicit SkeletonBuilder(StreamedDump& out) : out_(out) {}

  bool null() { return place(json(nullptr)) != nullptr; }
  bool boolean(bool v) { return place(json(v)) != nullptr; }
  bool number_integer(json::number_integer_t v) { return place(json(v)) != nullptr; }
  bool number_unsigned(json::number_unsigned_t v) { return place(json(v)) != nullptr; }
  bool number_float(json::number_float_t v, const json::string_t&) { return place(json(v)) != nullptr; }
  bool string(json::string_t& v) { return place(json(v)) != nullptr; }
  bool binary(json::binary_t&) { return false; }  // JSON text has no binary values

  bool start_object(std::size_t) { return open(json::value_t::object); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) {
    const bool isNodes = isNodesArrayNext();
    if (!open(json::value_t::array)) return false;
    if (isNodes) beginNodes();
    return true;
  }
  bool end_array() {
    if (nodesDepth_ == stack_.size()) nodesDepth_ = 0;
    return close();
  }

  bool key(json::string_t& k) {
    json& obj = *stack_.back();
    if (!inNode()) {
      // Outside nodes a repeated key would make the DOM keep its last value in its first
      // place; streaming cannot undo what it already read, so leave that case to the DOM path.
      if (obj.contains(k)) return false;
      if (stack_.size() < keys_.size()) keys_[stack_.size()] = k;
    }
    member_ = &obj[k];
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;  // the DOM path parses again and reports it with line and column
  }

 private:
  bool inNode() const { return nodesDepth_ != 0 && stack_.size() > nodesDepth_; }

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

  // Puts a value where the parser is (root, array element, or the pending object member);
  // an element of a node array becomes the node being built. Null means give up.
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
    if (nodesDepth_ != stack_.size()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    if (!v.is_object()) return nullptr;  // not a node: the DOM path says so
    node_ = std::move(v);
    return &node_;
  }

  bool open(json::value_t type) {
    json* c = place(json(type));
    if (!c) return false;
    // Node objects have at most 6 keys; growing one key at a time copies the (const) keys on
    // every reallocation, which cost more than the parse itself.
    if (type == json::value_t::object && (inNode() || c == &node_)) c->get_ref<json::object_t&>().reserve(6);
    stack_.push_back(c);
    return true;
  }

  bool close() {
    const bool nodeDone = stack_.back() == &node_;
    stack_.pop_back();
    if (nodeDone) readStreamedNode();
    return true;
  }

  // Reads the node just completed into the graph; a problem throws ReadError (see streamDump).
  void readStreamedNode() {
    const Ptr graphs = "/graphs";
    const Ptr graph(graphs, graphName_);
    const Ptr nodes(graph, "nodes");
    const Ptr p(nodes, graph_->size());
    const std::string& name = readNodeName(node_, p);
    if (!names_.emplace(name, static_cast<int32_t>(graph_->size())).second) fail(p, "duplicate node name");
    graph_->append(readNode(node_, p, names_));
    node_ = json();
  }

  StreamedDump& out_;
  std::vector<json*> stack_;       // open containers, outermost first
  json* member_ = nullptr;         // the object member whose value comes next
  std::array<std::string, 4> keys_;  // keys_[d]: current key of the open object at depth d (1-3)
  size_t nodesDepth_ = 0;          // stack size while a node array is the innermost container
  std::string graphName_;
  Graph* graph_ = nullptr;
  NameIndex names_;
  json node_;                      // the node being built
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
