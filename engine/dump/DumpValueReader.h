// Internal to engine/dump: reads one JSON value of a dump (a node, its arguments and meta, an
// example input) into the IR. Every check names the JSON pointer of the offending value and
// throws ReadError at the first problem; the document-level reader (DumpReader.cpp) turns that
// into the one-line error the user sees. Both the DOM reader and the streaming reader
// (DumpStreamReader.cpp) call these, so a node means the same thing on either path.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/StringHash.h"
#include "engine/dump/Dump.h"
#include "engine/graph/Graph.h"

namespace fathom::dumpread {

using json = nlohmann::ordered_json;  // keeps the file's key order (graph order)

// Internal: thrown at the first problem, caught by the document-level reader.
struct ReadError {
  std::string pointer;
  std::string message;
};

// A JSON pointer that is spelled out only when an error needs it: each level lives on the
// reader's stack and names its parent, so reading a valid dump builds no pointer strings (that
// was a quarter of the load time of a 100,000-node dump). A child must not outlive its parent,
// so child() refuses a temporary parent; name the parent first.
class Ptr {
 public:
  Ptr(const char* root) : key_(root) {}  // NOLINT: "" or "/format", implicit for brevity
  Ptr(const Ptr& parent, std::string_view key) : parent_(&parent), key_(key) {}
  Ptr(const Ptr& parent, size_t index) : parent_(&parent), index_(index), isIndex_(true) {}

  std::string str() const;

 private:
  const Ptr* parent_ = nullptr;
  std::string_view key_;  // the root's text when there is no parent
  size_t index_ = 0;
  bool isIndex_ = false;
};

inline Ptr child(const Ptr& ptr, std::string_view key) { return Ptr(ptr, key); }
inline Ptr child(const Ptr& ptr, size_t index) { return Ptr(ptr, index); }
Ptr child(const Ptr&& ptr, std::string_view key) = delete;
Ptr child(const Ptr&& ptr, size_t index) = delete;

[[noreturn]] void fail(const Ptr& pointer, std::string message);

const json& requireKey(const json& obj, const Ptr& ptr, const char* key);
void requireObject(const json& j, const Ptr& ptr);
void requireArray(const json& j, const Ptr& ptr);
const std::string& requireString(const json& j, const Ptr& ptr);
void onlyKeys(const json& obj, const Ptr& ptr, std::initializer_list<std::string_view> allowed);
int64_t readInt(const json& j, const Ptr& ptr);

// readTensorMeta's checks that a concrete shape's element count and layout's byte size fit in
// 64 bits; shared with the streaming node builder (NodeEventBuilder) so both check alike.
void checkNumelFits(const SymIntList& sizes, const Ptr& ptr);
void checkLayoutFits(const TensorMeta& m, const Ptr& ptr);

// Node name -> index in its graph. Owns its keys (the streaming reader frees each node's JSON
// as soon as it is read) and looks up by string_view without building a std::string.
using NameIndex = StringMap<int32_t>;

// The node's name, checked to be a non-empty string (its uniqueness is the caller's to check).
const std::string& readNodeName(const json& node, const Ptr& ptr);
// Everything but the name's checks: kind, op, args, kwargs, meta. `names` resolves {"node": ...}.
// An unknown op is an error unless `keepUnknownOps`, which makes the node opaque.
Node readNode(const json& node, const Ptr& ptr, const NameIndex& names, bool keepUnknownOps = false);

// Where the side files of the values being read are looked up, and whether they may be anywhere.
struct SideFileRoot {
  std::string folder;       // the dump's folder ("" is the current one)
  bool trustPaths = false;  // DumpReadOptions::trustPaths: else they must be inside `folder`
};

// Example inputs; a side file named in one is looked up in root.folder, must be inside it (unless
// root.trustPaths; SideFiles.h) and must hold the bytes the input needs.
std::vector<ExampleInput> readInputList(const json& j, const Ptr& ptr, const SideFileRoot& root = {});
// Recorded outputs: like inputs, with values (inline or in a side file, never a seed), or null.
std::vector<std::optional<ExampleInput>> readOutputList(const json& j, const Ptr& ptr, const SideFileRoot& root);

}  // namespace fathom::dumpread
