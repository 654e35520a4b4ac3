#include "engine/ops/cpu/GridSampleKernel.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "engine/core/Parallel.h"

namespace fathom {
namespace {

// Lanes of one AVX2 vector, as 1.13's kernel groups output pixels.
template <class T>
constexpr int64_t kLanes = static_cast<int64_t>(32 / sizeof(T));

// at::geometry_is_contiguous over (size, stride) pairs, outermost first.
bool geometryContiguous(const std::vector<std::pair<int64_t, int64_t>>& dims) {
  int64_t expected = 1;
  bool contiguous = true;
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
    if (it->first == 0) return true;
    if (contiguous) {
      if (it->first != 1 && it->second != expected) contiguous = false;
      expected *= it->first;
    }
  }
  return contiguous;
}

// The vectors 1.13's grid_sample_2d_grid_slice_iterator runs, as [first, first + len) of the
// flattened output plane: along the whole plane when the grid lays it out flat, else row by row.
std::vector<std::pair<int64_t, int64_t>> vectorsOf(const Tensor& grid, int64_t lanes) {
  const int64_t h = grid.size(1), w = grid.size(2), sH = grid.stride(1), sW = grid.stride(2), sC = grid.stride(3);
  const bool flat = geometryContiguous({{h, sH}, {w, sW}, {2, sC}}) ||
                    ((sW == 1 || w == 1) && geometryContiguous({{h, sH}, {w, sW}}));
  std::vector<std::pair<int64_t, int64_t>> out;
  const auto line = [&](int64_t base, int64_t n) {
    for (int64_t i = 0; i < n; i += lanes) out.emplace_back(base + i, std::min(lanes, n - i));
  };
  if (flat) line(0, h * w);
  else for (int64_t y = 0; y < h; ++y) line(y * w, w);
  return out;
}

template <class T>
using I = GridInt<T>;

template <class T>
I<T> plusOne(I<T> v) {  // vector integer addition wraps
  using U = std::make_unsigned_t<I<T>>;
  return static_cast<I<T>>(static_cast<U>(v) + U(1));
}

// One sample of the input [C, H, W] (any strides) and the grid's axes over it. Every read is
// bounds-checked: border and reflection padding keep coordinates inside (1.13 reads them
// unchecked), so only zeros padding ever masks a read, and a coordinate 1.13 would read outside
// the input with reads nothing here.
template <class T>
struct Sampler {
  const T* in;
  int64_t C, H, W, sC, sH, sW;
  GridAxis<T> ax, ay;
  GridSampleMode mode;

  Sampler(const Tensor& input, int64_t n, const GridSampleMode& m)
      : in(input.dataAs<T>() + n * input.stride(0)), C(input.size(1)), H(input.size(2)), W(input.size(3)),
        sC(input.stride(1)), sH(input.stride(2)), sW(input.stride(3)), ax(W, m.alignCorners, m.padding),
        ay(H, m.alignCorners, m.padding), mode(m) {}

  bool insideX(I<T> x) const { return x > -1 && x < W; }
  bool insideY(I<T> y) const { return y > -1 && y < H; }
  T at(int64_t c, int64_t x, int64_t y, bool mask) const { return mask ? in[c * sC + y * sH + x * sW] : T(0); }

  // A bicubic tap at float coordinates: padded, truncated, masked (get_value_bounded).
  struct Tap {
    int64_t x, y;
    bool mask;
  };
  Tap tap(T x, T y) const {
    const I<T> ix = toGridInt(ax.pad(x)), iy = toGridInt(ay.pad(y));
    return {ix, iy, insideX(ix) && insideY(iy)};
  }
};

// A bilinear point: distances to its cell's sides, the corners nw, ne, sw, se with their weights
// and in-bounds masks (compute_interp_params).
template <class T>
struct Bilinear {
  T n, s, w, e;
  std::array<T, 4> weight;
  std::array<int64_t, 4> x, y;
  std::array<bool, 4> mask;

