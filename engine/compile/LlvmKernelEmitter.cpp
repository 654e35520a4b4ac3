#include "engine/compile/LlvmKernelEmitter.h"

#include <functional>
#include <limits>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include "engine/compile/LlvmVectorMath.h"

namespace fathom {
namespace {

class Emitter {
 public:
  Emitter(llvm::Module& m, const LoweredKernel& k) : m_(m), k_(k), ctx_(m.getContext()), b_(ctx_) {}

  llvm::Function* run(const std::string& name) {
    auto* i64 = b_.getInt64Ty();
    auto* ptr = b_.getPtrTy();
    auto* type = llvm::FunctionType::get(b_.getVoidTy(), {ptr, ptr, i64, i64}, false);
    fn_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, m_);
    fn_->addFnAttr(llvm::Attribute::NoUnwind);
    auto args = fn_->arg_begin();
    llvm::Value* bufs = &*args++;
    params_ = &*args++;
    llvm::Value* begin = &*args++;
    llvm::Value* end = &*args++;
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
    for (size_t i = 0; i < k_.buffers.size(); ++i)
      data_.push_back(b_.CreateLoad(ptr, b_.CreateConstGEP1_64(ptr, bufs, i), "b" + std::to_string(i)));
    // Every parameter read once, here: a load inside the loops could not be hoisted past the
    // stores (the params array might alias an output, as far as LLVM knows).
    for (size_t p = 0; p < k_.params.size(); ++p)
      paramValues_.push_back(b_.CreateLoad(i64, b_.CreateConstGEP1_64(i64, params_, p), "p" + std::to_string(p)));
    for (const auto& n : k_.loop) extents_.push_back(intValue(n));
    const size_t outer = k_.loop.size() - static_cast<size_t>(k_.reduceDims);
    indices_.assign(k_.loop.size(), nullptr);
    const auto point = [&] { k_.phases.empty() ? outerPoint() : phasedPoint(); };
    if (outer == 0) {
      // One outer point: run it when the range is not empty.
      auto* body = llvm::BasicBlock::Create(ctx_, "point", fn_);
      auto* done = llvm::BasicBlock::Create(ctx_, "done", fn_);
      b_.CreateCondBr(b_.CreateICmpSLT(begin, end), body, done);
      b_.SetInsertPoint(body);
      point();
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    } else if (k_.phases.empty() && columnReduction()) {
      reduceColumns(begin, end);
    } else {
      loops(0, outer, begin, end, point);
    }
    b_.CreateRetVoid();
    return fn_;
  }

 private:
  llvm::Value* intValue(const KernelInt& k) {
    if (k.isConstant()) return b_.getInt64(static_cast<uint64_t>(k.constant));
    return paramValues_.at(static_cast<size_t>(k.param));
  }

  llvm::Type* memType(ScalarKind t) {
    switch (t) {
      case ScalarKind::Bool: case ScalarKind::U8: case ScalarKind::I8: return b_.getInt8Ty();
      case ScalarKind::I32: return b_.getInt32Ty();
      case ScalarKind::I64: return b_.getInt64Ty();
      case ScalarKind::F32: return b_.getFloatTy();
      case ScalarKind::F64: return b_.getDoubleTy();
    }
    return b_.getFloatTy();
  }
  llvm::Type* regType(ScalarKind t) { return t == ScalarKind::Bool ? b_.getInt1Ty() : memType(t); }
  static bool isUnsigned(ScalarKind t) { return t == ScalarKind::Bool || t == ScalarKind::U8; }

