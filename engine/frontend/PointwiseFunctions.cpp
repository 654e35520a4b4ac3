// Elementwise frontend ops: one ATen op each (a Python number operand uses the .Scalar overload).
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"

namespace fathom::frontend {

Tensor add(const Tensor& a, const Tensor& b, Loc loc) { return callOp1("aten.add.Tensor", {a, b}, {}, loc); }
Tensor add(const Tensor& a, double b, Loc loc) { return callOp1("aten.add.Scalar", {a, b}, {}, loc); }
Tensor sub(const Tensor& a, const Tensor& b, Loc loc) { return callOp1("aten.sub.Tensor", {a, b}, {}, loc); }
Tensor sub(const Tensor& a, double b, Loc loc) { return callOp1("aten.sub.Scalar", {a, b}, {}, loc); }
Tensor rsub(const Tensor& a, double b, Loc loc) { return callOp1("aten.rsub.Scalar", {a, b}, {}, loc); }
Tensor mul(const Tensor& a, const Tensor& b, Loc loc) { return callOp1("aten.mul.Tensor", {a, b}, {}, loc); }
Tensor mul(const Tensor& a, double b, Loc loc) { return callOp1("aten.mul.Scalar", {a, b}, {}, loc); }
Tensor div(const Tensor& a, const Tensor& b, Loc loc) { return callOp1("aten.div.Tensor", {a, b}, {}, loc); }
Tensor div(const Tensor& a, double b, Loc loc) { return callOp1("aten.div.Scalar", {a, b}, {}, loc); }
Tensor neg(const Tensor& x, Loc loc) { return callOp1("aten.neg.default", {x}, {}, loc); }
Tensor pow(const Tensor& x, double exponent, Loc loc) {
  return callOp1("aten.pow.Tensor_Scalar", {x, exponent}, {}, loc);
}
Tensor exp(const Tensor& x, Loc loc) { return callOp1("aten.exp.default", {x}, {}, loc); }
Tensor tanh(const Tensor& x, Loc loc) { return callOp1("aten.tanh.default", {x}, {}, loc); }
Tensor sigmoid(const Tensor& x, Loc loc) { return callOp1("aten.sigmoid.default", {x}, {}, loc); }
Tensor relu(const Tensor& x, Loc loc) { return callOp1("aten.relu.default", {x}, {}, loc); }

Tensor gelu(const Tensor& x, const char* approximate, Loc loc) {
  // F.gelu(x) records no approximate argument; only a non-default one is written out.
  if (std::string_view(approximate) == "none") return callOp1("aten.gelu.default", {x}, {}, loc);
  return callOp1("aten.gelu.default", {x}, {{"approximate", approximate}}, loc);
}

Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b, Loc loc) {
  return callOp1("aten.where.self", {condition, a, b}, {}, loc);
}

Tensor maskedFill(const Tensor& x, const Tensor& mask, double value, Loc loc) {
  return callOp1("aten.masked_fill.Scalar", {x, mask, value}, {}, loc);
}

Tensor tril(const Tensor& x, int64_t diagonal, Loc loc) {
  if (diagonal == 0) return callOp1("aten.tril.default", {x}, {}, loc);
  return callOp1("aten.tril.default", {x, diagonal}, {}, loc);
}

Tensor to(const Tensor& x, DType dtype, Loc loc) {
  if (x.dtype() == dtype) return x;
  return callOp1("aten._to_copy.default", {x}, {{"dtype", dtype}}, loc);
}

}  // namespace fathom::frontend
