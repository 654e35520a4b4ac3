// Which PyTorch's ATen the ops follow where two versions decide a layout differently. Fathom's
// rules are 1.13's (Debian's python3-torch, the oracle) unless a dump says it was written by
// another PyTorch: loadDump() sets the version from the dump's producer ("torch": "2.14.1+cu130"),
// so a torch 2.x capture is checked against 2.x's layouts. Where 2.x differs, the rule says so at
// its `atenVersion().atLeast(2, 0)`:
//   - aten.copy (the functional copy_) clones self preserving its strides and offset
//     (clone_preserve_strides) where 1.13 returned src or a fresh contiguous tensor;
//   - a float32 transposed 2-d convolution runs on oneDNN (MkldnnTranspose), whose output and
//     gradients follow a channels-last input or weight, where 1.13's slow kernel was contiguous.
// Process-wide (the GUI's and the CLI's worker threads run the dump's ops): one dump's PyTorch at
// a time, as one dump is open at a time.
#pragma once

#include <optional>
#include <string_view>

namespace fathom {

struct AtenVersion {
  int major = 1, minor = 13;
  bool atLeast(int ma, int mi) const { return major > ma || (major == ma && minor >= mi); }
  bool operator==(const AtenVersion&) const = default;
};

AtenVersion atenVersion();
void setAtenVersion(AtenVersion v);

// "2.14.1+cu130" -> {2, 14}; nullopt for anything that does not start with MAJOR.MINOR.
std::optional<AtenVersion> parseTorchVersion(std::string_view text);

// Sets the version for a scope and restores the one before (tests; a command that runs another
// PyTorch's graph).
class ScopedAtenVersion {
 public:
  explicit ScopedAtenVersion(AtenVersion v) : before_(atenVersion()) { setAtenVersion(v); }
  ~ScopedAtenVersion() { setAtenVersion(before_); }
  ScopedAtenVersion(const ScopedAtenVersion&) = delete;
  ScopedAtenVersion& operator=(const ScopedAtenVersion&) = delete;

 private:
  AtenVersion before_;
};

}  // namespace fathom
