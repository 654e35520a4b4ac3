// Pooling loops (see PoolingKernel.h): every output position of every plane, planes in
// parallel (a plane is written by one task only, so overlapping windows need no locks).
#include "engine/ops/cpu/PoolingKernel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

using Dims = std::array<int64_t, 3>;

// A tensor as planes of a [D, H, W] volume with element strides (2-d: D = 1). memoryOrder: the
// strides of a contiguous tensor of its sizes, for reading a dense tensor by its raw pointer.
struct Volume {
  int64_t planes = 1;
  Dims size{1, 1, 1}, stride{0, 0, 0};
  IntList lead, leadStrides;
  Volume(const Tensor& t, int spatial, bool memoryOrder = false) {
    const int64_t rank = t.dim(), first = rank - spatial;
    IntList strides(static_cast<size_t>(rank));
    for (int64_t d = rank - 1, step = 1; d >= 0; --d) {
      strides[d] = memoryOrder ? step : t.stride(d);
      step *= t.size(d);
    }
    for (int64_t d = 0; d < first; ++d) lead.push_back(t.size(d)), leadStrides.push_back(strides[d]), planes *= t.size(d);
    for (int d = 0; d < spatial; ++d) size[3 - spatial + d] = t.size(first + d), stride[3 - spatial + d] = strides[first + d];
  }
  int64_t offset(int64_t plane) const {
    int64_t off = 0;
    for (int64_t i = static_cast<int64_t>(lead.size()) - 1; i >= 0; --i) {
      off += (plane % lead[i]) * leadStrides[i];
      plane /= lead[i];
    }
    return off;
  }
  int64_t at(int64_t z, int64_t y, int64_t x) const { return z * stride[0] + y * stride[1] + x * stride[2]; }
  int64_t elements() const { return size[0] * size[1] * size[2]; }
};

// fn(plane, z, y, x) for every position of a `dims` volume in `planes` planes, planes in parallel.
template <class Fn>
void forEach(int64_t planes, const Dims& dims, int64_t grain, const Fn& fn) {
  parallelFor(planes, std::max<int64_t>(1, grain), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane)
      for (int64_t z = 0; z < dims[0]; ++z)
        for (int64_t y = 0; y < dims[1]; ++y)
          for (int64_t x = 0; x < dims[2]; ++x) fn(plane, z, y, x);
  });
}

// fn(z, y, x) over a window [begin, end) stepping `step` per dim, in row-major order (the order
// 1.13's loops sum and pick maxima in).
template <class Fn>
void forWindow(const Dims& begin, const Dims& end, const Dims& step, const Fn& fn) {
  for (int64_t z = begin[0]; z < end[0]; z += step[0])
    for (int64_t y = begin[1]; y < end[1]; y += step[1])
      for (int64_t x = begin[2]; x < end[2]; x += step[2]) fn(z, y, x);
}
constexpr Dims kUnitStep{1, 1, 1};

int64_t grainFor(int64_t perPlane) { return 16384 / std::max<int64_t>(perPlane, 1); }

// dst[z][y][x] += delta over a window of a plane, in the element type (16-bit types round each
// addition), as 1.13's backward loops add.
template <class T>
void addOver(T* dst, const Volume& v, const Dims& begin, const Dims& end, T delta) {
  using C = OpMath<T>;
  forWindow(begin, end, kUnitStep, [&](int64_t z, int64_t y, int64_t x) {
    T& d = dst[v.at(z, y, x)];
    d = static_cast<T>(static_cast<C>(d) + static_cast<C>(delta));
  });
}

