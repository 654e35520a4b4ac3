// Thread-local autograd switches, as torch.no_grad() and torch.autograd.set_detect_anomaly().
//
//   { NoGradGuard g;  y = mul(x, 2); }   // y has no history
//   AnomalyMode::Guard a;                 // backward checks every gradient for NaN/Inf
#pragma once

namespace fathom::autograd {

class GradMode {
 public:
  static bool enabled();
  static void setEnabled(bool on);
};

// Disables recording while it lives (the backward pass itself runs under one).
class NoGradGuard {
 public:
  NoGradGuard() : previous_(GradMode::enabled()) { GradMode::setEnabled(false); }
  ~NoGradGuard() { GradMode::setEnabled(previous_); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool previous_;
};

class AnomalyMode {
 public:
  static bool enabled();
  static void setEnabled(bool on);

  class Guard {
   public:
    explicit Guard(bool on = true) : previous_(enabled()) { setEnabled(on); }
    ~Guard() { setEnabled(previous_); }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    bool previous_;
  };
};

}  // namespace fathom::autograd
