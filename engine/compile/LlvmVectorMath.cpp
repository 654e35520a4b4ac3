#include "engine/compile/LlvmVectorMath.h"

#include <limits>

#include <llvm/IR/Intrinsics.h>

namespace fathom::llvmmath {
namespace {

llvm::Value* f(llvm::IRBuilder<>& b, double v) { return llvm::ConstantFP::get(b.getFloatTy(), v); }
llvm::Value* i(llvm::IRBuilder<>& b, int32_t v) { return b.getInt32(static_cast<uint32_t>(v)); }

// Horner's rule, highest coefficient first: ((c0 * x + c1) * x + c2) ...
llvm::Value* horner(llvm::IRBuilder<>& b, llvm::Value* x, std::initializer_list<double> cs) {
  llvm::Value* y = nullptr;
  for (double c : cs) y = y ? b.CreateFAdd(b.CreateFMul(y, x), f(b, c)) : f(b, c);
  return y;
}

}  // namespace

// expVec: clamp, x = n*ln2 + r (the 1.5 * 2^23 rounding trick, ln2 in two parts), a degree-5
// polynomial in r, then 2^n through the exponent bits.
llvm::Value* expF32(llvm::IRBuilder<>& b, llvm::Value* x) {
  llvm::Value* lo = f(b, -87.3365447);
  llvm::Value* hi = f(b, 88.3762626);
  llvm::Value* under = b.CreateFCmpOLT(x, lo);
  llvm::Value* over = b.CreateFCmpOGT(x, hi);
  x = b.CreateSelect(under, lo, x);
  x = b.CreateSelect(over, hi, x);
  llvm::Value* magic = f(b, 12582912.0);
  llvm::Value* t = b.CreateFAdd(b.CreateFMul(x, f(b, 1.44269504088896341)), magic);
  llvm::Value* n = b.CreateFSub(t, magic);
  llvm::Value* ni = b.CreateSub(b.CreateBitCast(t, b.getInt32Ty()), b.CreateBitCast(magic, b.getInt32Ty()));
  llvm::Value* r = b.CreateFSub(x, b.CreateFMul(n, f(b, 0.693359375)));
  r = b.CreateFSub(r, b.CreateFMul(n, f(b, -2.12194440e-4)));
  llvm::Value* z = b.CreateFMul(r, r);
  llvm::Value* y = horner(b, r, {1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
                                  1.6666665459e-1, 5.0000001201e-1});
  y = b.CreateFAdd(b.CreateFAdd(b.CreateFMul(y, z), r), f(b, 1.0));
  llvm::Value* scale = b.CreateBitCast(b.CreateShl(b.CreateAdd(ni, i(b, 127)), i(b, 23)), b.getFloatTy());
  y = b.CreateFMul(y, scale);
  y = b.CreateSelect(over, f(b, std::numeric_limits<double>::infinity()), y);
  y = b.CreateSelect(under, f(b, 0.0), y);
  // NaN stays NaN (the clamps compare false on it).
  return b.CreateSelect(b.CreateFCmpUNO(x, x), x, y);
}

// Cephes logf: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), a degree-8 polynomial in m - 1.
// Denormals are scaled by 2^23 first; 0 gives -inf, negatives NaN, inf and NaN themselves.
llvm::Value* logF32(llvm::IRBuilder<>& b, llvm::Value* x0) {
  llvm::Value* tiny = b.CreateFCmpOLT(x0, f(b, 1.17549435e-38));
  llvm::Value* x = b.CreateSelect(tiny, b.CreateFMul(x0, f(b, 8388608.0)), x0);
  llvm::Value* bits = b.CreateBitCast(x, b.getInt32Ty());
  llvm::Value* e = b.CreateSub(b.CreateAnd(b.CreateLShr(bits, i(b, 23)), i(b, 0xff)), i(b, 126));
  e = b.CreateSelect(tiny, b.CreateSub(e, i(b, 23)), e);
  llvm::Value* m = b.CreateBitCast(b.CreateOr(b.CreateAnd(bits, i(b, 0x007fffff)), i(b, 0x3f000000)), b.getFloatTy());
  llvm::Value* small = b.CreateFCmpOLT(m, f(b, 0.707106781186547524));
  e = b.CreateSelect(small, b.CreateSub(e, i(b, 1)), e);
  m = b.CreateSelect(small, b.CreateFSub(b.CreateFAdd(m, m), f(b, 1.0)), b.CreateFSub(m, f(b, 1.0)));
  llvm::Value* fe = b.CreateSIToFP(e, b.getFloatTy());
  llvm::Value* z = b.CreateFMul(m, m);
  llvm::Value* y = horner(b, m, {7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                                  1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                                  3.3333331174e-1});
  y = b.CreateFMul(b.CreateFMul(y, m), z);
  y = b.CreateFAdd(y, b.CreateFMul(fe, f(b, -2.12194440e-4)));
  y = b.CreateFSub(y, b.CreateFMul(z, f(b, 0.5)));
  llvm::Value* r = b.CreateFAdd(m, y);
  r = b.CreateFAdd(r, b.CreateFMul(fe, f(b, 0.693359375)));
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  r = b.CreateSelect(b.CreateFCmpOEQ(x0, f(b, inf)), f(b, inf), r);
  r = b.CreateSelect(b.CreateFCmpOEQ(x0, f(b, 0.0)), f(b, -inf), r);
  r = b.CreateSelect(b.CreateFCmpOLT(x0, f(b, 0.0)), f(b, nan), r);
  return b.CreateSelect(b.CreateFCmpUNO(x0, x0), x0, r);
}

// Cephes tanhf: an odd polynomial below |x| = 0.625, else 1 - 2 / (exp(2|x|) + 1) with x's sign.
llvm::Value* tanhF32(llvm::IRBuilder<>& b, llvm::Value* x) {
  llvm::Function* fabs = llvm::Intrinsic::getDeclaration(b.GetInsertBlock()->getModule(), llvm::Intrinsic::fabs,
                                                         {b.getFloatTy()});
  llvm::Value* ax = b.CreateCall(fabs, {x});
  llvm::Value* z = b.CreateFMul(x, x);
  llvm::Value* p = horner(b, z, {-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1,
                                  -3.33332819422e-1});
  llvm::Value* small = b.CreateFAdd(b.CreateFMul(b.CreateFMul(p, z), x), x);
  llvm::Value* t = expF32(b, b.CreateFAdd(ax, ax));
  llvm::Value* big = b.CreateFSub(f(b, 1.0), b.CreateFDiv(f(b, 2.0), b.CreateFAdd(t, f(b, 1.0))));
  llvm::Value* neg = b.CreateFCmpOLT(x, f(b, 0.0));
  big = b.CreateSelect(neg, b.CreateFNeg(big), big);
  llvm::Value* r = b.CreateSelect(b.CreateFCmpOLT(ax, f(b, 0.625)), small, big);
  return b.CreateSelect(b.CreateFCmpUNO(x, x), x, r);
}

// ATen's Vectorized<float>::erf: Abramowitz & Stegun 7.1.26, sign(x) * (1 - r(t) * t * exp(-x^2)).
llvm::Value* erfF32(llvm::IRBuilder<>& b, llvm::Value* x) {
  llvm::Value* negative = b.CreateFCmpOLT(x, f(b, 0.0));
  llvm::Value* ax = b.CreateSelect(negative, b.CreateFNeg(x), x);
  llvm::Value* t = b.CreateFDiv(f(b, 1.0), b.CreateFAdd(b.CreateFMul(f(b, 0.3275911), ax), f(b, 1.0)));
  llvm::Value* r = b.CreateFSub(b.CreateFMul(f(b, 1.061405429), t), f(b, 1.453152027));
  r = b.CreateFAdd(b.CreateFMul(r, t), f(b, 1.421413741));
  r = b.CreateFSub(b.CreateFMul(r, t), f(b, 0.284496736));
  r = b.CreateFAdd(b.CreateFMul(r, t), f(b, 0.254829592));
  llvm::Value* y = b.CreateFSub(f(b, 1.0), b.CreateFMul(b.CreateFMul(r, t), expF32(b, b.CreateFNeg(b.CreateFMul(x, x)))));
  return b.CreateSelect(negative, b.CreateFNeg(y), y);
}

}  // namespace fathom::llvmmath
