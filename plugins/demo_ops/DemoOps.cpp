// An in-tree plugin with two custom ops, as a team would ship them:
//   demo::scaled_add(Tensor a, Tensor b, float alpha=1) -> Tensor   a + alpha * b, same sizes,
//       contiguous; it has a meta function
//   demo::row_pad(Tensor x, int pad) -> Tensor   the last dim padded with `pad` zeros at its end,
//       contiguous; it has NO meta function: Fathom infers its layout by running the kernel
// Both take float32 of any rank. And an importer: "*.ops.txt", a chain of ops as text, one per
// line - the first `input NAME 4x8`, then `OP [INT...]` applied to the value before (ATen ops by
// their short name, `demo::row_pad 3`):
//   input x 4x8
//   relu
//   demo::row_pad 3
// Built as libfathom_demo_ops.so; load with --plugin.
#include <fstream>
#include <sstream>

#include "engine/core/Error.h"
#include "engine/graph/GraphBuilder.h"
#include "plugins/api/FathomPlugin.h"

namespace {

using fathom::Tensor;
using fathom::TensorMeta;
using fathom::Value;
using fathom::ValueList;

Tensor contiguousInput(const Value& v) {
  auto c = v.as<Tensor>().contiguous();
  FATHOM_CHECK(c.ok(), "demo: ", c.ok() ? "" : c.error().message);
  return std::move(*c);
}

ValueList scaledAddMeta(const ValueList& args) {
  const auto& a = args[0].as<TensorMeta>();
  const auto& b = args[1].as<TensorMeta>();
  FATHOM_CHECK(a.sizes.size() == b.sizes.size(), "demo::scaled_add: a has ", a.dim(), " dims, b has ", b.dim());
  TensorMeta out = a;
  out.strides = fathom::contiguousStrides(a.sizes);
  out.storageOffset = 0;
  return {Value(std::move(out))};
}

ValueList scaledAddKernel(const ValueList& args) {
  const Tensor a = contiguousInput(args[0]), b = contiguousInput(args[1]);
  const double alpha = args[2].isNumber() ? args[2].toDouble() : 1.0;
  FATHOM_CHECK(a.sizes() == b.sizes(), "demo::scaled_add: sizes ", fathom::intListText(a.sizes()), " and ", fathom::intListText(b.sizes()));
  auto out = Tensor::empty(a.sizes(), a.dtype());
  FATHOM_CHECK(out.ok(), "demo::scaled_add: ", out.ok() ? "" : out.error().message);
  for (int64_t i = 0; i < a.numel(); ++i) out->setLinear(i, a.atLinear(i) + alpha * b.atLinear(i));
  return {Value(std::move(*out))};
}

ValueList rowPadKernel(const ValueList& args) {
  const Tensor x = contiguousInput(args[0]);
  const int64_t pad = args[1].as<fathom::SymInt>().hint();
  FATHOM_CHECK(x.dim() >= 1 && pad >= 0, "demo::row_pad: needs a tensor with a dim and pad >= 0");
  fathom::IntList sizes = x.sizes();
  const int64_t row = sizes.back();
  sizes.back() += pad;
  auto out = Tensor::empty(sizes, x.dtype());
  FATHOM_CHECK(out.ok(), "demo::row_pad: ", out.ok() ? "" : out.error().message);
  for (int64_t r = 0; r < x.numel() / std::max<int64_t>(row, 1); ++r)
    for (int64_t c = 0; c < row; ++c) out->setLinear(r * (row + pad) + c, x.atLinear(r * row + c));
  return {Value(std::move(*out))};
}

// "4x8" -> {4, 8}; empty when it is not sizes.
fathom::SymIntList parseSizes(const std::string& text) {
  fathom::SymIntList sizes;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, 'x');) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return {};
    sizes.push_back(fathom::SymInt(std::stoll(part)));
  }
  return sizes;
}

// "relu" -> "aten.relu.default", "demo::row_pad" -> "demo.row_pad.default".
std::string opName(const std::string& word) {
  const auto ns = word.find("::");
  return ns == std::string::npos ? "aten." + word + ".default" : word.substr(0, ns) + "." + word.substr(ns + 2) + ".default";
}

fathom::Result<fathom::Dump> importOpsText(const std::string& path) {
  std::ifstream file(path);
  if (!file) return fathom::invalidInput("cannot open");
  fathom::GraphBuilder b;
  fathom::NodeRef last{};
  std::string inputName;
  fathom::SymIntList inputSizes;
  int lineNumber = 0;
  for (std::string line; std::getline(file, line);) {
    ++lineNumber;
    std::istringstream words(line);
    std::string op;
    if (!(words >> op) || op[0] == '#') continue;
    const std::string where = "line " + std::to_string(lineNumber);
    if (inputName.empty()) {
      std::string sizes;
      if (op != "input" || !(words >> inputName >> sizes) || (inputSizes = parseSizes(sizes)).empty())
        return fathom::invalidInput("the first line is 'input NAME SIZES' (input x 4x8)", where);
      last = b.input(inputName, fathom::fakeTensor(fathom::DType::Float32, inputSizes));
      continue;
    }
    fathom::ValueList args{fathom::Value(last)};
    for (long long n; words >> n;) args.push_back(fathom::Value(fathom::SymInt(n)));
    last = b.call(opName(op), std::move(args));
    if (const fathom::Error* e = b.error()) return fathom::invalidInput(e->message, where);
  }
  if (inputName.empty()) return fathom::invalidInput("no 'input NAME SIZES' line");
  b.output({fathom::Value(last)});
  auto graph = b.finish();
  if (!graph.ok()) return graph.error();
  fathom::Dump d;
  d.producer = {{"tool", "demo-ops importer"}};
  d.graphs.push_back({"forward", std::move(*graph)});
  fathom::ExampleInput in;
  in.name = inputName;
  in.meta = fathom::fakeTensor(fathom::DType::Float32, inputSizes);
  in.seed = 1;
  in.range = std::pair(-1.0, 1.0);
  d.inputs.emplace_back("forward", std::vector<fathom::ExampleInput>{in});
  return d;
}

}  // namespace

FATHOM_PLUGIN("demo-ops", "1.0", registrar) {
  registrar.op({"demo::scaled_add(Tensor a, Tensor b, float alpha=1) -> Tensor", scaledAddMeta, scaledAddKernel});
  registrar.op({"demo::row_pad(Tensor x, int pad) -> Tensor", {}, rowPadKernel});
  registrar.importer({"ops-text", ".ops.txt", importOpsText});
}
