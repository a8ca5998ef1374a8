// gsched memory system: a FIFO over a power-of-two ring buffer.
//
// Contract: push/pop/front are O(1) and allocate nothing while the FIFO stays within the
// capacity it has reached; a push into a full ring doubles it (so correctness never depends
// on a size bound, and in steady state the queues stop allocating after warm-up).
// Units that model a finite hardware queue check size() against their own limit before
// pushing; the ring's capacity is storage, not the modelled queue depth.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gs::mem {

template <class T>
class RingFifo {
 public:
  explicit RingFifo(size_t initial_capacity = 16) { buf_.resize(round_up_pow2(initial_capacity)); }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  size_t capacity() const { return buf_.size(); }

  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  /// i-th element from the front (0 = front).
  T& at(size_t i) { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  const T& at(size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }

  void push(const T& v) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = v;
    ++size_;
  }
  void pop() {
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  static size_t round_up_pow2(size_t n) {
    size_t c = 1;
    while (c < n) c <<= 1;
    return c;
  }
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move(at(i));
    buf_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> buf_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace gs::mem