  Bilinear(const Sampler<T>& sm, T px, T py) {
    const T xw = std::floor(px), yn = std::floor(py);
    w = px - xw, e = T(1) - w, n = py - yn, s = T(1) - n;
    weight = {s * e, s * w, n * e, n * w};
    const I<T> ixw = toGridInt(xw), iyn = toGridInt(yn), ixe = plusOne<T>(ixw), iys = plusOne<T>(iyn);
    const bool wm = sm.insideX(ixw), nm = sm.insideY(iyn), em = sm.insideX(ixe), sm2 = sm.insideY(iys);
    mask = {wm && nm, em && nm, wm && sm2, em && sm2};
    x = {ixw, ixe, ixw, ixe};
    y = {iyn, iyn, iys, iys};
  }
  // nw * v0 + ne * v1 + sw * v2 + se * v3 with GCC's fused multiply-adds.
  T interpolate(const std::array<T, 4>& v) const {
    return std::fma(v[3], weight[3], std::fma(v[2], weight[2], std::fma(v[1], weight[1], v[0] * weight[0])));
  }
};

// The nearest pixel and whether it is read.
template <class T>
std::pair<std::array<int64_t, 2>, bool> nearest(const Sampler<T>& sm, T gx, T gy) {
  const I<T> ix = toGridInt(std::nearbyint(sm.ax.apply(gx))), iy = toGridInt(std::nearbyint(sm.ay.apply(gy)));
  return {{ix, iy}, sm.insideX(ix) && sm.insideY(iy)};
}

// c0 * v0 + c1 * v1 + c2 * v2 + c3 * v3 as GCC fused 1.13's two sums (found by comparing bits):
// along a row, whose terms gather input values, only the first product fuses; across the rows,
// every product after the first.
template <class T>
T cubicRowSum(const T (&c)[4], const std::array<T, 4>& v) {
  return std::fma(c[0], v[0], c[1] * v[1]) + c[2] * v[2] + c[3] * v[3];
}
template <class T>
T cubicColumnSum(const T (&c)[4], const std::array<T, 4>& v) {
  return std::fma(c[3], v[3], std::fma(c[2], v[2], std::fma(c[1], v[1], c[0] * v[0])));
}

template <class T>
struct Bicubic {
  T ix, iy;
  T cx[4], cy[4];
  Bicubic(const Sampler<T>& sm, T gx, T gy) {
    const T x = sm.ax.unnormalize(gx), y = sm.ay.unnormalize(gy);
    ix = std::floor(x), iy = std::floor(y);
    cubicCoefficients(cx, x - ix);
    cubicCoefficients(cy, y - iy);
  }
  typename Sampler<T>::Tap tap(const Sampler<T>& sm, int i, int j) const {
    return sm.tap(ix + static_cast<T>(-1 + i), iy + static_cast<T>(-1 + j));
  }
};

template <class T>
void forwardSample(const Sampler<T>& sm, const Tensor& grid, int64_t n, T* out) {
  const int64_t oh = grid.size(1), ow = grid.size(2), plane = oh * ow;
  const T* g = grid.dataAs<T>() + n * grid.stride(0);
  for (int64_t p = 0; p < plane; ++p) {
    const T* gp = g + (p / ow) * grid.stride(1) + (p % ow) * grid.stride(2);
    const T gx = gp[0], gy = gp[grid.stride(3)];
    T* o = out + p;
    switch (sm.mode.interp) {
      case GridInterp::Bilinear: {
        const Bilinear<T> b(sm, sm.ax.apply(gx), sm.ay.apply(gy));
        for (int64_t c = 0; c < sm.C; ++c) {
          std::array<T, 4> v;
          for (int k = 0; k < 4; ++k) v[k] = sm.at(c, b.x[k], b.y[k], b.mask[k]);
          o[c * plane] = b.interpolate(v);
        }
        break;
      }
      case GridInterp::Nearest: {
        const auto [xy, mask] = nearest(sm, gx, gy);
        for (int64_t c = 0; c < sm.C; ++c) o[c * plane] = sm.at(c, xy[0], xy[1], mask);
        break;
      }
      case GridInterp::Bicubic: {
        const Bicubic<T> b(sm, gx, gy);
        for (int64_t c = 0; c < sm.C; ++c) {
          std::array<T, 4> rows;
          for (int j = 0; j < 4; ++j) {
            std::array<T, 4> v;
            for (int i = 0; i < 4; ++i) {
              const auto t = b.tap(sm, i, j);
              v[i] = sm.at(c, t.x, t.y, t.mask);
            }
            rows[j] = cubicRowSum(b.cx, v);
          }
          o[c * plane] = cubicColumnSum(b.cy, rows);
        }
        break;
      }
    }
  }
}

// The backward of one sample, one vector of output pixels at a time (see the header).
template <class T>
struct BackwardSample {
  const Sampler<T>& sm;
  const Tensor& grid;
  const T* gOut;  // this sample's grad_output
  int64_t gsC, gsH, gsW, ow;
  T* gIn;         // this sample's grad_input [C, H, W], contiguous, or null
  T* gGrid;       // this sample's grad_grid [H_out * W_out, 2]
  const T* g;     // this sample's grid

