// engine/ops/CoreAten.md, the table of PyTorch's Core ATen ops and their status in Fathom, is
// kept current here: its rows are exactly the Core ATen list, "supported" means registered (and
// registered means "supported"), supported ops that return tensors have PyTorch oracle cases,
// the files it names exist, and its summary counts are the rows'.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "engine/ops/OpRegistry.h"
#include "tests/TestDataDir.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;

// PyTorch's Core ATen IR as PyTorch 2.x's torch.compiler_ir page lists it ("aten.X" is overload
// default). A change to this list is a change to what the table must cover.
const std::vector<std::string> kCoreAten = {
    "_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward", "_adaptive_avg_pool3d", "_cdist_forward",
    "_embedding_bag", "_fft_c2r", "_fft_r2c", "_local_scalar_dense", "_log_softmax", "_native_batch_norm_legit",
    "_native_batch_norm_legit.no_stats", "_native_batch_norm_legit_no_training", "_pdist_forward", "_softmax",
    "_to_copy", "abs", "acos", "acosh", "adaptive_avg_pool1d", "add.Scalar", "add.Tensor", "addmm", "alias", "amax",
    "amin", "any", "any.dim", "any.dims", "arange.start_step", "argmax", "argmin", "as_strided", "asin", "asinh",
    "atan", "atan2", "atan2.out", "atanh", "avg_pool1d", "avg_pool2d", "avg_pool2d_backward", "avg_pool3d",
    "bitwise_and.Scalar", "bitwise_and.Tensor", "bitwise_not", "bitwise_or.Scalar", "bitwise_or.Tensor",
    "bitwise_xor.Scalar", "bitwise_xor.Tensor", "bmm", "cat", "ceil", "clamp", "clamp.Tensor", "clone", "col2im",
    "constant_pad_nd", "convolution", "convolution_backward", "copy", "cos", "cosh", "cumsum", "diagonal",
    "div.Scalar", "div.Scalar_mode", "div.Tensor", "div.Tensor_mode", "elu", "embedding", "embedding_dense_backward",
    "empty.memory_format", "empty_strided", "eq.Scalar", "eq.Tensor", "erf", "exp", "expand", "expm1", "fill.Scalar",
    "flip", "floor", "fmod.Scalar", "fmod.Tensor", "full", "full_like", "gather", "ge.Scalar", "ge.Tensor", "gelu",
    "grid_sampler_2d", "gt.Scalar", "gt.Tensor", "hardtanh", "index.Tensor", "index_put", "index_select", "isinf",
    "isnan", "le.Scalar", "le.Tensor", "leaky_relu", "log", "log10", "log1p", "log2", "logical_and", "logical_not",
    "logical_or", "logical_xor", "lt.Scalar", "lt.Tensor", "masked_scatter", "max.dim", "max_pool2d_with_indices",
    "max_pool2d_with_indices_backward", "max_pool3d_with_indices", "maximum", "mean", "mean.dim", "min.dim",
    "minimum", "mm", "mul.Scalar", "mul.Tensor", "native_dropout", "native_group_norm", "native_group_norm_backward",
    "native_layer_norm", "native_layer_norm_backward", "ne.Scalar", "ne.Tensor", "neg", "nonzero", "permute",
    "pow.Scalar", "pow.Tensor_Scalar", "pow.Tensor_Tensor", "prod", "prod.dim_int", "rand", "randn", "randperm",
    "reciprocal", "reflection_pad1d", "reflection_pad2d", "reflection_pad3d", "relu", "remainder.Scalar",
    "remainder.Tensor", "repeat", "replication_pad2d", "replication_pad3d", "resize_", "round", "rsqrt",
    "scalar_tensor", "scatter.src", "scatter.value", "scatter_add", "scatter_reduce.two", "select.int",
    "select_scatter", "sigmoid", "sign", "sin", "sinh", "slice.Tensor", "slice_scatter", "sort", "split_with_sizes",
    "sqrt", "squeeze.dim", "squeeze.dims", "sub.Scalar", "sub.Tensor", "sum.dim_IntList", "sym_is_contiguous",
    "sym_numel", "sym_size.int", "sym_storage_offset", "sym_stride.int", "tan", "tanh", "topk", "trunc", "unsqueeze",
    "upsample_bilinear2d.vec", "upsample_nearest2d.vec", "var.correction", "var.dim", "view", "where.self",
};

const std::set<std::string> kStatuses = {"supported", "missing", "not in torch 1.13", "out of scope"};

struct Row {
  std::string status, where, note;
  int line = 0;
};

fs::path opsDir() { return fs::path(FATHOM_TEST_DATA_DIR) / "engine" / "ops"; }

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// "aten.any" -> "aten.any.default", "aten.add.Tensor" stays.
std::string registryName(const std::string& op) {
  return op.find('.', 5) == std::string::npos ? op + ".default" : op;
}

