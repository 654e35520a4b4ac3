#include "engine/core/Parallel.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <pthread.h>
#include <mutex>
#include <thread>
#include <vector>

namespace fathom {
namespace {

thread_local bool insideChunk = false;

int defaultThreads() {
  if (const char* env = std::getenv("FATHOM_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return std::min(n, 256);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// Workers wait for a job (a generation number changes), each takes chunks from a shared counter
// until none are left, and the caller takes chunks too, then waits for the last one to finish.
class Pool {
 public:
  explicit Pool(int threads) : threads_(threads) {
    for (int i = 1; i < threads_; ++i) workers_.emplace_back([this] { workerLoop(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }
  int threads() const { return threads_; }

  void run(int64_t chunks, const std::function<void(int64_t)>& chunk) {
    std::unique_lock callLock(callMutex_);  // one parallel region at a time
    {
      std::lock_guard lock(mutex_);
      job_ = &chunk;
      chunks_ = chunks;
      next_ = 0;
      pending_ = chunks;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    insideChunk = true;
    for (;;) {
      int64_t i;
      const std::function<void(int64_t)>* job;
      {
        std::lock_guard lock(mutex_);
        if (!job_ || next_ >= chunks_) break;
        i = next_++;
        job = job_;
      }
      std::exception_ptr err;
      try {
        (*job)(i);
      } catch (...) {
        err = std::current_exception();
      }
      std::lock_guard lock(mutex_);
      if (err && !error_) error_ = err;
      if (--pending_ == 0) done_.notify_all();
    }
    insideChunk = false;
  }

  void workerLoop() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      work();
    }
  }

  const int threads_;
  std::vector<std::thread> workers_;
  std::mutex callMutex_, mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int64_t)>* job_ = nullptr;
  int64_t chunks_ = 0, next_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

std::mutex poolMutex;
std::unique_ptr<Pool>& poolSlot() {
  static std::unique_ptr<Pool> pool;
  return pool;
}
int requestedThreads = 0;  // 0: defaultThreads()

// A forked child (the minifier's workers) has none of the parent's pool threads: it drops the
// pool without joining them and runs serially, instead of waiting forever on threads that do
// not exist in it.
void afterForkInChild() {
  (void)poolSlot().release();
  requestedThreads = 1;
}

Pool& pool() {
  static const bool forkHandled = (pthread_atfork(nullptr, nullptr, afterForkInChild), true);
  (void)forkHandled;
  std::lock_guard lock(poolMutex);
  auto& p = poolSlot();
  const int want = requestedThreads ? requestedThreads : defaultThreads();
  if (!p || p->threads() != want) p = std::make_unique<Pool>(want);
  return *p;
}

}  // namespace

int numThreads() { return pool().threads(); }

void setNumThreads(int n) {
  std::lock_guard lock(poolMutex);
  requestedThreads = std::max(1, n);
}

void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  if (insideChunk || n < 2 * grain) {
    fn(0, n);
    return;
  }
  Pool& p = pool();
  const int64_t chunks = std::min<int64_t>(p.threads(), n / grain);
  if (chunks <= 1) {
    fn(0, n);
    return;
  }
  p.run(chunks, [&](int64_t i) {
    const int64_t begin = n * i / chunks, end = n * (i + 1) / chunks;
    fn(begin, end);
  });
}

}  // namespace fathom
