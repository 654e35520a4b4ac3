#include "engine/tensor/Tensor.h"

#include <cstring>
#include <string>

#include "engine/core/Half.h"

namespace fathom {

std::string intListText(const IntList& list) {
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + std::to_string(list[i]);
  return s + "]";
}

Result<int64_t> checkedNumel(const IntList& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s < 0) return invalidInput("negative size " + std::to_string(s));
    if (__builtin_mul_overflow(n, s, &n))
      return invalidInput("number of elements overflows 64 bits");
  }
  return n;
}

Result<size_t> storageBytesFor(const IntList& sizes, const IntList& strides, int64_t offset,
                               DType dtype) {
  if (sizes.size() != strides.size())
    return invalidInput("sizes have " + std::to_string(sizes.size()) + " dims but strides have " +
                        std::to_string(strides.size()));
  if (offset < 0) return invalidInput("negative storage offset " + std::to_string(offset));
  auto n = checkedNumel(sizes);
  FATHOM_TRY(n);
  for (int64_t s : strides)
    if (s < 0) return invalidInput("negative stride " + std::to_string(s));
  if (*n == 0) return size_t{0};
  // Last element reached: offset + sum((size - 1) * stride).
  int64_t last = offset;
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t span;
    if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) || __builtin_add_overflow(last, span, &last))
      return invalidInput("storage size overflows 64 bits");
  }
  int64_t bytes;
  if (__builtin_add_overflow(last, 1, &last) ||
      __builtin_mul_overflow(last, static_cast<int64_t>(elementSize(dtype)), &bytes))
    return invalidInput("storage size in bytes overflows 64 bits");
  return static_cast<size_t>(bytes);
}

IntList contiguousStrides(const IntList& sizes) {
  IntList strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

Result<Tensor> Tensor::empty(const IntList& sizes, DType dtype) {
  auto n = checkedNumel(sizes);
  FATHOM_TRY(n);
  return emptyStrided(sizes, contiguousStrides(sizes), dtype);
}

Result<Tensor> Tensor::emptyStrided(const IntList& sizes, const IntList& strides, DType dtype) {
  return allocate(sizes, strides, 0, dtype);
}

// The one place tensors get fresh storage: sized for the geometry, offset included.
Result<Tensor> Tensor::allocate(IntList sizes, IntList strides, int64_t offset, DType dtype) {
  auto bytes = storageBytesFor(sizes, strides, offset, dtype);
  FATHOM_TRY(bytes);
  auto storage = Storage::allocate(*bytes);
  FATHOM_TRY(storage);
  Tensor t;
  t.storage_ = std::move(*storage);
  t.dtype_ = dtype;
  t.sizes_ = std::move(sizes);
  t.strides_ = std::move(strides);
  t.offset_ = offset;
  return t;
}

Result<Tensor> Tensor::fromMeta(const TensorMeta& meta) {
  IntList sizes, strides;
  for (const auto& s : meta.sizes) {
    if (s.isSymbolic()) return invalidInput("size " + s.str() + " is symbolic; bind it first");
    sizes.push_back(s.hint());
  }
  for (const auto& s : meta.strides) {
    if (s.isSymbolic()) return invalidInput("stride " + s.str() + " is symbolic; bind it first");
    strides.push_back(s.hint());
  }
  if (meta.storageOffset.isSymbolic()) return invalidInput("storage offset is symbolic");
  // Keep the offset: the storage holds offset + span elements and the tensor views into it.
  return allocate(std::move(sizes), std::move(strides), meta.storageOffset.hint(), meta.dtype);
}

Result<Tensor> Tensor::scalar(double value, DType dtype) {
  auto t = empty({}, dtype);
  FATHOM_TRY(t);
  storeFromDouble(t->data(), dtype, value);
  return t;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes_) n *= s;
  return n;
}

Result<Tensor> Tensor::asStrided(const IntList& sizes, const IntList& strides, int64_t offset) const {
  auto bytes = storageBytesFor(sizes, strides, offset, dtype_);
  FATHOM_TRY(bytes);
  if (*bytes > storage_->nbytes())
    return invalidInput("view needs " + std::to_string(*bytes) + " bytes but the storage has " +
                        std::to_string(storage_->nbytes()));
  Tensor t = *this;
  t.sizes_ = sizes;
  t.strides_ = strides;
  t.offset_ = offset;
  return t;
}

