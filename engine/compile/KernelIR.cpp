#include "engine/compile/KernelIR.h"

#include "engine/compile/KernelJit.h"

#include <cstdio>
#include <sstream>

namespace fathom {

std::optional<ScalarKind> scalarKindOf(DType t) {
  switch (t) {
    case DType::Bool: return ScalarKind::Bool;
    case DType::UInt8: return ScalarKind::U8;
    case DType::Int8: return ScalarKind::I8;
    case DType::Int32: return ScalarKind::I32;
    case DType::Int64: return ScalarKind::I64;
    case DType::Float32: return ScalarKind::F32;
    case DType::Float64: return ScalarKind::F64;
    default: return std::nullopt;
  }
}

DType dtypeOf(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool: return DType::Bool;
    case ScalarKind::U8: return DType::UInt8;
    case ScalarKind::I8: return DType::Int8;
    case ScalarKind::I32: return DType::Int32;
    case ScalarKind::I64: return DType::Int64;
    case ScalarKind::F32: return DType::Float32;
    case ScalarKind::F64: return DType::Float64;
  }
  return DType::Float32;
}

std::string_view scalarKindName(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool: return "bool";
    case ScalarKind::U8: return "u8";
    case ScalarKind::I8: return "i8";
    case ScalarKind::I32: return "i32";
    case ScalarKind::I64: return "i64";
    case ScalarKind::F32: return "f32";
    case ScalarKind::F64: return "f64";
  }
  return "?";
}

bool isFloatKind(ScalarKind k) { return k == ScalarKind::F32 || k == ScalarKind::F64; }

std::string_view kopName(KOp op) {
  switch (op) {
    case KOp::Load: return "load";
    case KOp::Const: return "const";
    case KOp::Cast: return "cast";
    case KOp::Neg: return "neg";
    case KOp::Abs: return "abs";
    case KOp::Exp: return "exp";
    case KOp::Log: return "log";
    case KOp::Tanh: return "tanh";
    case KOp::Erf: return "erf";
    case KOp::Sqrt: return "sqrt";
    case KOp::Floor: return "floor";
    case KOp::Ceil: return "ceil";
    case KOp::Not: return "not";
    case KOp::Add: return "add";
    case KOp::Sub: return "sub";
    case KOp::Mul: return "mul";
    case KOp::Div: return "div";
    case KOp::Max: return "max";
    case KOp::Min: return "min";
    case KOp::Lt: return "lt";
    case KOp::Le: return "le";
    case KOp::Gt: return "gt";
    case KOp::Ge: return "ge";
    case KOp::Eq: return "eq";
    case KOp::Ne: return "ne";
    case KOp::And: return "and";
    case KOp::Or: return "or";
    case KOp::Select: return "select";
    case KOp::Acc: return "acc";
  }
  return "?";
}

std::string_view reduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
    case ReduceOp::Mean: return "mean";
  }
  return "?";
}

int32_t LoweredKernel::inputCount() const {
  int32_t n = 0;
  for (const auto& b : buffers) n += b.output ? 0 : 1;
  return n;
}

int64_t outerExtent(const LoweredKernel& k, const std::vector<int64_t>& params) {
  if (k.loop.empty() || static_cast<size_t>(k.reduceDims) >= k.loop.size()) return 1;
  const KernelInt& n = k.loop[0];
  return n.isConstant() ? n.constant : params.at(static_cast<size_t>(n.param));
}

std::string_view kernelSourceName(KernelSource s) {
  switch (s) {
    case KernelSource::Memory: return "memory";
    case KernelSource::Disk: return "disk cache";
    case KernelSource::Compiled: return "compiled";
  }
  return "?";
}