// The table's rows by op ("aten.add.Tensor", as the table writes it); a repeated op fails.
std::map<std::string, Row> readTable(std::string* summary) {
  std::ifstream in(opsDir() / "CoreAten.md");
  EXPECT_TRUE(in) << "cannot read engine/ops/CoreAten.md";
  std::map<std::string, Row> rows;
  std::string line;
  const std::regex row(R"(^\| `(aten\.[^`]+)` \|([^|]*)\|([^|]*)\|(.*)\|$)");
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.starts_with("**Covered:")) *summary = line;
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const std::string op = m[1];
    EXPECT_FALSE(rows.count(op)) << op << " has two rows (line " << n << ")";
    rows[op] = {trim(m[2]), trim(m[3]), trim(m[4]), n};
  }
  return rows;
}

const OpRegistry& builtins() {
  static OpRegistry r;
  static const bool filled = (registerBuiltinOps(r), true);
  (void)filled;
  return r;
}

// Every op some oracle fixture has a case for.
std::set<std::string> oracleOps() {
  std::set<std::string> ops;
  for (const auto& e : fs::directory_iterator(fs::path(FATHOM_TEST_DATA_DIR) / "tests" / "oracle" / "fixtures")) {
    if (e.path().extension() != ".jsonl") continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) ops.insert(nlohmann::json::parse(line).at("op").get<std::string>());
  }
  return ops;
}

bool returnsTensor(const OpDef& op) {
  for (const auto& r : op.schema.returns)
    if (r.type.kind == ArgKind::Tensor) return true;
  return false;
}

// The table has one row per Core ATen op, no other rows, only the four statuses, and a reason
// for every op out of scope or not in 1.13.
TEST(CoreAtenTable, RowsAreExactlyTheCoreAtenList) {
  std::string summary;
  const auto rows = readTable(&summary);
  std::set<std::string> listed;
  for (const auto& name : kCoreAten) {
    listed.insert("aten." + name);
    EXPECT_TRUE(rows.count("aten." + name)) << "aten." << name << " has no row in engine/ops/CoreAten.md";
  }
  EXPECT_EQ(listed.size(), kCoreAten.size()) << "the list repeats a name";
  for (const auto& [op, row] : rows) {
    EXPECT_TRUE(listed.count(op)) << op << " (line " << row.line << ") is not a Core ATen op";
    EXPECT_TRUE(kStatuses.count(row.status)) << op << ": unknown status '" << row.status << "'";
    if (row.status == "out of scope" || row.status == "not in torch 1.13")
      EXPECT_FALSE(row.note.empty()) << op << ": say why it is " << row.status;
  }
  EXPECT_EQ(rows.size(), kCoreAten.size());
}

// "supported" exactly when the op is registered; a supported op returning tensors has oracle
// cases against PyTorch 1.13; a file the row names exists under engine/ops/families.
TEST(CoreAtenTable, StatusesMatchTheRegistry) {
  std::string summary;
  const auto rows = readTable(&summary);
  const std::set<std::string> oracle = oracleOps();
  for (const auto& [op, row] : rows) {
    const OpDef* def = builtins().find(registryName(op));
    if (row.status == "supported") {
      EXPECT_NE(def, nullptr) << op << " is marked supported but is not registered";
      if (def && returnsTensor(*def))
        EXPECT_TRUE(oracle.count(registryName(op))) << op << " is supported but has no oracle case (tests/oracle/cases)";
    } else {
      EXPECT_EQ(def, nullptr) << op << " is registered but its row says '" << row.status << "': mark it supported";
    }
    if (!row.where.empty()) {
      const std::string file = row.where.substr(1, row.where.size() - 2);  // `File.cpp`
      EXPECT_TRUE(fs::exists(opsDir() / "families" / file)) << op << ": engine/ops/families/" << file << " does not exist";
    }
  }
}

// The summary line states the rows' counts.
TEST(CoreAtenTable, SummaryCountsTheRows) {
  std::string summary;
  const auto rows = readTable(&summary);
  std::map<std::string, int> count;
  for (const auto& [op, row] : rows) ++count[row.status];
  char expected[256];
  std::snprintf(expected, sizeof expected,
                "**Covered: %d of %zu** (supported %d, missing %d, not in torch 1.13 %d, out of scope %d).",
                count["supported"], rows.size(), count["supported"], count["missing"], count["not in torch 1.13"],
                count["out of scope"]);
  EXPECT_EQ(summary, expected) << "update the summary line of engine/ops/CoreAten.md";
}

}  // namespace
}  // namespace fathom