template <class T>
void maxPoolTyped(const Tensor& input, const PoolWindow& w, const Tensor& out, const Tensor& indices) {
  using C = OpMath<T>;
  const Volume in(input, w.spatial), o(out, w.spatial);
  const T* x = input.dataAs<T>();
  T* y = out.dataAs<T>();
  int64_t* idx = indices.dataAs<int64_t>();
  forEach(o.planes, o.size, grainFor(o.elements()), [&](int64_t plane, int64_t oz, int64_t oy, int64_t ox) {
    const Dims at{oz, oy, ox};
    Dims begin{}, end{};
    for (size_t d = 0; d < 3; ++d) {
      begin[d] = at[d] * w.stride[d] - w.pad[d];
      end[d] = std::min(begin[d] + (w.kernel[d] - 1) * w.dilation[d] + 1, in.size[d]);
      while (begin[d] < 0) begin[d] += w.dilation[d];
    }
    const T* xp = x + in.offset(plane);
    const auto flat = [&](int64_t z, int64_t yy, int64_t xx) { return (z * in.size[1] + yy) * in.size[2] + xx; };
    int64_t best = flat(begin[0], begin[1], begin[2]);
    C maxval = -std::numeric_limits<C>::infinity();
    forWindow(begin, end, w.dilation, [&](int64_t z, int64_t iy, int64_t ix) {
      const C v = static_cast<C>(xp[in.at(z, iy, ix)]);
      if (v > maxval || std::isnan(v)) maxval = v, best = flat(z, iy, ix);
    });
    const int64_t pos = o.offset(plane) + o.at(oz, oy, ox);
    y[pos] = static_cast<T>(maxval);
    idx[pos] = best;
  });
}

template <class T>
void maxPoolBackwardTyped(const Tensor& gradOut, const Volume& ix, const int64_t* id, int spatial, const char* op,
                          const Tensor& gradInput) {
  using C = OpMath<T>;
  const Volume go(gradOut, spatial), gi(gradInput, spatial);
  const T* g = gradOut.dataAs<T>();
  T* out = gradInput.dataAs<T>();
  const int64_t hw = gi.size[1] * gi.size[2];
  std::string plane = std::to_string(gi.size[1]) + "x" + std::to_string(gi.size[2]);
  if (spatial == 3) plane = std::to_string(gi.size[0]) + "x" + plane;
  forEach(gi.planes, go.size, 1, [&](int64_t p, int64_t z, int64_t y, int64_t x) {
    const int64_t index = id[ix.offset(p) + ix.at(z, y, x)];
    if (index == -1) return;  // 1.13 skips it (no maximum recorded)
    FATHOM_CHECK(index >= 0 && index < gi.elements(), op, ": index ", index, " is out of range for an input plane of ", plane);
    T& dst = out[gi.offset(p) + gi.at(index / hw, index % hw / gi.size[2], index % gi.size[2])];
    dst = static_cast<T>(static_cast<C>(dst) + static_cast<C>(g[go.offset(p) + go.at(z, y, x)]));
  });
}

// The window of output position `at` of average pooling, per dim: [begin, end) clipped to the
// input, and the size of the window clipped to the padded input.
struct AvgWindow {
  Dims begin{}, end{};
  int64_t padded = 1, inside = 1;
  bool empty = false;
};
AvgWindow avgWindow(const Dims& at, const PoolWindow& w, const Dims& in) {
  AvgWindow a;
  for (size_t d = 0; d < 3; ++d) {
    const int64_t b = at[d] * w.stride[d] - w.pad[d], e = std::min(b + w.kernel[d], in[d] + w.pad[d]);
    a.padded *= e - b;
    a.begin[d] = std::max<int64_t>(b, 0), a.end[d] = std::min(e, in[d]);
    a.empty = a.empty || a.begin[d] >= a.end[d];
    a.inside *= a.end[d] - a.begin[d];
  }
  return a;
}
int64_t divisorOf(const AvgWindow& a, const AvgDivisor& d) {
  return d.override ? *d.override : d.includePad ? a.padded : a.inside;
}