  T gradAt(int64_t c, int64_t p) const { return gOut[c * gsC + (p / ow) * gsH + (p % ow) * gsW]; }
  std::pair<T, T> gridAt(int64_t p) const {
    const T* gp = g + (p / ow) * grid.stride(1) + (p % ow) * grid.stride(2);
    return {gp[0], gp[grid.stride(3)]};
  }
  void add(int64_t c, int64_t x, int64_t y, T v) const { gIn[(c * sm.H + y) * sm.W + x] += v; }

  void bilinear(int64_t first, int64_t len) const {
    std::vector<Bilinear<T>> pts;
    std::vector<T> gx(len, T(0)), gy(len, T(0)), mx(len), my(len), go(len);
    for (int64_t l = 0; l < len; ++l) {
      const auto [x, y] = gridAt(first + l);
      const auto [px, gxm] = sm.ax.applyGetGrad(x);
      const auto [py, gym] = sm.ay.applyGetGrad(y);
      pts.emplace_back(sm, px, py);
      mx[l] = gxm, my[l] = gym;
    }
    for (int64_t c = 0; c < sm.C; ++c) {
      for (int64_t l = 0; l < len; ++l) go[l] = gradAt(c, first + l);
      if (gIn)
        for (int k = 0; k < 4; ++k)
          for (int64_t l = 0; l < len; ++l)
            if (pts[l].mask[k]) add(c, pts[l].x[k], pts[l].y[k], pts[l].weight[k] * go[l]);
      for (int64_t l = 0; l < len; ++l) {
        const Bilinear<T>& b = pts[l];
        std::array<T, 4> v;
        for (int k = 0; k < 4; ++k) v[k] = sm.at(c, b.x[k], b.y[k], b.mask[k]);
        gx[l] = std::fma(std::fma(v[3] - v[2], b.n, (v[1] - v[0]) * b.s), go[l], gx[l]);
        gy[l] = std::fma(std::fma(v[3] - v[1], b.w, (v[2] - v[0]) * b.e), go[l], gy[l]);
      }
    }
    for (int64_t l = 0; l < len; ++l) {
      gGrid[2 * (first + l)] = gx[l] * mx[l];
      gGrid[2 * (first + l) + 1] = gy[l] * my[l];
    }
  }

  void nearestPixels(int64_t first, int64_t len) const {
    for (int64_t l = 0; l < len; ++l) gGrid[2 * (first + l)] = gGrid[2 * (first + l) + 1] = T(0);
    if (!gIn) return;
    std::vector<std::pair<std::array<int64_t, 2>, bool>> pts;
    for (int64_t l = 0; l < len; ++l) {
      const auto [x, y] = gridAt(first + l);
      pts.push_back(nearest(sm, x, y));
    }
    for (int64_t c = 0; c < sm.C; ++c)
      for (int64_t l = 0; l < len; ++l)
        if (pts[l].second) add(c, pts[l].first[0], pts[l].first[1], gradAt(c, first + l));
  }

