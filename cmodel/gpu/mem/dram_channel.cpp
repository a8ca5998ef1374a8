// gsched memory system: GDDR5 channel with FR-FCFS scheduling (see dram_channel.hpp).
#include "gpu/mem/dram_channel.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace gs::mem {

DramChannel::DramChannel(const DramTiming& timing, uint32_t banks, uint32_t queue_depth)
    : t_(timing), depth_(queue_depth), banks_(banks), bank_has_hit_(banks, 0),
      done_(queue_depth * 2) {
  if (queue_depth == 0) throw InputError("memory system: dram_queue_depth must be >= 1");
  queue_.reserve(queue_depth);
}

void DramChannel::enqueue(const DramRequest& r, uint64_t now) {
  queue_.push_back(r);
  wake_ = std::min(wake_, now);
}

void DramChannel::schedule(uint64_t now) {

  // Pass 1: which banks have a queued request for their open row.
  std::fill(bank_has_hit_.begin(), bank_has_hit_.end(), 0);
  for (const DramRequest& r : queue_) {
    const Bank& b = banks_[r.bank];
    if (b.open && b.row == r.row) bank_has_hit_[r.bank] = 1;
  }

  // Pass 2, oldest first: first ready row hit wins; else first ready ACT/PRE.
  // The column command's data may start when the bus frees up within the next cycle:
  // (t + tCL + 1) * kFixedOne > bus_free  <=>  t >= floor(bus_free / kFixedOne) - tCL.
  const uint64_t bus_cycle = bus_free_fp_ / kFixedOne;
  uint64_t wake = ~uint64_t(0);
  int col = -1, other = -1;
  bool other_is_act = false;
  for (size_t i = 0; i < queue_.size(); ++i) {
    const DramRequest& r = queue_[i];
    const Bank& b = banks_[r.bank];
    if (b.open && b.row == r.row) {
      const uint32_t lat = r.write ? t_.tWL : t_.tCL;
      const uint64_t bus_t = bus_cycle > lat ? bus_cycle - lat : 0;
      const uint64_t at = std::max({b.next_col, next_col_any_, bus_t});
      if (at <= now) { col = int(i); break; }
      wake = std::min(wake, at);
    } else if (!b.open) {
      const uint64_t at = std::max(b.next_act, next_act_any_);
      if (at <= now) {
        if (other < 0) { other = int(i); other_is_act = true; }
      } else {
        wake = std::min(wake, at);
      }
    } else if (!bank_has_hit_[r.bank]) {
      if (b.next_pre <= now) {
        if (other < 0) { other = int(i); other_is_act = false; }
      } else {
        wake = std::min(wake, b.next_pre);
      }
    }
    // else: a conflicting request waits until the open row's hits are served; those hits
    // are in this scan and set `wake` themselves.
  }

  if (col >= 0) {
    issue_column(size_t(col), now);
  } else if (other >= 0) {
    if (other_is_act) issue_activate(queue_[other], now);
    else issue_precharge(queue_[other].bank, now);
  } else {
    wake_ = wake;   // nothing can issue before then (a new request resets it)
    return;
  }
  wake_ = now + 1;
}

void DramChannel::issue_activate(DramRequest& r, uint64_t now) {
  r.activated = true;
  Bank& b = banks_[r.bank];
  b.open = true;
  b.row = r.row;
  b.next_col = now + t_.tRCD;
  b.next_pre = now + t_.tRAS;
  b.next_act = now + t_.tRC;
  next_act_any_ = now + t_.tRRD;
  ++stats_.activates;
}

void DramChannel::issue_precharge(uint32_t bank, uint64_t now) {
  Bank& b = banks_[bank];
  b.open = false;
  b.next_act = std::max(b.next_act, now + t_.tRP);
  ++stats_.precharges;
}

void DramChannel::issue_column(size_t qi, uint64_t now) {
  DramRequest r = queue_[qi];
  queue_.erase(queue_.begin() + ptrdiff_t(qi));
  Bank& b = banks_[r.bank];
  const uint64_t lat = r.write ? t_.tWL : t_.tCL;
  const uint64_t start = std::max(bus_free_fp_, (now + lat) * kFixedOne);
  bus_free_fp_ = start + t_.burst_fp;
  stats_.busy_fp += t_.burst_fp;
  r.done = (bus_free_fp_ + kFixedOne - 1) / kFixedOne;
  next_col_any_ = now + t_.tCCD;
  if (!r.activated) ++stats_.row_hits;
  if (r.write) {
    b.next_pre = std::max(b.next_pre, r.done + t_.tWR);
    ++stats_.writes;
  } else {
    b.next_pre = std::max(b.next_pre, now + t_.burst);
    ++stats_.reads;
  }
  done_.push(r);
}

}  // namespace gs::mem