template <class T>
void avgPoolTyped(const Tensor& input, const PoolWindow& w, const AvgDivisor& d, const Tensor& out) {
  using C = OpMath<T>;
  const Volume in(input, w.spatial), o(out, w.spatial);
  const T* x = input.dataAs<T>();
  T* y = out.dataAs<T>();
  forEach(o.planes, o.size, grainFor(o.elements()), [&](int64_t plane, int64_t oz, int64_t oy, int64_t ox) {
    const AvgWindow a = avgWindow({oz, oy, ox}, w, in.size);
    const int64_t pos = o.offset(plane) + o.at(oz, oy, ox);
    if (a.empty) {
      y[pos] = T(0);
      return;
    }
    const T* xp = x + in.offset(plane);
    C sum = 0;
    forWindow(a.begin, a.end, kUnitStep, [&](int64_t z, int64_t iy, int64_t ix) { sum += static_cast<C>(xp[in.at(z, iy, ix)]); });
    y[pos] = static_cast<T>(sum / static_cast<C>(divisorOf(a, d)));
  });
}

template <class T>
void avgPoolBackwardTyped(const Tensor& gradOut, const PoolWindow& w, const AvgDivisor& d, const Tensor& gradInput) {
  using C = OpMath<T>;
  const Volume go(gradOut, w.spatial), gi(gradInput, w.spatial);
  const T* g = gradOut.dataAs<T>();
  T* out = gradInput.dataAs<T>();
  forEach(gi.planes, go.size, 1, [&](int64_t plane, int64_t oz, int64_t oy, int64_t ox) {
    const AvgWindow a = avgWindow({oz, oy, ox}, w, gi.size);
    if (a.empty) return;
    const C grad = static_cast<C>(g[go.offset(plane) + go.at(oz, oy, ox)]);
    const T delta = static_cast<T>(grad / static_cast<C>(divisorOf(a, d)));
    addOver(out + gi.offset(plane), gi, a.begin, a.end, delta);
  });
}

// ATen's start_index / end_index, in float as 1.13 computes them.
int64_t startIndex(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(std::floor(static_cast<float>(a * c) / static_cast<float>(b)));
}
int64_t endIndex(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(std::ceil(static_cast<float>((a + 1) * c) / static_cast<float>(b)));
}

// The adaptive window of output position `at` of `out` positions over `in` inputs, per dim.
struct AdaptiveWindow {
  Dims begin{}, end{};
  int64_t size(size_t d) const { return end[d] - begin[d]; }
};
AdaptiveWindow adaptiveWindow(const Dims& at, const Dims& out, const Dims& in) {
  AdaptiveWindow a;
  for (size_t d = 0; d < 3; ++d) a.begin[d] = startIndex(at[d], out[d], in[d]), a.end[d] = endIndex(at[d], out[d], in[d]);
  return a;
}

// Acc: the type the sum and the quotients are kept in (T itself, or float for 16-bit T).
template <class T, class Acc>
void adaptiveTyped(const Tensor& input, int spatial, const Tensor& out) {
  using C = OpMath<T>;
  const Volume in(input, spatial), o(out, spatial);
  const T* x = input.dataAs<T>();
  T* y = out.dataAs<T>();
  forEach(o.planes, o.size, grainFor(in.elements()), [&](int64_t plane, int64_t oz, int64_t oy, int64_t ox) {
    const AdaptiveWindow a = adaptiveWindow({oz, oy, ox}, o.size, in.size);
    const T* xp = x + in.offset(plane);
    Acc sum = Acc(0);
    forWindow(a.begin, a.end, kUnitStep, [&](int64_t z, int64_t iy, int64_t ix) {
      sum = static_cast<Acc>(static_cast<C>(sum) + static_cast<C>(xp[in.at(z, iy, ix)]));
    });
    for (size_t d = 0; d < 3; ++d) sum = static_cast<Acc>(static_cast<C>(sum) / static_cast<C>(a.size(d)));
    y[o.offset(plane) + o.at(oz, oy, ox)] = static_cast<T>(sum);
  });
}

