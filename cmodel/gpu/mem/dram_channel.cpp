// gsched memory system: GDDR5 channel with FR-FCFS scheduling (see dram_channel.hpp).
#include "gpu/mem/dram_channel.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace gs::mem {

DramChannel::DramChannel(const DramTiming& timing, uint32_t banks, uint32_t queue_depth)
    : t_(timing), depth_(queue_depth), banks_(banks), pool_(queue_depth), done_(queue_depth * 2) {
  if (queue_depth == 0) throw InputError("memory system: dram_queue_depth must be >= 1");
  for (uint32_t i = 0; i < queue_depth; ++i) pool_[i].next = i + 1 < queue_depth ? int32_t(i + 1) : kNone;
  free_ = 0;
}

void DramChannel::enqueue(const DramRequest& r, uint64_t now) {
  if (free_ == kNone || r.bank >= banks_.size())
    throw InvariantError("DRAM channel: enqueue into a full queue or to bank " + std::to_string(r.bank));
  const int32_t e = free_;
  Entry& en = pool_[e];
  free_ = en.next;
  en.req = r;
  en.seq = seq_++;
  en.row = r.row;
  en.write = r.write;
  Bank& b = banks_[r.bank];
  if (b.open && b.row == r.row) ++b.hits[r.write];
  en.prev = b.tail;
  en.next = kNone;
  if (b.tail != kNone) pool_[b.tail].next = e;
  else b.head = e;
  b.tail = e;
  ++queued_;
  wake_ = std::min(wake_, now);
}

void DramChannel::schedule(uint64_t now) {
  // FR-FCFS over the banks (see the header): first the oldest row hit whose column command can
  // issue; else the oldest request that can make progress (ACT on a closed bank, PRE on an open
  // bank whose row no queued request wants; a bank with queued hits keeps its row open).
  // The column command's data may start when the bus frees up within the next cycle:
  // (t + tCL + 1) * kFixedOne > bus_free  <=>  t >= floor(bus_free / kFixedOne) - tCL.
  const uint64_t bus_cycle = bus_free_fp_ / kFixedOne;
  constexpr uint64_t kNoSeq = ~uint64_t(0);
  uint64_t wake = ~uint64_t(0);
  int32_t col = kNone, other = kNone;
  uint64_t col_seq = kNoSeq, other_seq = kNoSeq;
  bool other_is_act = false;
  for (uint32_t bi = 0; bi < banks_.size(); ++bi) {
    const Bank& b = banks_[bi];
    if (b.head == kNone) continue;
    if (!b.open) {
      const uint64_t at = std::max(b.next_act, next_act_any_);
      if (at > now) wake = std::min(wake, at);
      else if (pool_[b.head].seq < other_seq) other = b.head, other_seq = pool_[b.head].seq, other_is_act = true;
      continue;
    }
    if (b.hits[0] + b.hits[1] == 0) {
      if (b.next_pre > now) wake = std::min(wake, b.next_pre);
      else if (pool_[b.head].seq < other_seq) other = b.head, other_seq = pool_[b.head].seq, other_is_act = false;
      continue;
    }
    // Oldest row-hit read and write (their column latencies may differ: tCL, tWL).
    int32_t hit[2] = {kNone, kNone};
    bool want[2] = {b.hits[0] != 0, b.hits[1] != 0};
    for (int32_t e = b.head; e != kNone && (want[0] || want[1]); e = pool_[e].next) {
      const Entry& en = pool_[e];
      if (en.row == b.row && want[en.write]) hit[en.write] = e, want[en.write] = false;
    }
    for (int32_t e : hit) {
      if (e == kNone) continue;
      const uint32_t lat = pool_[e].write ? t_.tWL : t_.tCL;
      const uint64_t bus_t = bus_cycle > lat ? bus_cycle - lat : 0;
      const uint64_t at = std::max({b.next_col, next_col_any_, bus_t});
      if (at > now) wake = std::min(wake, at);
      else if (pool_[e].seq < col_seq) col = e, col_seq = pool_[e].seq;
    }
  }

  if (col != kNone) {
    issue_column(col, now);
  } else if (other != kNone) {
    if (other_is_act) issue_activate(pool_[other].req, now);
    else issue_precharge(pool_[other].req.bank, now);
  } else {
    wake_ = wake;  // nothing can issue before then (a new request resets it)
    return;
  }
  wake_ = now + 1;
}

void DramChannel::issue_activate(DramRequest& r, uint64_t now) {
  r.activated = true;
  Bank& b = banks_[r.bank];
  b.open = true;
  b.row = r.row;
  b.hits[0] = b.hits[1] = 0;
  for (int32_t e = b.head; e != kNone; e = pool_[e].next)
    if (pool_[e].row == b.row) ++b.hits[pool_[e].write];
  b.next_col = now + t_.tRCD;
  b.next_pre = now + t_.tRAS;
  b.next_act = now + t_.tRC;
  next_act_any_ = now + t_.tRRD;
  ++stats_.activates;
}

void DramChannel::issue_precharge(uint32_t bank, uint64_t now) {
  Bank& b = banks_[bank];
  b.open = false;
  b.hits[0] = b.hits[1] = 0;  // zero already: a bank with queued row hits is not precharged
  b.next_act = std::max(b.next_act, now + t_.tRP);
  ++stats_.precharges;
}

void DramChannel::issue_column(int32_t e, uint64_t now) {
  Entry& en = pool_[e];
  DramRequest r = en.req;
  Bank& b = banks_[r.bank];
  (en.prev != kNone ? pool_[en.prev].next : b.head) = en.next;
  (en.next != kNone ? pool_[en.next].prev : b.tail) = en.prev;
  en.next = free_;
  free_ = e;
  --queued_;
  --b.hits[r.write];  // a column command serves a row hit
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
