// Scaled dot-product attention as torch 2.x's CPU flash-attention ops, which AOT graphs of
// HuggingFace models hold (F.scaled_dot_product_attention on CPU): there is no torch 1.13
// behaviour to be exact to, so layouts follow the 2.x kernels (aten/src/ATen/native/transformers)
// and values are the attention math in the accumulate type (float for float32/bfloat16/half).
//
//   _scaled_dot_product_flash_attention_for_cpu(q [B,H,L,E], k [B,H,S,E], v [B,H,S,Ev], dropout_p,
//       is_causal, *, attn_mask [L,S] or 4-d broadcastable, scale) -> (out [B,H,L,Ev], logsumexp [B,H,L])
//     s = q.k * scale + mask (is_causal: keys after the query's position are -inf),
//     out = softmax(s) v, logsumexp = log(sum(exp(s))).
//     out: allocated like q when Ev == E (empty_like keeps a dense q's strides), else as
//     [B,L,H,Ev] transposed; logsumexp: [B,L,H] transposed, in the accumulate type.
//   ..._backward(grad_out, q, k, v, out, logsumexp, dropout_p, is_causal, *, attn_mask, scale)
//       -> (grad_q, grad_k, grad_v), each zeros of [B,L,H,*] transposed:
//     p = exp(s - logsumexp), dv = p^T dO, ds = p (dO v^T - rowsum(dO out)), dq = scale ds k,
//     dk = scale ds^T q.
// The CPU flash kernel rounds its blocked online softmax differently than this direct loop; the
// results agree within float rounding (fathom run's accuracy rule judges them), never in layout.
// dropout_p must be 0: a dropped attention weight is Fathom's own draw, not PyTorch's.
#include <cmath>
#include <limits>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

constexpr const char* kOp = "scaled_dot_product_attention_flash_attention";

struct Dims {
  SymInt b, h, l, s, e, ev;
};

// [d0, d1, d2, d3] allocated as [d0, d2, d1, d3] contiguous, then transposed back.
SymIntList transposedStrides(const SymInt& d1, const SymInt& d2, const SymInt& d3) {
  return {d2 * d1 * d3, d3, d1 * d3, 1};
}

Dims checkInputs(const ValueList& a, size_t q, size_t maskPos, size_t dropoutPos) {
  const TensorMeta &query = metaArg(a, q), &key = metaArg(a, q + 1), &value = metaArg(a, q + 2);
  FATHOM_CHECK(query.dim() == 4 && key.dim() == 4 && value.dim() == 4, kOp,
               ": Accept only 4 dims inputs shape of {B, H, T, K}");
  FATHOM_CHECK(query.dtype == key.dtype && query.dtype == value.dtype, kOp, ": Q/K/V should have the same data type");
  FATHOM_CHECK(isFloating(query.dtype), kOp, ": Q/K/V should be floating point");
  FATHOM_CHECK(symEq(query.sizes[0], key.sizes[0], "sdpa batch") && symEq(query.sizes[0], value.sizes[0], "sdpa batch") &&
                   symEq(query.sizes[1], key.sizes[1], "sdpa heads") && symEq(query.sizes[1], value.sizes[1], "sdpa heads") &&
                   symEq(key.sizes[2], value.sizes[2], "sdpa keys") && symEq(query.sizes[3], key.sizes[3], "sdpa head size"),
               kOp, ": Q/K/V should have matching batch, head and sequence sizes");
  FATHOM_CHECK(a.at(dropoutPos).toDouble() == 0.0, kOp,
               ": dropout_p > 0 is not supported (its draws would be Fathom's, not PyTorch's)");
  if (!a.at(maskPos).isNone()) {
    const TensorMeta& mask = metaArg(a, maskPos);
    FATHOM_CHECK(mask.dtype == DType::Float32 || mask.dtype == query.dtype, kOp,
                 ": Attention mask is the same data type as query");
    FATHOM_CHECK(mask.dim() == 2 || mask.dim() == 4, kOp, ": Attention mask dim in {2, 4}");
  }
  return {query.sizes[0], query.sizes[1], query.sizes[2], key.sizes[2], query.sizes[3], value.sizes[3]};
}

DType accumulateType(DType t) { return t == DType::Float64 ? DType::Float64 : DType::Float32; }

ValueList forwardMeta(const ValueList& a) {
  const Dims d = checkInputs(a, 0, 5, 3);
  const TensorMeta& query = metaArg(a, 0);
  SymIntList outSizes = {d.b, d.h, d.l, d.ev};
  const bool likeQuery = symEq(d.ev, d.e, "sdpa value head size");
  SymIntList outStrides = likeQuery ? likeStrides(query, std::nullopt) : transposedStrides(d.h, d.l, d.ev);
  TensorMeta out = freshLike(query, query.dtype, std::move(outStrides));
  out.sizes = std::move(outSizes);
  TensorMeta lse = freshLike(query, accumulateType(query.dtype), SymIntList{d.l * d.h, 1, d.h});
  lse.sizes = {d.b, d.h, d.l};
  return {out, lse};
}