template <class T>
void adaptiveBackwardTyped(const Tensor& gradOut, int spatial, const Tensor& gradInput) {
  using C = OpMath<T>;
  const Volume go(gradOut, spatial), gi(gradInput, spatial);
  const T* g = gradOut.dataAs<T>();
  T* dx = gradInput.dataAs<T>();
  forEach(gi.planes, go.size, 1, [&](int64_t plane, int64_t oz, int64_t oy, int64_t ox) {
    const AdaptiveWindow a = adaptiveWindow({oz, oy, ox}, go.size, gi.size);
    T delta = g[go.offset(plane) + go.at(oz, oy, ox)];
    for (size_t d = 0; d < 3; ++d) delta = static_cast<T>(static_cast<C>(delta) / static_cast<C>(a.size(d)));
    addOver(dx + gi.offset(plane), gi, a.begin, a.end, delta);
  });
}

// fn(tag) for the floating dtypes (and int64 when allowInt64); other dtypes are the meta's to reject.
template <class Fn>
void dispatchPooling(DType t, bool allowInt64, Fn&& fn) {
  dispatchDType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>> || std::is_same_v<T, int64_t>) {
      if (std::is_floating_point_v<OpMath<T>> || allowInt64) fn(tag);
    }
  });
}

// grad_output (and indices) must reach every plane of grad_input: 1.13 would read past them.
void checkPlanes(int64_t have, int64_t need, const char* what) {
  FATHOM_CHECK(have >= need, "pooling backward: ", what, " has ", have, " planes but the input has ", need);
}

}  // namespace

void maxPoolForward(const Tensor& input, const PoolWindow& w, const Tensor& out, const Tensor& indices) {
  dispatchPooling(out.dtype(), false, [&](auto tag) { maxPoolTyped<typename decltype(tag)::type>(input, w, out, indices); });
}

void maxPoolBackward(const Tensor& gradOut, const Tensor& indices, int spatial, bool indicesInMemoryOrder,
                     const char* op, const Tensor& gradInput) {
  const Volume ix(indices, spatial, indicesInMemoryOrder);
  checkPlanes(Volume(gradOut, spatial).planes, Volume(gradInput, spatial).planes, "grad_output");
  checkPlanes(ix.planes, Volume(gradInput, spatial).planes, "indices");
  dispatchPooling(gradInput.dtype(), false, [&](auto tag) {
    maxPoolBackwardTyped<typename decltype(tag)::type>(gradOut, ix, indices.dataAs<int64_t>(), spatial, op, gradInput);
  });
}

void avgPoolForward(const Tensor& input, const PoolWindow& w, const AvgDivisor& d, const Tensor& out) {
  dispatchPooling(out.dtype(), true, [&](auto tag) { avgPoolTyped<typename decltype(tag)::type>(input, w, d, out); });
}

void avgPoolBackward(const Tensor& gradOut, const PoolWindow& w, const AvgDivisor& d, const Tensor& gradInput) {
  checkPlanes(Volume(gradOut, w.spatial).planes, Volume(gradInput, w.spatial).planes, "grad_output");
  dispatchPooling(gradInput.dtype(), true, [&](auto tag) {
    avgPoolBackwardTyped<typename decltype(tag)::type>(gradOut, w, d, gradInput);
  });
}

void adaptiveAvgPoolForward(const Tensor& input, int spatial, bool sumInElementType, const Tensor& out) {
  dispatchPooling(out.dtype(), false, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (sumInElementType) adaptiveTyped<T, T>(input, spatial, out);
    else adaptiveTyped<T, OpMath<T>>(input, spatial, out);
  });
}

void adaptiveAvgPoolBackward(const Tensor& gradOut, int spatial, const Tensor& gradInput) {
  checkPlanes(Volume(gradOut, spatial).planes, Volume(gradInput, spatial).planes, "grad_output");
  dispatchPooling(gradInput.dtype(), false, [&](auto tag) {
    adaptiveBackwardTyped<typename decltype(tag)::type>(gradOut, spatial, gradInput);
  });
}

}  // namespace fathom
