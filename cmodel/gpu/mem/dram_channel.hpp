// gsched memory system: one GDDR5 channel -- banks with row buffers, a request queue and an
// FR-FCFS command scheduler, timed in core cycles (DramTiming).
//
// Contract (one tick() per core cycle):
//   * enqueue() adds a request (caller checks can_accept(): the queue holds queue_depth);
//     a request enqueued before tick(now) may be scheduled in that same tick;
//   * tick(now) issues at most one DRAM command (ACT, PRE, RD or WR) chosen FR-FCFS:
//       1. the oldest request whose row is open and whose column command can issue now;
//       2. otherwise the oldest request that can make progress: ACT on a closed bank, or PRE
//          on a bank whose open row no queued request wants (a row with queued hits stays
//          open until they are served -- so younger row hits overtake older row misses);
//   * bank timing: ACT->RD/WR tRCD, ACT->PRE tRAS, ACT->ACT same bank tRC, ACT->ACT any bank
//     tRRD, PRE->ACT tRP, RD/WR->RD/WR tCCD, RD->PRE one burst, WR data end->PRE tWR;
//   * data bus: a column command at cycle t puts its line on the bus from
//     max(bus_free, (t + tCL or tWL) * kFixedOne) for burst_fp; it is done at the first whole
//     cycle after its data ends. A column command may issue when its data would start less
//     than one core cycle after the bus frees up, so the bus can run back to back;
//   * done requests come out of done_front()/pop_done() in completion order (they are
//     ordered by the data bus, so a FIFO holds them);
//   * event skipping: when a scan finds nothing to issue it records the earliest cycle at
//     which a timing constraint could release a command and sleeps until then (or until a
//     new request arrives). Not modelled: refresh, tFAW, read/write turnaround, command-bus
//     rate (at most one command per core cycle).
//
// Storage: the queue is a pool of queue_depth entries, each on its bank's list in arrival
// order (a sequence number orders requests across banks). Every request of a closed bank, and
// every request of an open bank that has no row hit queued, is blocked by the same timing, so
// the scan visits banks, not requests: per bank the list head (ACT / PRE candidate) and the
// oldest row-hit read and write (column candidates), found from per-bank counts of queued
// row hits without a walk when there are none. The choice is exactly the one of a
// scan over all requests oldest first.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/mem/dram_timing.hpp"
#include "gpu/mem/packet.hpp"
#include "gpu/mem/ring_fifo.hpp"

namespace gs::mem {

/// Why a DRAM request exists (decides where its completion goes).
enum class DramSource : uint8_t {
  kL2Fill,       // L2 read miss; `mshr` is the slice's MSHR
  kWriteback,    // dirty L2 victim
  kBypassLoad,   // kL2 / kL1L2 load: the response goes straight back to the SM
  kBypassStore,  // kL2 / kL1L2 store
  kCtxSave,      // context save line
  kCtxRestore,   // context restore line: the response goes back to the SM
};

struct DramRequest {
  uint64_t local = 0;  // address inside the channel
  uint64_t row = 0;
  uint32_t bank = 0;
  bool write = false;
  DramSource source = DramSource::kL2Fill;
  uint16_t mshr = 0;
  uint16_t charge_sm = 0;  // who pays the DRAM bytes
  bool activated = false;  // an ACT was issued for this request (its column access is a row miss)
  KernelId charge_kernel = 0;
  uint64_t ready = 0;  // slice -> DRAM pipeline: cycle it may enter the queue
  uint64_t done = 0;   // set when its column command issues
  Packet pkt;          // the originating packet (bypass / context requests)
};

struct DramStats {
  uint64_t reads = 0, writes = 0, activates = 0, precharges = 0;
  uint64_t row_hits = 0;  // column commands that found their row open without an ACT of their own
  uint64_t busy_fp = 0;   // data-bus time used, fixed point
};

class DramChannel {
 public:
  DramChannel(const DramTiming& timing, uint32_t banks, uint32_t queue_depth);

  bool can_accept() const { return queued_ < depth_; }
  size_t queued() const { return queued_; }
  void enqueue(const DramRequest& r, uint64_t now);
  /// Inline check first: an empty or sleeping channel costs a compare.
  void tick(uint64_t now) {
    if (queued_ != 0 && now >= wake_) schedule(now);
  }

  bool has_done(uint64_t now) const { return !done_.empty() && done_.front().done <= now; }
  const DramRequest& done_front() const { return done_.front(); }
  void pop_done() { done_.pop(); }

  bool idle() const { return queued_ == 0 && done_.empty(); }
  const DramStats& stats() const { return stats_; }
  /// Open row of a bank, or -1 when it is closed (tests, dumps).
  int64_t open_row(uint32_t bank) const { return banks_[bank].open ? int64_t(banks_[bank].row) : -1; }

 private:
  static constexpr int32_t kNone = -1;
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t next_act = 0, next_pre = 0, next_col = 0;
    int32_t head = kNone, tail = kNone;  // this bank's queued requests, oldest first
    uint32_t hits[2] = {0, 0};           // queued reads [0] and writes [1] for the open row
  };
  struct Entry {                         // the fields a scan reads first, in one cache line
    uint64_t seq = 0;                    // arrival order across banks
    uint64_t row = 0;                    // req.row
    int32_t prev = kNone, next = kNone;  // bank list links; next also links the free list
    bool write = false;                  // req.write
    DramRequest req;
  };
  void schedule(uint64_t now);
  void issue_column(int32_t e, uint64_t now);
  void issue_activate(DramRequest& r, uint64_t now);
  void issue_precharge(uint32_t bank, uint64_t now);

  DramTiming t_;
  uint32_t depth_;
  std::vector<Bank> banks_;
  std::vector<Entry> pool_;  // depth_ entries, queued or free
  int32_t free_ = kNone;     // free-entry list
  uint32_t queued_ = 0;
  uint64_t seq_ = 0;
  RingFifo<DramRequest> done_;
  uint64_t bus_free_fp_ = 0;   // data bus free from this time (fixed point)
  uint64_t next_col_any_ = 0;  // tCCD
  uint64_t next_act_any_ = 0;  // tRRD
  uint64_t wake_ = 0;          // no command can issue before this cycle
  DramStats stats_;
};

}  // namespace gs::mem