ValueList backwardMeta(const ValueList& a) {
  const Dims d = checkInputs(a, 1, 8, 6);
  const TensorMeta &query = metaArg(a, 1), &key = metaArg(a, 2), &value = metaArg(a, 3);
  TensorMeta gq = freshLike(query, query.dtype, transposedStrides(d.h, d.l, d.e));
  TensorMeta gk = freshLike(key, key.dtype, transposedStrides(d.h, d.s, d.e));
  TensorMeta gv = freshLike(value, value.dtype, transposedStrides(d.h, d.s, d.ev));
  return {gq, gk, gv};
}

// A tensor's values in logical row-major order, in the accumulate type.
template <class Acc>
std::vector<Acc> values(const Tensor& t) {
  std::vector<Acc> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[static_cast<size_t>(i)] = static_cast<Acc>(t.atLinear(i));
  return out;
}

template <class Acc>
void store(Tensor& t, const std::vector<Acc>& v) {
  for (int64_t i = 0; i < t.numel(); ++i) t.setLinear(i, static_cast<double>(v[static_cast<size_t>(i)]));
}

struct Attention {
  int64_t b, h, l, s, e, ev;
  bool causal;
  const Tensor* mask;  // [L, S] or 4-d, broadcast over its size-1 dims

  double maskAt(int64_t bi, int64_t hi, int64_t i, int64_t j) const {
    const Tensor& m = *mask;
    IntList index;
    if (m.dim() == 4) index = {m.size(0) == 1 ? 0 : bi, m.size(1) == 1 ? 0 : hi};
    index.push_back(m.size(m.dim() - 2) == 1 ? 0 : i);
    index.push_back(m.size(m.dim() - 1) == 1 ? 0 : j);
    return m.at(index);
  }

  // Scores of query row i of (bi, hi) against every key: scaled, masked, causal-masked.
  template <class Acc>
  void scores(std::vector<Acc>& out, const Acc* q, const Acc* k, Acc scale, int64_t bi, int64_t hi, int64_t i) const {
    for (int64_t j = 0; j < s; ++j) {
      Acc dot = 0;
      for (int64_t x = 0; x < e; ++x) dot += q[i * e + x] * k[j * e + x];
      Acc v = dot * scale;
      if (mask) v += static_cast<Acc>(maskAt(bi, hi, i, j));
      if (causal && j > i) v = -std::numeric_limits<Acc>::infinity();
      out[static_cast<size_t>(j)] = v;
    }
  }
};

Attention attentionOf(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* mask, bool causal) {
  return {q.size(0), q.size(1), q.size(2), k.size(2), q.size(3), v.size(3), causal, mask};
}

template <class Acc>
Acc scaleOf(const Value& scale, int64_t headSize) {
  return static_cast<Acc>(scale.isNone() ? 1.0 / std::sqrt(static_cast<double>(headSize)) : scale.toDouble());
}

template <class Acc>
void attentionForward(Tensor& out, Tensor& lse, const Tensor& query, const Tensor& key, const Tensor& value,
                      const Attention& d, const Value& scaleArg) {
  const Acc scale = scaleOf<Acc>(scaleArg, d.e);
  const std::vector<Acc> q = values<Acc>(query), k = values<Acc>(key), v = values<Acc>(value);
  std::vector<Acc> o(static_cast<size_t>(out.numel())), l(static_cast<size_t>(lse.numel())), s(static_cast<size_t>(d.s));
  for (int64_t bh = 0; bh < d.b * d.h; ++bh) {
    const Acc *qh = q.data() + bh * d.l * d.e, *kh = k.data() + bh * d.s * d.e, *vh = v.data() + bh * d.s * d.ev;
    for (int64_t i = 0; i < d.l; ++i) {
      d.scores(s, qh, kh, scale, bh / d.h, bh % d.h, i);
      Acc m = -std::numeric_limits<Acc>::infinity();
      for (Acc x : s) m = std::max(m, x);
      Acc sum = 0;
      Acc* row = o.data() + (bh * d.l + i) * d.ev;
      for (int64_t j = 0; j < d.s; ++j) {
        const Acc p = std::exp(s[static_cast<size_t>(j)] - m);
        sum += p;
        for (int64_t x = 0; x < d.ev; ++x) row[x] += p * vh[j * d.ev + x];
      }
      for (int64_t x = 0; x < d.ev; ++x) row[x] /= sum;
      l[static_cast<size_t>(bh * d.l + i)] = m + std::log(sum);
    }
  }
  store(out, o);
  store(lse, l);
}

