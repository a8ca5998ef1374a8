// gsched golden twin of rtl/framework/gs_cmd_buffers.sv (Command Buffers, Tanasic Sec. 3.3).
//
// One FIFO of launches per context (CmdBufDepth each) and an arrival-order FIFO of context
// ids; head is the globally oldest launch. All outputs come from registered state (a Moore
// block: comb() takes no input). next(): pop first (the Active Queue took the head), then
// push, as the RTL's next state.
#pragma once
#include <vector>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

class CmdBuffers {
 public:
  struct In {
    bool push = false;  // push_i
    Launch launch;      // push_launch_i
    bool pop = false;   // pop_i
  };
  struct Out {
    bool head_valid = false;  // head_valid_o
    Launch head;              // head_o
    bool ready = false;       // ready_o: every context FIFO has a free entry
  };
  struct Regs {
    std::vector<Launch> fifo;                      // fifo_q [ctx * CmdBufDepth + entry]
    std::vector<uint32_t> rd, cnt;                 // rd_q, cnt_q
    std::vector<uint32_t> order;                   // order_q
    uint32_t ord_rd = 0, ord_wr = 0, ord_cnt = 0;  // ord_rd_q, ord_wr_q, ord_cnt_q
  };
  struct D {
    ArrayD<Launch> fifo;
    ArrayD<uint32_t> rd, cnt, order;
    uint32_t ord_rd = 0, ord_wr = 0, ord_cnt = 0;
  };

  void reset(uint32_t contexts) {
    q = Regs{};
    q.fifo.assign(contexts * CmdBufDepth, Launch{});
    q.rd.assign(contexts, 0);
    q.cnt.assign(contexts, 0);
    q.order.assign(contexts * CmdBufDepth, 0);
    d.fifo.reset(q.fifo.size());
    d.rd.reset(contexts);
    d.cnt.reset(contexts);
    d.order.reset(q.order.size());
  }

  bool head_valid() const { return q.ord_cnt != 0; }
  Launch head() const {
    const uint32_t c = q.order[q.ord_rd];
    return q.fifo[c * CmdBufDepth + q.rd[c]];
  }
  bool ready() const {
    for (uint32_t c : q.cnt)
      if (c == CmdBufDepth) return false;
    return true;
  }
  Out comb() const { return Out{head_valid(), head_valid() ? head() : Launch{}, ready()}; }

  void next(const In& in, D& n) const {
    const uint32_t order_depth = static_cast<uint32_t>(q.order.size());
    const bool pop = in.pop && head_valid();
    n.ord_rd = q.ord_rd;
    n.ord_wr = q.ord_wr;
    if (pop) {
      const uint32_t c = q.order[q.ord_rd];
      n.rd.at(q.rd, c) = (q.rd[c] + 1) % CmdBufDepth;
      n.cnt.at(q.cnt, c) = q.cnt[c] - 1;
      n.ord_rd = (q.ord_rd + 1) % order_depth;
    }
    if (in.push) {
      const uint32_t c = in.launch.ctx;
      // the entry behind the tail: rd + cnt of the registered state is the same slot whether
      // or not this cycle pops context c (a pop moves rd up and cnt down by one)
      n.fifo.at(q.fifo, c * CmdBufDepth + (q.rd[c] + q.cnt[c]) % CmdBufDepth) = in.launch;
      n.cnt.at(q.cnt, c) = n.cnt.get(q.cnt, c) + 1;
      n.order.at(q.order, q.ord_wr) = c;
      n.ord_wr = (q.ord_wr + 1) % order_depth;
    }
    n.ord_cnt = q.ord_cnt + (in.push ? 1 : 0) - (pop ? 1 : 0);
  }
  void commit() {
    d.fifo.commit(q.fifo);
    d.rd.commit(q.rd);
    d.cnt.commit(q.cnt);
    d.order.commit(q.order);
    q.ord_rd = d.ord_rd;
    q.ord_wr = d.ord_wr;
    q.ord_cnt = d.ord_cnt;
  }
  /// One clock edge on its own (block benches, unit tests): next() then commit().
  void clock(const In& in) {
    next(in, d);
    commit();
  }

  Regs q;  // registered state
  D d;     // next state, written by next(), committed by commit()
};

}  // namespace gs::golden
