// gsched: a fixed pool of threads that runs one loop of independent iterations per call
// (gsim --threads; Gpu::step runs the SM ticks of a cycle through it).
//
// Determinism: iteration i always runs the same code on the same state whichever thread takes
// it, and every call returns only when all iterations are done (a barrier), so a caller whose
// iterations touch disjoint state gets the same result for every thread count. The share of each
// thread is fixed (thread t takes the t-th contiguous block of [0, n)), not stolen.
//
// Exceptions: an iteration that throws ends its thread's block; run() waits for the other
// threads and rethrows the exception of the lowest-numbered thread that threw. As iterations are
// independent, that is the exception a one-thread run throws (the lowest iteration that throws).
//
// Waiting (workers for a job, the caller for the workers): spin for a while (a cycle of a small
// GPU is a few microseconds, far less than a sleep and wake-up), then sleep on a condition
// variable, so an idle pool holds no core and an oversubscribed machine still makes progress.
// No allocation per call.
#pragma once
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gs {

class ParallelFor {
 public:
  /// Largest thread count accepted (gsim --threads checks it and names it).
  static constexpr unsigned kMaxThreads = 64;

  explicit ParallelFor(unsigned threads) : errors_(threads ? threads : 1) {
    for (unsigned t = 1; t < errors_.size(); ++t) workers_.emplace_back([this, t] { worker(t); });
  }
  ~ParallelFor() {
    stop_.store(true);
    job_.fetch_add(1);
    wake();
    for (auto& w : workers_) w.join();
  }
  ParallelFor(const ParallelFor&) = delete;
  ParallelFor& operator=(const ParallelFor&) = delete;

  unsigned threads() const { return unsigned(errors_.size()); }

  /// Calls body(i) for every i in [0, n), spread over the pool; returns when all are done.
  template <class Body>
  void run(uint32_t n, Body& body) {
    if (workers_.empty()) {
      for (uint32_t i = 0; i < n; ++i) body(i);
      return;
    }
    n_ = n;
    ctx_ = &body;
    call_ = [](void* ctx, uint32_t b, uint32_t e) {
      for (uint32_t i = b; i < e; ++i) (*static_cast<Body*>(ctx))(i);
    };
    done_.store(0, std::memory_order_relaxed);
    job_.fetch_add(1);
    wake();
    do_block(0);
    const unsigned others = threads() - 1;
    wait_until([&] { return done_.load() == others; });
    for (auto& e : errors_)
      if (e) {
        std::exception_ptr first = e;
        for (auto& x : errors_) x = nullptr;
        std::rethrow_exception(first);
      }
  }

 private:
  // Waiting for another thread: spin briefly (it is usually microseconds away), then sleep,
  // because with more threads than free cores the thread waited for may need this core.
  // Every state change a waiter tests is a seq_cst write followed by wake(); a sleeper counts
  // itself in sleepers_ (seq_cst) before it tests under the mutex, so either the waker sees the
  // sleeper and notifies under the mutex, or the sleeper sees the change (no lost wake-up).
  //
  // The spin (about 0.25 ms at 30 ns per pause) covers the longest serial part of a cycle that
  // we measured (one Verilated gs_top evaluation at 132 SMs, about 0.1 ms), so a worker that
  // waits for the next cycle's job does not pay a sleep and wake-up every cycle. A spin that
  // adapted down after each sleep was tried: lockstep at 132 SMs then slept every cycle and ran
  // at half the speed of one thread (docs/performance.md, "Threads").
  static constexpr unsigned kSpins = 8192;
  template <class Ready>
  void wait_until(Ready ready) {
    for (unsigned spin = 0; spin < kSpins; ++spin) {
      if (ready()) return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    cv_.wait(lock, ready);
    sleepers_.fetch_sub(1);
  }
  void wake() {
    if (sleepers_.load() == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    cv_.notify_all();
  }

  void do_block(unsigned t) {
    const uint64_t T = threads();
    const uint32_t b = uint32_t(n_ * t / T), e = uint32_t(n_ * (t + 1) / T);
    try {
      call_(ctx_, b, e);
    } catch (...) {
      errors_[t] = std::current_exception();
    }
  }

  void worker(unsigned t) {
    uint64_t seen = 0;
    for (;;) {
      wait_until([&] { return job_.load() != seen; });
      if (stop_.load()) return;
      seen = job_.load();
      do_block(t);
      done_.fetch_add(1);
      wake();
    }
  }

  std::vector<std::exception_ptr> errors_;  // per thread, the exception its block threw
  std::vector<std::thread> workers_;        // threads 1..T-1; the caller is thread 0
  std::atomic<uint64_t> job_{0};            // bumped once per run() (and at shutdown)
  std::atomic<unsigned> done_{0};           // workers finished with the current job
  std::atomic<unsigned> sleepers_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable cv_;
  // The current job, written by run() before job_ is bumped (published by that release).
  uint32_t n_ = 0;
  void* ctx_ = nullptr;
  void (*call_)(void*, uint32_t, uint32_t) = nullptr;
};

}  // namespace gs