  void bicubic(int64_t first, int64_t len) const {
    std::vector<Bicubic<T>> pts;
    std::vector<std::array<T, 4>> gcx(len), gcy(len);
    std::vector<T> gx(len, T(0)), gy(len, T(0)), go(len);
    for (int64_t l = 0; l < len; ++l) {
      const auto [x, y] = gridAt(first + l);
      pts.emplace_back(sm, x, y);
      T cx[4], cy[4];
      cubicCoefficientsGrad(cx, sm.ax.unnormalize(x) - pts[l].ix);
      cubicCoefficientsGrad(cy, sm.ay.unnormalize(y) - pts[l].iy);
      std::copy(cx, cx + 4, gcx[l].begin());
      std::copy(cy, cy + 4, gcy[l].begin());
    }
    for (int64_t c = 0; c < sm.C; ++c) {
      for (int64_t l = 0; l < len; ++l) go[l] = gradAt(c, first + l);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          if (gIn)
            for (int64_t l = 0; l < len; ++l) {
              const auto t = pts[l].tap(sm, i, j);
              if (t.mask) add(c, t.x, t.y, go[l] * pts[l].cx[i] * pts[l].cy[j]);
            }
          for (int64_t l = 0; l < len; ++l) {
            const Bicubic<T>& b = pts[l];
            const auto t = b.tap(sm, i, j);
            const T val = sm.at(c, t.x, t.y, t.mask);
            gx[l] = std::fma(-(val * go[l] * gcx[l][i]), b.cy[j], gx[l]);
            gy[l] = std::fma(-(val * go[l] * gcy[l][j]), b.cx[i], gy[l]);
          }
        }
    }
    // Bicubic differentiates the un-normalization only: each tap is padded on its own.
    for (int64_t l = 0; l < len; ++l) {
      gGrid[2 * (first + l)] = gx[l] * sm.ax.scale;
      gGrid[2 * (first + l) + 1] = gy[l] * sm.ay.scale;
    }
  }
};

}  // namespace

void gridSample2d(const Tensor& input, const Tensor& grid, const GridSampleMode& mode, const Tensor& out) {
  if (out.numel() == 0) return;
  const auto run = [&](auto tag) {
    using T = decltype(tag);
    const int64_t sampleSize = out.numel() / out.size(0);
    parallelFor(input.size(0), 1, [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n)
        forwardSample<T>(Sampler<T>(input, n, mode), grid, n, out.dataAs<T>() + n * sampleSize);
    });
  };
  if (input.dtype() == DType::Float64) run(double{});
  else run(float{});
}

void gridSample2dBackward(const Tensor& gradOut, const Tensor& input, const Tensor& grid, const GridSampleMode& mode,
                          const Tensor* gradInput, const Tensor& gradGrid) {
  if (gradOut.numel() == 0) return;  // both results stay zero, as 1.13 zeroes grad_grid
  const auto run = [&](auto tag) {
    using T = decltype(tag);
    const int64_t inSize = input.size(1) * input.size(2) * input.size(3), gridSize = grid.size(1) * grid.size(2) * 2;
    const auto vectors = vectorsOf(grid, kLanes<T>);
    parallelFor(input.size(0), 1, [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n) {
        const Sampler<T> sm(input, n, mode);
        const BackwardSample<T> bw{sm,
                                   grid,
                                   gradOut.dataAs<T>() + n * gradOut.stride(0),
                                   gradOut.stride(1),
                                   gradOut.stride(2),
                                   gradOut.stride(3),
                                   grid.size(2),
                                   gradInput ? gradInput->dataAs<T>() + n * inSize : nullptr,
                                   gradGrid.dataAs<T>() + n * gridSize,
                                   grid.dataAs<T>() + n * grid.stride(0)};
        for (const auto& [first, len] : vectors) {
          switch (mode.interp) {
            case GridInterp::Bilinear: bw.bilinear(first, len); break;
            case GridInterp::Nearest: bw.nearestPixels(first, len); break;
            case GridInterp::Bicubic: bw.bicubic(first, len); break;
          }
        }
      }
    });
  };
  if (input.dtype() == DType::Float64) run(double{});
  else run(float{});
}

}  // namespace fathom
