// The random source ops draw from (native_dropout, bernoulli_): a counter-based generator.
//
// A draw of n values reserves n consecutive counters from the generator; value i of the draw is
// a pure function of (seed, first counter + i) - the splitmix64 stream started at `seed` - so a
// kernel may compute its elements in any order, on any number of threads, and the same seed
// gives the same values on every machine. Values cannot match PyTorch's (mt19937/Philox)
// streams; only their distribution does.
//
// The process-wide default generator starts at kDefaultSeed; manualSeed() resets it (seed and
// counter), like torch.manual_seed.
#pragma once

#include <atomic>
#include <cstdint>

namespace fathom {

// Where one draw's values come from: uniform(i) is the i-th value of the draw.
struct RandomDraw {
  uint64_t seed = 0;
  uint64_t first = 0;  // counter of value 0
  // Uniform in [0, 1) with 53 random bits.
  double uniform(uint64_t i) const;
  // Uniform in [0, 1) with 24 random bits (exactly representable as float).
  float uniformFloat(uint64_t i) const;
};

class Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // PyTorch's default_rng_seed_val

  explicit Generator(uint64_t seed = kDefaultSeed) : seed_(seed) {}

  // Restarts the stream at `seed`, as torch.manual_seed does.
  void manualSeed(uint64_t seed);
  uint64_t seed() const { return seed_.load(); }
  // Counters handed out since the last seeding.
  uint64_t offset() const { return offset_.load(); }

  // Reserves `n` values; thread-safe (concurrent draws get disjoint counters).
  RandomDraw draw(uint64_t n);

 private:
  std::atomic<uint64_t> seed_;
  std::atomic<uint64_t> offset_{0};
};

// The generator ops use when no other is given.
Generator& defaultGenerator();
inline void manualSeed(uint64_t seed) { defaultGenerator().manualSeed(seed); }

}  // namespace fathom