TensorMeta Tensor::meta() const {
  TensorMeta m;
  m.dtype = dtype_;
  m.sizes.assign(sizes_.begin(), sizes_.end());
  m.strides.assign(strides_.begin(), strides_.end());
  m.storageOffset = offset_;
  return m;
}

bool Tensor::isContiguous() const {
  int64_t expected = 1;
  for (int64_t i = dim() - 1; i >= 0; --i) {
    if (sizes_[i] == 0) return true;
    if (sizes_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= sizes_[i];
  }
  return true;
}

double loadAsDouble(const void* p, DType dtype) {
  switch (dtype) {
    case DType::Bool: return *static_cast<const bool*>(p) ? 1.0 : 0.0;
    case DType::UInt8: return *static_cast<const uint8_t*>(p);
    case DType::Int8: return *static_cast<const int8_t*>(p);
    case DType::Int16: return *static_cast<const int16_t*>(p);
    case DType::Int32: return *static_cast<const int32_t*>(p);
    case DType::Int64: return static_cast<double>(*static_cast<const int64_t*>(p));
    case DType::Float16: return static_cast<float>(*static_cast<const Half*>(p));
    case DType::BFloat16: return static_cast<float>(*static_cast<const BFloat16*>(p));
    case DType::Float32: return *static_cast<const float*>(p);
    case DType::Float64: return *static_cast<const double*>(p);
  }
  return 0;
}

void storeFromDouble(void* p, DType dtype, double v) {
  switch (dtype) {
    case DType::Bool: *static_cast<bool*>(p) = v != 0; break;
    case DType::UInt8: *static_cast<uint8_t*>(p) = static_cast<uint8_t>(static_cast<int64_t>(v)); break;
    case DType::Int8: *static_cast<int8_t*>(p) = static_cast<int8_t>(static_cast<int64_t>(v)); break;
    case DType::Int16: *static_cast<int16_t*>(p) = static_cast<int16_t>(static_cast<int64_t>(v)); break;
    case DType::Int32: *static_cast<int32_t*>(p) = static_cast<int32_t>(static_cast<int64_t>(v)); break;
    case DType::Int64: *static_cast<int64_t*>(p) = static_cast<int64_t>(v); break;
    case DType::Float16: *static_cast<Half*>(p) = Half(static_cast<float>(v)); break;
    case DType::BFloat16: *static_cast<BFloat16*>(p) = BFloat16(static_cast<float>(v)); break;
    case DType::Float32: *static_cast<float*>(p) = static_cast<float>(v); break;
    case DType::Float64: *static_cast<double*>(p) = v; break;
  }
}

double Tensor::at(const IntList& index) const {
  int64_t off = 0;
  for (size_t i = 0; i < index.size(); ++i) off += index[i] * strides_[i];
  return loadAsDouble(static_cast<const std::byte*>(data()) + off * static_cast<int64_t>(elementSize(dtype_)), dtype_);
}

namespace {
int64_t linearToOffset(int64_t linear, const IntList& sizes, const IntList& strides) {
  int64_t off = 0;
  for (size_t i = sizes.size(); i-- > 0;) {
    off += (linear % sizes[i]) * strides[i];
    linear /= sizes[i];
  }
  return off;
}
}  // namespace

double Tensor::atLinear(int64_t linear) const {
  const int64_t off = linearToOffset(linear, sizes_, strides_);
  return loadAsDouble(static_cast<const std::byte*>(data()) + off * static_cast<int64_t>(elementSize(dtype_)), dtype_);
}

void Tensor::setLinear(int64_t linear, double value) {
  const int64_t off = linearToOffset(linear, sizes_, strides_);
  storeFromDouble(static_cast<std::byte*>(data()) + off * static_cast<int64_t>(elementSize(dtype_)), dtype_, value);
}

Result<Tensor> Tensor::contiguous() const {
  auto out = empty(sizes_, dtype_);
  FATHOM_TRY(out);
  const int64_t n = numel();
  const size_t es = elementSize(dtype_);
  if (isContiguous()) {
    std::memcpy(out->data(), data(), static_cast<size_t>(n) * es);
    return out;
  }
  auto* dst = static_cast<std::byte*>(out->data());
  const auto* src = static_cast<const std::byte*>(data());
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(dst + i * es, src + linearToOffset(i, sizes_, strides_) * static_cast<int64_t>(es), es);
  return out;
}

}  // namespace fathom
