// Internal to engine/dump: builds one Node of /graphs/<name>/nodes straight from SAX events.
// Building a small DOM per node and reading it with DumpValueReader cost about as much as the
// JSON parse itself; this builder skips the DOM for the usual node shape.
//
// It accepts only what readNode accepts, with the same result. Anything else - an unknown or
// repeated key, a wrong type, a check readNode would fail, a reference to a node not seen yet,
// a shape it does not bother with - makes an event return false: the streaming reader then
// gives up and the DOM reader re-reads the text and reports the first problem, so errors
// always come from the DOM path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/dump/DumpValueReader.h"

namespace fathom::dumpread {

class NodeEventBuilder {
 public:
  NodeEventBuilder() { frames_.reserve(16); }

  // Starts a node: the caller saw the start_object of an element of a nodes array. `graph`
  // holds the nodes before this one, which {"node": ...} may refer to.
  void begin(const Graph& graph);
  bool done() const { return frames_.empty(); }
  Node take() { return std::move(node_); }

  // The SAX events inside the node, up to and including its end_object. False: give up.
  bool null();
  bool boolean(bool v);
  bool integer(int64_t v);
  bool unsignedInteger(uint64_t v);
  bool number(double v);
  bool string(std::string& v);
  bool key(std::string& k);
  bool startObject();
  bool endObject();
  bool startArray();
  bool endArray();

 private:
  // The container being read; Node, Kwargs, Meta, Tagged and Tensor are objects.
  enum class Kind { Node, Args, Kwargs, Meta, ArgList, Tagged, ValList, Tensor, Sizes, Strides };
  // What the next value is: an argument, a recorded val, or one field of a fixed-shape object.
  enum class Slot { None, Arg, Val, Name, NodeKind, Op, Args, Kwargs, Meta, Source, Module, Stage,
                    DType, SizesArr, StridesArr, Offset, Device, RequiresGrad, TagText, NonNegInt };

  struct Frame {
    Kind kind;
    Slot slot = Slot::None;  // for objects: the pending key's slot
    uint32_t seen = 0;       // fixed-shape objects: keys seen (a repeat gives up)
    std::string text;        // Kwargs: the pending key; Tagged: the tag
    std::string value;       // Tagged: the tagged string
    bool hasValue = false;   // Tagged
    ValueList items;         // Args, ArgList, ValList
  };

  Slot expected() const;
  bool push(Kind kind);
  bool deliver(Value v);
  bool fixedKey(Frame& f, const std::string& k);
  bool setString(Slot slot, std::string& v);
  bool finishNode();
  bool finishTagged(Frame& f, Value& out);
  bool finishTensor();

  const Graph* graph_ = nullptr;
  std::vector<Frame> frames_;
  Node node_;
  bool hasName_ = false, hasKind_ = false, hasOp_ = false;
  TensorMeta meta_;  // the tensor meta being read (they do not nest)
  bool hasDType_ = false, hasSizes_ = false, hasStrides_ = false;
};

}  // namespace fathom::dumpread