  // for (i = lo; i < hi; ++i) body(i), as loop `dim`.
  void loop(size_t dim, llvm::Value* lo, llvm::Value* hi, const std::function<void()>& body) {
    auto* pre = b_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx_, "loop" + std::to_string(dim), fn_);
    auto* inner = llvm::BasicBlock::Create(ctx_, "body" + std::to_string(dim), fn_);
    auto* exit = llvm::BasicBlock::Create(ctx_, "exit" + std::to_string(dim), fn_);
    b_.CreateBr(header);
    b_.SetInsertPoint(header);
    auto* i = b_.CreatePHI(b_.getInt64Ty(), 2, "i" + std::to_string(dim));
    i->addIncoming(lo, pre);
    b_.CreateCondBr(b_.CreateICmpSLT(i, hi), inner, exit);
    b_.SetInsertPoint(inner);
    indices_[dim] = i;
    body();
    auto* next = b_.CreateAdd(i, b_.getInt64(1), "", /*HasNUW=*/true, /*HasNSW=*/true);
    i->addIncoming(next, b_.GetInsertBlock());
    auto* latch = b_.CreateBr(header);
    llvm::MDNode* parallel = llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.parallel_accesses"), accessGroup()});
    // A row-local kernel's row loops are not unrolled: fully unrolled, three passes over a
    // 128-wide row triple the kernel's compile time for little gain. Flat pointwise loops keep
    // the unrolling (measured: it is what brings the arithmetic chain to the triad's bandwidth).
    std::vector<llvm::Metadata*> properties = {nullptr, parallel};
    if (!k_.phases.empty()) properties.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.disable")}));
    llvm::MDNode* self = llvm::MDNode::getDistinct(ctx_, properties);
    self->replaceOperandWith(0, self);
    latch->setMetadata(llvm::LLVMContext::MD_loop, self);
    b_.SetInsertPoint(exit);
  }

  // Loops first..last-1; the first runs over [lo, hi), the others over their extents.
  void loops(size_t first, size_t last, llvm::Value* lo, llvm::Value* hi, const std::function<void()>& body) {
    if (first == last) {
      body();
      return;
    }
    loop(first, lo, hi, [&] { loops(first + 1, last, b_.getInt64(0), extents_[first + 1 < last ? first + 1 : first], body); });
  }

  // Everything at one point of the outer loops: the pointwise body and stores, or the
  // reductions over the inner loops.
  void outerPoint() {
    const size_t outer = k_.loop.size() - static_cast<size_t>(k_.reduceDims);
    if (k_.reduceDims == 0) {
      computeBody();
      storeAll();
      // A reduction over no dims (a 0-dim input): each point reduces itself.
      for (const auto& r : k_.reductions)
        finish(r, combine(r, initial(r), values_[static_cast<size_t>(r.value)]), k_.loop.size());
      return;
    }
    std::vector<llvm::AllocaInst*> accs;
    {
      llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
      for (const auto& r : k_.reductions) accs.push_back(entry.CreateAlloca(regType(r.type)));
    }
    for (size_t i = 0; i < k_.reductions.size(); ++i) b_.CreateStore(initial(k_.reductions[i]), accs[i]);
    loops(outer, k_.loop.size(), b_.getInt64(0), extents_[outer], [&] {
      computeBody();
      storeAll();
      for (size_t i = 0; i < k_.reductions.size(); ++i) {
        const auto& r = k_.reductions[i];
        llvm::Value* acc = b_.CreateLoad(regType(r.type), accs[i]);
        b_.CreateStore(combine(r, acc, values_[static_cast<size_t>(r.value)]), accs[i]);
      }
    });
    for (size_t i = 0; i < k_.reductions.size(); ++i)
      finish(k_.reductions[i], b_.CreateLoad(regType(k_.reductions[i].type), accs[i]), outer);
  }

  // A reduction over outer dims of its input (a bias gradient: sum over rows of [N, M]) reads
  // down columns if each output element runs its reduced loops alone. When the one kept loop is
  // the input's unit-stride dim and the reduced loops are not, the kernel keeps a block of
  // accumulators instead and sweeps rows through it, as Inductor's reductions over outer dims do:
  // contiguous, vectorized reads.
  bool columnReduction() const {
    if (k_.reduceDims == 0 || k_.loop.size() != static_cast<size_t>(k_.reduceDims) + 1) return false;
    for (const auto& buf : k_.buffers) {
      if (buf.output || !buf.shape.empty()) continue;
      const KernelInt& kept = buf.strides.front();
      const KernelInt& inner = buf.strides.back();
      if (kept.isConstant() && kept.constant == 1 && !(inner.isConstant() && inner.constant <= 1)) return true;
    }
    return false;
  }

  static constexpr int64_t kColumnBlock = 64;

