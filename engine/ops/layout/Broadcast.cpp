// Broadcasting rules (see Broadcast.h). The decision order mirrors ATen's so symbolic traces
// record the same questions PyTorch's symbolic tracing asks.
#include "engine/ops/layout/Broadcast.h"

#include <sstream>

#include "engine/core/Error.h"

namespace fathom {

std::string sizesStr(const SymIntList& sizes) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < sizes.size(); ++i) os << (i ? ", " : "") << sizes[i].str();
  os << "]";
  return os.str();
}

SymIntList broadcastShapes(const SymIntList& a, const SymIntList& b, std::string_view aName, std::string_view bName) {
  const int64_t na = static_cast<int64_t>(a.size()), nb = static_cast<int64_t>(b.size());
  const int64_t n = std::max(na, nb);
  SymIntList out(static_cast<size_t>(n));
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t offset = n - 1 - i, da = na - 1 - offset, db = nb - 1 - offset;
    const SymInt sa = da >= 0 ? a[da] : SymInt(1);
    const SymInt sb = db >= 0 ? b[db] : SymInt(1);
    // Only symbolic sizes record a reason; concrete ones skip building it.
    const std::string reason =
        sa.isSymbolic() || sb.isSymbolic()
            ? detail::concat("broadcast: dim ", da, " of ", aName, " (", sa.str(), ") vs dim ", db, " of ", bName, " (", sb.str(), ")")
            : std::string();
    // 1s map to the other size (even 0), as in ATen's infer_size.
    if (symEq(sa, 1, reason)) {
      out[i] = sb;
    } else if (symEq(sb, 1, reason) || symEq(sa, sb, reason)) {
      out[i] = sa;
    } else {
      throwOpError(detail::concat("The size of tensor a (", sa.str(), ") must match the size of tensor b (",
                                  sb.str(), ") at non-singleton dimension ", i));
    }
  }
  return out;
}

Geometry expandGeometry(const TensorMeta& t, const SymIntList& sizes) {
  const int64_t ndim = static_cast<int64_t>(sizes.size()), tdim = t.dim();
  FATHOM_CHECK(ndim >= tdim, "expand(", dtypeName(t.dtype), "{", sizesStr(t.sizes), "}, size=",
               sizesStr(sizes), "): the number of sizes provided (", ndim,
               ") must be greater or equal to the number of dimensions in the tensor (", tdim, ")");
  Geometry g{SymIntList(ndim), SymIntList(ndim)};
  if (tdim == 0) {  // a zero-dim tensor expands to anything, with all strides 0
    for (int64_t i = 0; i < ndim; ++i) {
      FATHOM_CHECK(!symLt(sizes[i], 0, "expand: negative size"), "expand: invalid size ", sizes[i].str());
      g.sizes[i] = sizes[i];
      g.strides[i] = 0;
    }
    return g;
  }
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t dim = tdim - 1 - (ndim - 1 - i);
    SymInt size = dim >= 0 ? t.sizes[dim] : SymInt(1);
    SymInt stride = dim >= 0 ? t.strides[dim] : g.sizes[i + 1] * g.strides[i + 1];
    SymInt target = sizes[i];
    if (auto c = target.maybeConcrete(); c && *c == -1) {
      FATHOM_CHECK(dim >= 0, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
      target = size;
    }
    if (!symEq(size, target, "expand: size of dim " + std::to_string(i))) {
      FATHOM_CHECK(symEq(size, 1, "expand: broadcast of dim " + std::to_string(i)),
                   "The expanded size of the tensor (", target.str(), ") must match the existing size (",
                   size.str(), ") at non-singleton dimension ", i, ".  Target sizes: ", sizesStr(sizes),
                   ".  Tensor sizes: ", sizesStr(t.sizes));
      FATHOM_CHECK(!symLt(target, 0, "expand: negative size"), "expand: invalid size ", target.str());
      size = target;
      stride = 0;
    }
    g.sizes[i] = size;
    g.strides[i] = stride;
  }
  return g;
}

}  // namespace fathom
