// Op tags (engine/ops/OpTags.h): every registered op has its row in OpTagTable.cpp with exactly
// one kind, every row names an op, and the tags agree with the schemas - so adding an op without
// saying what it is, or tagging it against its schema, fails here rather than in a pass.
#include <gtest/gtest.h>

#include <bit>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aot/CompiledAutograd.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/OpTags.h"

namespace fathom {
namespace {

// The built-in ops, and the compiled-autograd hook op, which registers on first use (the global
// registry also holds ops other tests add).
std::vector<const OpDef*> builtinOps() {
  static OpRegistry builtins;
  static const bool filled = [] {
    registerBuiltinOps(builtins);
    aot::CompiledAutograd ca;
    (void)ca.grad({}, {});
    return true;
  }();
  (void)filled;
  std::vector<const OpDef*> ops = builtins.all();
  ops.push_back(OpRegistry::global().find("fathom.call_hook.default"));
  return ops;
}

const OpDef* findBuiltin(std::string_view name) {
  for (const OpDef* op : builtinOps())
    if (op && op->name == name) return op;
  return nullptr;
}

bool returnsAlias(const OpDef& op, bool mutated) {
  for (const auto& r : op.schema.returns)
    if (!r.alias.empty() && r.isMutated() == mutated) return true;
  return false;
}

TEST(OpTags, EveryRegisteredOpHasExactlyOneKind) {
  std::string untagged;
  for (const OpDef* op : builtinOps())
    if (std::popcount(op->tags.kind()) != 1) untagged += " " + op->name + " (" + describeTags(op->tags) + ")";
  EXPECT_TRUE(untagged.empty()) << "give these ops a row in engine/ops/OpTagTable.cpp with one kind:" << untagged;
}

TEST(OpTags, EveryRowNamesAnOpAndSaysWhetherItIsRegistered) {
  size_t count = 0;
  const OpTagRow* rows = opTagRows(&count);
  ASSERT_GT(count, 100u);
  std::set<std::string> seen;
  for (size_t i = 0; i < count; ++i) {
    const OpTagRow& r = rows[i];
    EXPECT_TRUE(seen.insert(r.name).second) << r.name << " has two rows";
    EXPECT_EQ(findBuiltin(r.name) != nullptr, r.registered) << r.name;
    EXPECT_EQ(std::popcount(r.tags.kind()), 1) << r.name;
  }
}

TEST(OpTags, TagsAgreeWithTheSchemas) {
  for (const OpDef* op : builtinOps()) {
    SCOPED_TRACE(op->name);
    // A view's result aliases its input; an op that may or may not alias is the exception.
    if (op->tags.has(OpTag::View) && !op->tags.has(OpTag::MayAlias)) {
      EXPECT_TRUE(returnsAlias(*op, false));
    }
    if (returnsAlias(*op, false)) {
      EXPECT_TRUE(op->tags.has(OpTag::View));
    }
    // In-place ops write their first argument, and only they do.
    EXPECT_EQ(op->tags.has(OpTag::Inplace), returnsAlias(*op, true));
    // Every op with an in-place form has it, tagged in-place.
    if (op->tags.has(OpTag::HasInplace)) {
      const std::string& n = op->name;
      const size_t dot = n.find('.', n.find('.') + 1);
      const std::string inplace = n.substr(0, dot) + "_" + n.substr(dot);
      const OpDef* form = findBuiltin(inplace);
      ASSERT_TRUE(form) << inplace;
      EXPECT_TRUE(form->tags.has(OpTag::Inplace));
    }
  }
}

TEST(OpTags, RandomOpsAreKnownRegisteredOrNot) {
  EXPECT_TRUE(findBuiltin("aten.native_dropout.default")->tags.has(OpTag::Random));
  EXPECT_TRUE(findBuiltin("aten.bernoulli_.float")->tags.has(OpTag::Random));
  EXPECT_TRUE(findBuiltin("aten.rand_like.default")->tags.has(OpTag::Random));
  EXPECT_TRUE(unregisteredOpTags("aten.bernoulli.default").has(OpTag::Random));
  EXPECT_FALSE(findBuiltin("aten.add.Tensor")->tags.has(OpTag::Random));
  EXPECT_EQ(describeTags(findBuiltin("aten.add.Tensor")->tags), "pointwise, recomputable, has-inplace");
}

}  // namespace
}  // namespace fathom
