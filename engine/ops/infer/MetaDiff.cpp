#include "engine/ops/infer/MetaDiff.h"

namespace fathom::infer {
namespace {

std::string symListText(const SymIntList& l) {
  std::string out = "[";
  for (size_t i = 0; i < l.size(); ++i) out += (i ? ", " : "") + l[i].str();
  return out + "]";
}

std::string claimedVsReal(const std::string& field, const std::string& claimed, const std::string& real) {
  return field + ": " + claimed + " claimed, " + real + " real";
}

}  // namespace

std::string metaDisagreement(const TensorMeta& claimed, const Tensor& real) {
  if (claimed.dtype != real.dtype())
    return claimedVsReal("dtype", std::string(dtypeName(claimed.dtype)), std::string(dtypeName(real.dtype())));
  bool sizesDiffer = claimed.dim() != real.dim();
  for (size_t d = 0; !sizesDiffer && d < claimed.sizes.size(); ++d)
    sizesDiffer = claimed.sizes[d].hint() != real.size(static_cast<int64_t>(d));
  if (sizesDiffer) return claimedVsReal("sizes", symListText(claimed.sizes), intListText(real.sizes()));
  if (real.numel() == 0) return "";
  for (size_t d = 0; d < claimed.strides.size(); ++d) {
    const int64_t dim = static_cast<int64_t>(d);
    if (real.size(dim) != 1 && claimed.strides[d].hint() != real.stride(dim))
      return claimedVsReal("strides", symListText(claimed.strides), intListText(real.strides())) + " (dim " +
             std::to_string(d) + ": stride " + claimed.strides[d].str() + " claimed, " +
             std::to_string(real.stride(dim)) + " real)";
  }
  if (claimed.storageOffset.hint() != real.storageOffset())
    return claimedVsReal("storage_offset", claimed.storageOffset.str(), std::to_string(real.storageOffset()));
  return "";
}

}  // namespace fathom::infer
