// gsched golden twin of rtl/framework/gs_cmd_buffers.sv (Command Buffers, Tanasic Sec. 3.3).
//
// One FIFO of launches per context (CmdBufDepth each) and an arrival-order FIFO of context
// ids; head() is the globally oldest launch. ready() depends on registered state only.
// clock(): pop first (the Active Queue took the head), then push, as the RTL's next state.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class CmdBuffers {
 public:
  struct Regs {
    std::vector<std::array<Launch, CmdBufDepth>> fifo;  // fifo_q
    std::vector<uint32_t> rd, cnt;                         // rd_q, cnt_q
    std::vector<uint32_t> order;                           // order_q
    uint32_t ord_rd = 0, ord_wr = 0, ord_cnt = 0;          // ord_rd_q, ord_wr_q, ord_cnt_q
  };

  void reset(uint32_t contexts) {
    q = Regs{};
    q.fifo.assign(contexts, {});
    q.rd.assign(contexts, 0);
    q.cnt.assign(contexts, 0);
    q.order.assign(contexts * CmdBufDepth, 0);
  }

  bool head_valid() const { return q.ord_cnt != 0; }
  Launch head() const {
    const uint32_t c = q.order[q.ord_rd];
    return q.fifo[c][q.rd[c]];
  }
  /// ready_o: every context FIFO has a free entry.
  bool ready() const {
    for (uint32_t c : q.cnt)
      if (c == CmdBufDepth) return false;
    return true;
  }

  void clock(bool push, const Launch& launch, bool pop_req) {
    const uint32_t order_depth = static_cast<uint32_t>(q.order.size());
    const bool pop = pop_req && head_valid();
    if (pop) {
      const uint32_t c = q.order[q.ord_rd];
      q.rd[c] = (q.rd[c] + 1) % CmdBufDepth;
      --q.cnt[c];
      q.ord_rd = (q.ord_rd + 1) % order_depth;
    }
    if (push) {
      const uint32_t c = launch.ctx;
      q.fifo[c][(q.rd[c] + q.cnt[c]) % CmdBufDepth] = launch;
      ++q.cnt[c];
      q.order[q.ord_wr] = c;
      q.ord_wr = (q.ord_wr + 1) % order_depth;
    }
    q.ord_cnt = q.ord_cnt + (push ? 1 : 0) - (pop ? 1 : 0);
  }

  Regs q;
};

}  // namespace gs::golden
