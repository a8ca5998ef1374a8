// gsched golden twins of rtl/policy/gs_policy_left_over.sv and rtl/policy/gs_policy_npq.sv.
//
// Left-Over (Warped-Slicer Sec. III, Fig. 2b): kernels in arrival order (Active Queue rank);
// a non-zero cta_limit caps every kernel's resident CTAs on every SM (Fig. 3a sweeps).
// NPQ (Tanasic Sec. 4.2): highest priority first, ties by arrival; the RTL key {~prio, rank}
// is the pair (max_prio - prio, rank) here.
#pragma once
#include <vector>

#include "sched/golden/gs_active_queue.hpp"
#include "sched/golden/gs_ksrt.hpp"

namespace gs::golden {

inline void fifo_keys(const ActiveQueue& aq, std::vector<OrderKey>& key) {
  for (uint32_t k = 0; k < key.size(); ++k) key[k] = OrderKey{0, aq.q.rank[k]};
}

inline void priority_keys(const ActiveQueue& aq, const Ksrt& ksrt, std::vector<OrderKey>& key) {
  for (uint32_t k = 0; k < key.size(); ++k) key[k] = OrderKey{0xFFFFu - ksrt.entry(k).prio, aq.q.rank[k]};
}

}  // namespace gs::golden