template <class Acc>
void attentionBackward(Tensor& gq, Tensor& gk, Tensor& gv, const Tensor& gradOut, const Tensor& query, const Tensor& key,
                       const Tensor& value, const Tensor& output, const Tensor& logsumexp, const Attention& d,
                       const Value& scaleArg) {
  const Acc scale = scaleOf<Acc>(scaleArg, d.e);
  const std::vector<Acc> go = values<Acc>(gradOut), q = values<Acc>(query), k = values<Acc>(key), v = values<Acc>(value);
  const std::vector<Acc> out = values<Acc>(output), lse = values<Acc>(logsumexp);
  std::vector<Acc> dq(q.size()), dk(k.size()), dv(v.size()), s(static_cast<size_t>(d.s));
  for (int64_t bh = 0; bh < d.b * d.h; ++bh) {
    const Acc *qh = q.data() + bh * d.l * d.e, *kh = k.data() + bh * d.s * d.e, *vh = v.data() + bh * d.s * d.ev;
    Acc *dqh = dq.data() + bh * d.l * d.e, *dkh = dk.data() + bh * d.s * d.e, *dvh = dv.data() + bh * d.s * d.ev;
    for (int64_t i = 0; i < d.l; ++i) {
      d.scores(s, qh, kh, scale, bh / d.h, bh % d.h, i);
      const Acc* g = go.data() + (bh * d.l + i) * d.ev;
      const Acc* o = out.data() + (bh * d.l + i) * d.ev;
      Acc rowDot = 0;  // rowsum(dO * out)
      for (int64_t x = 0; x < d.ev; ++x) rowDot += g[x] * o[x];
      for (int64_t j = 0; j < d.s; ++j) {
        const Acc p = std::exp(s[static_cast<size_t>(j)] - lse[static_cast<size_t>(bh * d.l + i)]);
        Acc dp = 0;
        for (int64_t x = 0; x < d.ev; ++x) {
          dvh[j * d.ev + x] += p * g[x];
          dp += g[x] * vh[j * d.ev + x];
        }
        const Acc ds = p * (dp - rowDot) * scale;
        for (int64_t x = 0; x < d.e; ++x) {
          dqh[i * d.e + x] += ds * kh[j * d.e + x];
          dkh[j * d.e + x] += ds * qh[i * d.e + x];
        }
      }
    }
  }
  store(gq, dq);
  store(gk, dk);
  store(gv, dv);
}

const Tensor* maskArg(const ValueList& a, size_t pos) { return a.at(pos).isNone() ? nullptr : &tensorArg(a, pos); }

ValueList forwardKernel(const ValueList& a) {
  const ValueList metas = forwardMeta(metaArgs(a));
  Tensor out = allocateTensor(metas[0].as<TensorMeta>()), lse = allocateTensor(metas[1].as<TensorMeta>());
  const Tensor &q = tensorArg(a, 0), &k = tensorArg(a, 1), &v = tensorArg(a, 2);
  const Attention d = attentionOf(q, k, v, maskArg(a, 5), boolArg(a, 4));
  if (q.dtype() == DType::Float64) attentionForward<double>(out, lse, q, k, v, d, a.at(6));
  else attentionForward<float>(out, lse, q, k, v, d, a.at(6));
  return {out, lse};
}

ValueList backwardKernel(const ValueList& a) {
  const ValueList metas = backwardMeta(metaArgs(a));
  Tensor gq = allocateTensor(metas[0].as<TensorMeta>()), gk = allocateTensor(metas[1].as<TensorMeta>()),
         gv = allocateTensor(metas[2].as<TensorMeta>());
  const Tensor &go = tensorArg(a, 0), &q = tensorArg(a, 1), &k = tensorArg(a, 2), &v = tensorArg(a, 3);
  const Attention d = attentionOf(q, k, v, maskArg(a, 8), boolArg(a, 7));
  if (q.dtype() == DType::Float64)
    attentionBackward<double>(gq, gk, gv, go, q, k, v, tensorArg(a, 4), tensorArg(a, 5), d, a.at(9));
  else
    attentionBackward<float>(gq, gk, gv, go, q, k, v, tensorArg(a, 4), tensorArg(a, 5), d, a.at(9));
  return {gq, gk, gv};
}

}  // namespace

void registerAttentionOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0.0, "
      "bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)",
      forwardMeta, forwardKernel);
  (void)registry.add(
      "aten::_scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, Tensor key, "
      "Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, *, Tensor? attn_mask=None, "
      "float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)",
      backwardMeta, backwardKernel);
}

}  // namespace fathom
