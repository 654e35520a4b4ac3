// Tensor: a strided view (sizes, strides, storage offset, all in elements) of a shared Storage.
// Views share the storage; sizes and strides are concrete here (symbolic sizes live in
// TensorMeta). Element access converts through double for printing, checksums and slow paths;
// kernels use typed pointers (dispatch in engine/tensor/DTypeDispatch.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/core/DType.h"
#include "engine/core/Result.h"
#include "engine/tensor/Storage.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {

using IntList = std::vector<int64_t>;
// "[4, 8]": a concrete size or stride list as error messages and reports print it.
std::string intListText(const IntList& list);

// Bytes a tensor of this geometry needs from its storage's start; an error when sizes or
// strides are negative or the byte count overflows 64 bits.
Result<size_t> storageBytesFor(const IntList& sizes, const IntList& strides, int64_t offset,
                               DType dtype);
// Product of sizes, or an error on negative sizes / overflow.
Result<int64_t> checkedNumel(const IntList& sizes);
IntList contiguousStrides(const IntList& sizes);

class Tensor {
 public:
  Tensor() = default;  // undefined

  static Result<Tensor> empty(const IntList& sizes, DType dtype);  // contiguous, zero-filled
  static Result<Tensor> emptyStrided(const IntList& sizes, const IntList& strides, DType dtype);
  // A tensor with `meta`'s layout; every size, stride and offset must be concrete.
  static Result<Tensor> fromMeta(const TensorMeta& meta);
  static Result<Tensor> scalar(double value, DType dtype);  // zero-dim

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const IntList& sizes() const { return sizes_; }
  const IntList& strides() const { return strides_; }
  int64_t size(int64_t d) const { return sizes_[d]; }
  int64_t stride(int64_t d) const { return strides_[d]; }
  int64_t storageOffset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const;
  const std::shared_ptr<Storage>& storage() const { return storage_; }

  // Pointer to element [0, 0, ...] (storage start + offset).
  void* data() const { return storage_->data() + offset_ * static_cast<int64_t>(elementSize(dtype_)); }
  template <class T>
  T* dataAs() const { return static_cast<T*>(data()); }

  // A view of the same storage; checked to stay inside it.
  Result<Tensor> asStrided(const IntList& sizes, const IntList& strides, int64_t offset) const;
  bool sharesStorageWith(const Tensor& other) const { return storage_ == other.storage_; }

  TensorMeta meta() const;
  bool isContiguous() const;

  // Element at a multi-index (or at a row-major linear index), converted to double.
  double at(const IntList& index) const;
  double atLinear(int64_t linearIndex) const;
  void setLinear(int64_t linearIndex, double value);

  // A contiguous copy with the same values and dtype.
  Result<Tensor> contiguous() const;

 private:
  static Result<Tensor> allocate(IntList sizes, IntList strides, int64_t offset, DType dtype);

  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::Float32;
  IntList sizes_, strides_;
  int64_t offset_ = 0;
};

double loadAsDouble(const void* p, DType dtype);
void storeFromDouble(void* p, DType dtype, double value);

}  // namespace fathom
