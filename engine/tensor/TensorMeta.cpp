#include "engine/tensor/TensorMeta.h"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "engine/core/Error.h"

namespace fathom {

std::string_view memoryFormatName(MemoryFormat f) {
  switch (f) {
    case MemoryFormat::Contiguous: return "contiguous_format";
    case MemoryFormat::ChannelsLast: return "channels_last";
    case MemoryFormat::Preserve: return "preserve_format";
  }
  return "?";
}

bool parseMemoryFormat(std::string_view name, MemoryFormat* out) {
  if (name.starts_with("torch.")) name.remove_prefix(6);
  for (auto f : {MemoryFormat::Contiguous, MemoryFormat::ChannelsLast, MemoryFormat::Preserve}) {
    if (memoryFormatName(f) == name) { *out = f; return true; }
  }
  return false;
}

SymInt TensorMeta::numel() const {
  SymInt n = 1;
  for (const auto& s : sizes) n *= s;
  return n;
}

std::string TensorMeta::str() const {
  std::ostringstream os;
  os << dtypeShortName(dtype) << "[";
  for (size_t i = 0; i < sizes.size(); ++i) os << (i ? ", " : "") << sizes[i].str();
  os << "] [";
  for (size_t i = 0; i < strides.size(); ++i) os << (i ? ", " : "") << strides[i].str();
  os << "]";
  if (!storageOffset.maybeConcrete() || storageOffset.hint() != 0) os << " +" << storageOffset.str();
  return os.str();
}

// PyTorch (c10::contiguous_strides): stride[i] = stride[i+1] * max(size[i+1], 1).
SymIntList contiguousStrides(const SymIntList& sizes) {
  SymIntList strides(sizes.size());
  SymInt running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running = running * symMax(sizes[i], 1);
  }
  return strides;
}

SymIntList channelsLastStrides(const SymIntList& sizes) {
  FATHOM_CHECK(sizes.size() == 4, "channels_last needs a 4-d tensor, got ", sizes.size(), "-d");
  // Order of increasing stride: C, W, H, N.
  SymIntList strides(4);
  strides[1] = 1;
  strides[3] = symMax(sizes[1], 1);
  strides[2] = strides[3] * symMax(sizes[3], 1);
  strides[0] = strides[2] * symMax(sizes[2], 1);
  return strides;
}

namespace {
bool isEmpty(const TensorMeta& t) {
  for (const auto& size : t.sizes)
    if (symEq(size, 0, "contiguity: is the tensor empty")) return true;
  return false;
}
}  // namespace

// c10's compute_contiguous: an empty tensor is contiguous; size-1 dims may have any stride.
bool isContiguous(const TensorMeta& t) {
  if (isEmpty(t)) return true;
  SymInt expected = 1;
  for (int64_t i = t.dim() - 1; i >= 0; --i) {
    const SymInt& size = t.sizes[i];
    if (symEq(size, 1, "contiguity: size-1 dims have any stride")) continue;
    if (!symEq(t.strides[i], expected, "contiguity: stride check")) return false;
    expected = expected * size;
  }
  return true;
}

bool isChannelsLastContiguous(const TensorMeta& t) {
  if (t.dim() != 4) return false;
  if (isEmpty(t)) return true;
  SymInt expected = 1;
  for (int64_t d : {1, 3, 2, 0}) {
    const SymInt& size = t.sizes[d];
    if (symEq(size, 1, "channels_last: size-1 dims have any stride")) continue;
    if (!symEq(t.strides[d], expected, "channels_last: stride check")) return false;
    expected = expected * size;
  }
  return true;
}

// c10's compute_non_overlapping_and_dense: sort dims by stride, then they must chain.
bool isNonOverlappingAndDense(const TensorMeta& t) {
  const int64_t n = t.dim();
  if (n == 1) return symLt(t.sizes[0], 2, "dense: size < 2") || symEq(t.strides[0], 1, "dense: unit stride");
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (symLt(t.sizes[a], 2, "dense: size < 2")) return false;
    if (symLt(t.sizes[b], 2, "dense: size < 2")) return true;
    return symLt(t.strides[a], t.strides[b], "dense: stride order");
  });
  SymInt required = 1;
  for (int64_t d : perm) {
    const SymInt& size = t.sizes[d];
    if (symLt(size, 2, "dense: size < 2")) return true;
    if (!symEq(t.strides[d], required, "dense: stride chain")) return false;
    required = required * size;
  }
  return true;
}

int64_t wrapDim(int64_t dim, int64_t rank) {
  const int64_t lo = rank > 0 ? -rank : -1, hi = rank > 0 ? rank - 1 : 0;
  FATHOM_CHECK(dim >= lo && dim <= hi, "Dimension out of range (expected to be in range of [", lo,
               ", ", hi, "], but got ", dim, ")");
  return dim < 0 ? dim + std::max<int64_t>(rank, 1) : dim;
}

}  // namespace fathom