namespace {

std::string intText(const KernelInt& k) {
  return k.isConstant() ? std::to_string(k.constant) : "p" + std::to_string(k.param);
}

std::string listText(const std::vector<KernelInt>& ks) {
  std::string s = "[";
  for (size_t i = 0; i < ks.size(); ++i) s += (i ? ", " : "") + intText(ks[i]);
  return s + "]";
}

// A double as its exact bits, so the key tells 0.1f from 0.1.
std::string exactDouble(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", d);
  return buf;
}

std::string instrText(const KernelInstr& in, bool exact) {
  std::string s = std::string(kopName(in.op)) + "." + std::string(scalarKindName(in.type));
  if (in.phase) s = "[" + std::to_string(in.phase) + "] " + s;
  if (in.op == KOp::Load) return s + " b" + std::to_string(in.buffer);
  if (in.op == KOp::Acc) return s + " r" + std::to_string(in.iconst);
  if (in.op == KOp::Const) {
    if (!isFloatKind(in.type)) return s + " " + std::to_string(in.iconst);
    if (exact) return s + " " + exactDouble(in.fconst);
    std::ostringstream o;
    o.precision(9);
    o << in.fconst;
    return s + " " + o.str();
  }
  for (int32_t operand : {in.a, in.b, in.c})
    if (operand >= 0) s += " v" + std::to_string(operand);
  return s;
}

}  // namespace

std::string LoweredKernel::signature() const {
  std::string s = "loop" + listText(loop) + " reduce " + std::to_string(reduceDims) + " params " +
                  std::to_string(params.size()) + "\n";
  for (const auto& b : buffers)
    s += std::string(b.output ? "out " : "in ") + std::string(scalarKindName(b.type)) + " shape" + listText(b.shape) +
         " strides" + listText(b.strides) + "\n";
  for (const auto& in : body) s += instrText(in, true) + "\n";
  for (const auto& st : stores)
    s += "store v" + std::to_string(st.value) + " b" + std::to_string(st.buffer) + " @" + std::to_string(st.phase) + "\n";
  for (const auto& r : reductions)
    s += "reduce." + std::string(reduceOpName(r.op)) + "." + std::string(scalarKindName(r.type)) + " v" +
         std::to_string(r.value) + " b" + std::to_string(r.buffer) + " @" + std::to_string(r.phase) + "\n";
  for (const auto& ph : phases) s += ph.overRow ? "phase row\n" : "phase once\n";
  return s;
}

std::string LoweredKernel::text() const {
  std::ostringstream o;
  o << "kernel " << name << " (";
  for (size_t i = 0; i < nodes.size(); ++i) o << (i ? ", " : "") << "%" << nodes[i];
  o << ")\n  loops " << listText(loop);
  if (reduceDims) o << ", the last " << reduceDims << " reduced";
  o << "\n";
  for (size_t i = 0; i < params.size(); ++i) o << "  p" << i << " = " << params[i].str() << "\n";
  for (size_t i = 0; i < buffers.size(); ++i) {
    const auto& b = buffers[i];
    o << "  b" << i << " " << (b.output ? "out" : "in ") << " %" << b.value << " " << scalarKindName(b.type);
    if (!b.shape.empty()) o << " as " << listText(b.shape);
    o << " strides " << listText(b.strides) << "\n";
  }
  for (size_t i = 0; i < body.size(); ++i) o << "  v" << i << " = " << instrText(body[i], false) << "\n";
  for (const auto& st : stores) o << "  store v" << st.value << " -> b" << st.buffer << (st.phase ? " [" + std::to_string(st.phase) + "]" : "") << "\n";
  for (size_t i = 0; i < reductions.size(); ++i) {
    const auto& r = reductions[i];
    o << "  r" << i << " = " << reduceOpName(r.op) << " v" << r.value << (r.buffer >= 0 ? " -> b" + std::to_string(r.buffer) : "")
      << (r.phase ? " [" + std::to_string(r.phase) + "]" : "") << "\n";
  }
  if (!phases.empty()) {
    o << "  phases:";
    for (size_t i = 0; i < phases.size(); ++i) o << " [" << i << "] " << (phases[i].overRow ? "over the row" : "once");
    o << "\n";
  }
  return o.str();
}

}  // namespace fathom
