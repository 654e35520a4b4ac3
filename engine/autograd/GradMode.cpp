#include "engine/autograd/GradMode.h"

namespace fathom::autograd {
namespace {
thread_local bool tGradEnabled = true;
thread_local bool tAnomalyEnabled = false;
}  // namespace

bool GradMode::enabled() { return tGradEnabled; }
void GradMode::setEnabled(bool on) { tGradEnabled = on; }
bool AnomalyMode::enabled() { return tAnomalyEnabled; }
void AnomalyMode::setEnabled(bool on) { tAnomalyEnabled = on; }

}  // namespace fathom::autograd