  void reduceColumns(llvm::Value* begin, llvm::Value* end) {
    auto* i64 = b_.getInt64Ty();
    std::vector<llvm::AllocaInst*> accs;
    {
      llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
      for (const auto& r : k_.reductions) accs.push_back(entry.CreateAlloca(llvm::ArrayType::get(regType(r.type), kColumnBlock)));
    }
    auto slot = [&](size_t r, llvm::Value* j, llvm::Value* jb) {
      return b_.CreateInBoundsGEP(accs[r]->getAllocatedType(), accs[r], {b_.getInt64(0), b_.CreateSub(j, jb)});
    };
    // for (jb = begin; jb < end; jb += block): the blocks, each reduced whole.
    auto* pre = b_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx_, "blocks", fn_);
    auto* body = llvm::BasicBlock::Create(ctx_, "block", fn_);
    auto* exit = llvm::BasicBlock::Create(ctx_, "blocks_done", fn_);
    b_.CreateBr(header);
    b_.SetInsertPoint(header);
    auto* jb = b_.CreatePHI(i64, 2, "jb");
    jb->addIncoming(begin, pre);
    b_.CreateCondBr(b_.CreateICmpSLT(jb, end), body, exit);
    b_.SetInsertPoint(body);
    llvm::Value* next = b_.CreateAdd(jb, b_.getInt64(kColumnBlock));
    llvm::Value* je = b_.CreateSelect(b_.CreateICmpSLT(next, end), next, end);
    loop(0, jb, je, [&] {
      for (size_t r = 0; r < k_.reductions.size(); ++r) b_.CreateStore(initial(k_.reductions[r]), slot(r, indices_[0], jb));
    });
    loops(1, k_.loop.size(), b_.getInt64(0), extents_[1], [&] {
      loop(0, jb, je, [&] {
        computeBody();
        storeAll();
        for (size_t r = 0; r < k_.reductions.size(); ++r) {
          const auto& red = k_.reductions[r];
          llvm::Value* at = slot(r, indices_[0], jb);
          b_.CreateStore(combine(red, b_.CreateLoad(regType(red.type), at), values_[static_cast<size_t>(red.value)]), at);
        }
      });
    });
    loop(0, jb, je, [&] {
      for (size_t r = 0; r < k_.reductions.size(); ++r) finish(k_.reductions[r], b_.CreateLoad(regType(k_.reductions[r].type), slot(r, indices_[0], jb)), 1);
    });
    jb->addIncoming(next, b_.GetInsertBlock());
    b_.CreateBr(header);
    b_.SetInsertPoint(exit);
  }

  // A finished accumulator (a mean divided by the reduced count: loops from `firstReduced`),
  // stored when the reduction has a buffer.
  llvm::Value* finish(const KernelReduction& r, llvm::Value* acc, size_t firstReduced) {
    if (r.op == ReduceOp::Mean) {
      llvm::Value* count = b_.getInt64(1);
      for (size_t d = firstReduced; d < k_.loop.size(); ++d) count = b_.CreateMul(count, extents_[d]);
      acc = b_.CreateFDiv(acc, b_.CreateSIToFP(count, regType(r.type)));
    }
    if (r.buffer >= 0) store(r.buffer, acc);
    return acc;
  }

  // A row-local kernel at one outer point: its phases in order, each over the inner loops (or
  // once); a phase's finished reductions are what later phases' Acc instructions read.
  void phasedPoint() {
    const size_t outer = k_.loop.size() - static_cast<size_t>(k_.reduceDims);
    accValues_.assign(k_.reductions.size(), nullptr);
    for (size_t p = 0; p < k_.phases.size(); ++p) {
      const auto phase = static_cast<int32_t>(p);
      if (!k_.phases[p].overRow) {
        computeBody(phase);
        storeAll(phase);
        continue;
      }
      std::vector<llvm::AllocaInst*> accs(k_.reductions.size(), nullptr);
      {
        llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
        for (size_t r = 0; r < k_.reductions.size(); ++r)
          if (k_.reductions[r].phase == phase) accs[r] = entry.CreateAlloca(regType(k_.reductions[r].type));
      }
      for (size_t r = 0; r < accs.size(); ++r)
        if (accs[r]) b_.CreateStore(initial(k_.reductions[r]), accs[r]);
      loops(outer, k_.loop.size(), b_.getInt64(0), extents_[outer], [&] {
        computeBody(phase);
        storeAll(phase);
        for (size_t r = 0; r < accs.size(); ++r) {
          if (!accs[r]) continue;
          const auto& red = k_.reductions[r];
          llvm::Value* acc = b_.CreateLoad(regType(red.type), accs[r]);
          b_.CreateStore(combine(red, acc, values_[static_cast<size_t>(red.value)]), accs[r]);
        }
      });
      for (size_t r = 0; r < accs.size(); ++r)
        if (accs[r]) accValues_[r] = finish(k_.reductions[r], b_.CreateLoad(regType(k_.reductions[r].type), accs[r]), outer);
    }
  }

  llvm::Value* initial(const KernelReduction& r) {
    const double inf = std::numeric_limits<double>::infinity();
    if (isFloatKind(r.type)) {
      const double v = r.op == ReduceOp::Max ? -inf : r.op == ReduceOp::Min ? inf : 0.0;
      return llvm::ConstantFP::get(regType(r.type), v);
    }
    auto* t = llvm::cast<llvm::IntegerType>(regType(r.type));
    if (r.op == ReduceOp::Max) return isUnsigned(r.type) ? llvm::ConstantInt::get(t, 0) : llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(t->getBitWidth()));
    if (r.op == ReduceOp::Min) return isUnsigned(r.type) ? llvm::ConstantInt::get(t, llvm::APInt::getMaxValue(t->getBitWidth())) : llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(t->getBitWidth()));
    return llvm::ConstantInt::get(t, 0);
  }

  llvm::Value* combine(const KernelReduction& r, llvm::Value* acc, llvm::Value* v) {
    if (r.op == ReduceOp::Sum || r.op == ReduceOp::Mean) {
      if (!isFloatKind(r.type)) return b_.CreateAdd(acc, v);
      // Reassociation lets the vectorizer keep several partial sums, as ATen's sums do (their
      // order differs from a serial sum anyway).
      auto* add = llvm::cast<llvm::Instruction>(b_.CreateFAdd(acc, v));
      llvm::FastMathFlags flags;
      flags.setAllowReassoc();
      add->setFastMathFlags(flags);
      return add;
    }
    // llvm.maximum / llvm.minimum propagate NaN, as ATen's max reductions do, and the vectorizer
    // knows them as reductions (a compare-and-select chain it does not).
    if (isFloatKind(r.type))
      return b_.CreateBinaryIntrinsic(r.op == ReduceOp::Max ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum, acc, v);
    return extremum(r.op == ReduceOp::Max, acc, v, r.type);
  }

  // NaN when either is NaN (floats), else the larger / smaller, the first on ties.
  llvm::Value* extremum(bool isMax, llvm::Value* a, llvm::Value* c, ScalarKind t) {
    if (!isFloatKind(t)) {
      llvm::Value* less = isUnsigned(t) ? b_.CreateICmpULT(a, c) : b_.CreateICmpSLT(a, c);
      return isMax ? b_.CreateSelect(less, c, a) : b_.CreateSelect(less, a, c);
    }
    llvm::Value* pick = isMax ? b_.CreateSelect(b_.CreateFCmpOLT(a, c), c, a) : b_.CreateSelect(b_.CreateFCmpOLT(c, a), c, a);
    llvm::Value* nan = llvm::ConstantFP::getNaN(a->getType());
    return b_.CreateSelect(b_.CreateFCmpUNO(a, c), nan, pick);
  }

  // Element index of buffer `i` at the current point.
  llvm::Value* index(int32_t i) {
    const KernelBuffer& buf = k_.buffers[static_cast<size_t>(i)];
    llvm::Value* idx = b_.getInt64(0);
    if (buf.shape.empty()) {
      for (size_t d = 0; d < buf.strides.size(); ++d) {
        if (buf.strides[d].isConstant() && buf.strides[d].constant == 0) continue;
        idx = b_.CreateAdd(idx, b_.CreateMul(indices_[d], intValue(buf.strides[d])));
      }
      return idx;
    }
    // Its own sizes over the row-major linear index of the loops.
    llvm::Value* linear = b_.getInt64(0);
    for (size_t d = 0; d < k_.loop.size(); ++d) linear = b_.CreateAdd(b_.CreateMul(linear, extents_[d]), indices_[d]);
    for (size_t d = buf.shape.size(); d-- > 0;) {
      llvm::Value* size = intValue(buf.shape[d]);
      llvm::Value* coord = d == 0 ? linear : b_.CreateURem(linear, size);
      if (d > 0) linear = b_.CreateUDiv(linear, size);
      idx = b_.CreateAdd(idx, b_.CreateMul(coord, intValue(buf.strides[d])));
    }
    return idx;
  }

  // Every load and store joins one access group, and each loop says the group's accesses carry
  // no dependence across its iterations: outputs are fresh tensors, written once per point, so
  // the vectorizer needs no runtime alias checks (which would double the code).
  llvm::MDNode* accessGroup() {
    if (!group_) group_ = llvm::MDNode::getDistinct(ctx_, {});
    return group_;
  }
  template <class I>
  I* grouped(I* inst) {
    inst->setMetadata(llvm::LLVMContext::MD_access_group, accessGroup());
    return inst;
  }

  llvm::Value* address(int32_t i) {
    const ScalarKind t = k_.buffers[static_cast<size_t>(i)].type;
    return b_.CreateInBoundsGEP(memType(t), data_[static_cast<size_t>(i)], index(i));
  }

  void store(int32_t buffer, llvm::Value* v) {
    const ScalarKind t = k_.buffers[static_cast<size_t>(buffer)].type;
    if (t == ScalarKind::Bool) v = b_.CreateZExt(v, b_.getInt8Ty());
    grouped(b_.CreateStore(v, address(buffer)));
  }

  void storeAll(int32_t phase = 0) {
    for (const auto& st : k_.stores)
      if (st.phase == phase) store(st.buffer, values_[static_cast<size_t>(st.value)]);
  }

  // The instructions of `phase` (every one, in a kernel without phases).
  void computeBody(int32_t phase = 0) {
    values_.assign(k_.body.size(), nullptr);
    for (size_t i = 0; i < k_.body.size(); ++i)
      if (k_.body[i].phase == phase) values_[i] = instr(k_.body[i]);
  }

  llvm::Value* v(int32_t i) { return values_[static_cast<size_t>(i)]; }
  ScalarKind typeOfValue(int32_t i) { return k_.body[static_cast<size_t>(i)].type; }

  llvm::Value* intrinsic(llvm::Intrinsic::ID id, llvm::Value* x) {
    return b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, id, {x->getType()}), {x});
  }
  llvm::Value* libm(const char* name, llvm::Value* x) {
    auto callee = m_.getOrInsertFunction(name, x->getType(), x->getType());
    return b_.CreateCall(callee, {x});
  }

  llvm::Value* cast(llvm::Value* x, ScalarKind from, ScalarKind to) {
    if (from == to) return x;
    llvm::Type* dst = regType(to);
    if (to == ScalarKind::Bool)
      return isFloatKind(from) ? b_.CreateFCmpUNE(x, llvm::ConstantFP::get(x->getType(), 0.0))
                               : b_.CreateICmpNE(x, llvm::ConstantInt::get(x->getType(), 0));
    if (isFloatKind(from) && isFloatKind(to)) return b_.CreateFPCast(x, dst);
    if (isFloatKind(to)) return isUnsigned(from) ? b_.CreateUIToFP(x, dst) : b_.CreateSIToFP(x, dst);
    if (isFloatKind(from)) return isUnsigned(to) ? b_.CreateFPToUI(x, dst) : b_.CreateFPToSI(x, dst);
    return b_.CreateIntCast(x, dst, !isUnsigned(from));
  }

  llvm::Value* unaryMath(KOp op, llvm::Value* x, ScalarKind t) {
    const bool f32 = t == ScalarKind::F32;
    switch (op) {
      case KOp::Exp: return f32 ? llmath(llvmmath::expF32, x) : libm("exp", x);
      case KOp::Log: return f32 ? llmath(llvmmath::logF32, x) : libm("log", x);
      case KOp::Tanh: return f32 ? llmath(llvmmath::tanhF32, x) : libm("tanh", x);
      case KOp::Erf: return f32 ? llmath(llvmmath::erfF32, x) : libm("erf", x);
      case KOp::Sqrt: return intrinsic(llvm::Intrinsic::sqrt, x);
      case KOp::Floor: return intrinsic(llvm::Intrinsic::floor, x);
      case KOp::Ceil: return intrinsic(llvm::Intrinsic::ceil, x);
      default: return x;
    }
  }
  llvm::Value* llmath(llvm::Value* (*f)(llvm::IRBuilder<>&, llvm::Value*), llvm::Value* x) { return f(b_, x); }

  llvm::Value* compare(KOp op, llvm::Value* a, llvm::Value* c, ScalarKind t) {
    if (isFloatKind(t)) {
      switch (op) {
        case KOp::Lt: return b_.CreateFCmpOLT(a, c);
        case KOp::Le: return b_.CreateFCmpOLE(a, c);
        case KOp::Gt: return b_.CreateFCmpOGT(a, c);
        case KOp::Ge: return b_.CreateFCmpOGE(a, c);
        case KOp::Eq: return b_.CreateFCmpOEQ(a, c);
        default: return b_.CreateFCmpUNE(a, c);
      }
    }
    const bool u = isUnsigned(t);
    switch (op) {
      case KOp::Lt: return u ? b_.CreateICmpULT(a, c) : b_.CreateICmpSLT(a, c);
      case KOp::Le: return u ? b_.CreateICmpULE(a, c) : b_.CreateICmpSLE(a, c);
      case KOp::Gt: return u ? b_.CreateICmpUGT(a, c) : b_.CreateICmpSGT(a, c);
      case KOp::Ge: return u ? b_.CreateICmpUGE(a, c) : b_.CreateICmpSGE(a, c);
      case KOp::Eq: return b_.CreateICmpEQ(a, c);
      default: return b_.CreateICmpNE(a, c);
    }
  }

  llvm::Value* instr(const KernelInstr& in) {
    const ScalarKind t = in.type;
    const bool fl = isFloatKind(t);
    switch (in.op) {
      case KOp::Load: {
        llvm::Value* x = grouped(b_.CreateLoad(memType(t), address(in.buffer)));
        return t == ScalarKind::Bool ? b_.CreateICmpNE(x, b_.getInt8(0)) : x;
      }
      case KOp::Const:
        if (fl) return llvm::ConstantFP::get(regType(t), in.fconst);
        return llvm::ConstantInt::get(regType(t), static_cast<uint64_t>(in.iconst), true);
      case KOp::Cast: return cast(v(in.a), typeOfValue(in.a), t);
      case KOp::Neg: return fl ? b_.CreateFNeg(v(in.a)) : b_.CreateNeg(v(in.a));
      case KOp::Abs:
        if (fl) return intrinsic(llvm::Intrinsic::fabs, v(in.a));
        if (isUnsigned(t)) return v(in.a);  // |x| of an unsigned value is itself
        return b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::abs, {regType(t)}), {v(in.a), b_.getFalse()});
      case KOp::Exp: case KOp::Log: case KOp::Tanh: case KOp::Erf: case KOp::Sqrt: case KOp::Floor: case KOp::Ceil:
        return unaryMath(in.op, v(in.a), t);
      case KOp::Not: return b_.CreateNot(v(in.a));
      // Bool arithmetic is logical, as ATen's: True + True is True, True * False is False.
      case KOp::Add: return fl ? b_.CreateFAdd(v(in.a), v(in.b)) : t == ScalarKind::Bool ? b_.CreateOr(v(in.a), v(in.b)) : b_.CreateAdd(v(in.a), v(in.b));
      case KOp::Sub: return fl ? b_.CreateFSub(v(in.a), v(in.b)) : b_.CreateSub(v(in.a), v(in.b));
      case KOp::Mul: return fl ? b_.CreateFMul(v(in.a), v(in.b)) : t == ScalarKind::Bool ? b_.CreateAnd(v(in.a), v(in.b)) : b_.CreateMul(v(in.a), v(in.b));
      case KOp::Div: return fl ? b_.CreateFDiv(v(in.a), v(in.b)) : b_.CreateSDiv(v(in.a), v(in.b));
      case KOp::Max: return extremum(true, v(in.a), v(in.b), t);
      case KOp::Min: return extremum(false, v(in.a), v(in.b), t);
      case KOp::Lt: case KOp::Le: case KOp::Gt: case KOp::Ge: case KOp::Eq: case KOp::Ne:
        return compare(in.op, v(in.a), v(in.b), typeOfValue(in.a));
      case KOp::And: return b_.CreateAnd(v(in.a), v(in.b));
      case KOp::Or: return b_.CreateOr(v(in.a), v(in.b));
      case KOp::Select: return b_.CreateSelect(v(in.a), v(in.b), v(in.c));
      case KOp::Acc: return accValues_.at(static_cast<size_t>(in.iconst));
    }
    return nullptr;
  }

  llvm::Module& m_;
  const LoweredKernel& k_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Function* fn_ = nullptr;
  llvm::MDNode* group_ = nullptr;
  llvm::Value* params_ = nullptr;
  std::vector<llvm::Value*> accValues_, paramValues_, data_, extents_, indices_, values_;
};

}  // namespace

llvm::Function* emitKernel(llvm::Module& module, const LoweredKernel& kernel, const std::string& name) {
  return Emitter(module, kernel).run(name);
}

}  // namespace fathom
