// Counter-based random draws (see Random.h).
#include "engine/core/Random.h"

namespace fathom {
namespace {

// splitmix64's output function: the value at position `counter` of the stream seeded `seed`
// is mix(seed + (counter + 1) * golden), the same as stepping splitmix64 counter + 1 times.
uint64_t splitmix64At(uint64_t seed, uint64_t counter) {
  uint64_t z = seed + (counter + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

double RandomDraw::uniform(uint64_t i) const {
  return static_cast<double>(splitmix64At(seed, first + i) >> 11) * 0x1.0p-53;
}

float RandomDraw::uniformFloat(uint64_t i) const {
  return static_cast<float>(splitmix64At(seed, first + i) >> 40) * 0x1.0p-24f;
}

void Generator::manualSeed(uint64_t seed) {
  seed_.store(seed);
  offset_.store(0);
}

RandomDraw Generator::draw(uint64_t n) {
  RandomDraw d;
  d.seed = seed_.load();
  d.first = offset_.fetch_add(n);
  return d;
}

Generator& defaultGenerator() {
  static Generator generator;
  return generator;
}

}  // namespace fathom
