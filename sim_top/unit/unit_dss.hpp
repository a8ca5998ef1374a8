// gsched: the DSS decision unit run alone (`gsim unit dss`), one environment for every side.
//
// run_dss_unit() parses and validates the JSON state (docs/rtl/dss.md), loads it into the golden
// twins of the KSRT, SMST and Active Queue, and clocks a DssUnit -- an implementation of
// gs_policy_dss -- inside them as gs_top wires it: each cycle the unit sees the tables, the
// preemption control (golden gs_preempt_ctrl accept rule) answers its request, and its owner
// write, token update and accepted reservation are clocked into the SMST and KSRT. An accepted
// preemption only reserves its SM (no GPU: it never completes). The run ends when the unit has
// been idle for a whole cycle (after the event's trigger on cycle 0); the result is
// {"cycles", "actions", "tokens", "sms"}.
// Sides: GoldenDssUnit (golden::DssUnitTwin, here) and the Verilated gs_policy_dss
// (sim_top/rtl_sched/unit_dss_rtl.hpp), so both are driven by this one loop.
// Throws InputError for a malformed input or a unit still busy after max_cycles (exit 2).
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sched/golden/gs_active_queue.hpp"
#include "sched/golden/gs_ksrt.hpp"
#include "sched/golden/gs_dss_unit.hpp"
#include "sched/golden/gs_smst.hpp"

namespace gs {

/// What gs_policy_dss sees in one cycle (gs_top's wiring; the tables are the golden twins).
struct DssUnitInputs {
  uint32_t num_sms = 0;                     // cfg_num_sms_i
  bool trigger = false;                     // trigger_i
  uint32_t pending = 0;                     // pending_i: slots with CTAs left to issue
  const golden::Ksrt* ksrt = nullptr;       // ksrt_i
  const golden::ActiveQueue* aq = nullptr;  // rank_i
  const golden::Smst* smst = nullptr;       // smst_i, resident_i
};

/// Combinational decisions of one cycle that do not depend on the preemption's acceptance.
struct DssUnitDecision {
  golden::OwnerWr owner_wr;  // owner_wr_o
  golden::PreemptReq req;    // req_o
};

/// One implementation of gs_policy_dss (en_i = 1 throughout), driven cycle by cycle:
/// eval() -> tokens() -> clock(). The inputs of eval() stay valid until clock() returns.
class DssUnit {
 public:
  virtual ~DssUnit() = default;
  /// Reset (rst_ni low); afterwards the unit sleeps until a trigger.
  virtual void reset() = 0;
  /// Applies this cycle's inputs and returns the decisions.
  virtual DssUnitDecision eval(const DssUnitInputs& in) = 0;
  /// tok_o once the preemption control answered the request (accept_i).
  virtual golden::TokenUpd tokens(bool accepted) = 0;
  /// Rising edge: the unit's registers take the inputs of the last eval().
  virtual void clock() = 0;
  /// A pass is in flight (FSM not in IDLE).
  virtual bool busy() const = 0;
};

/// The golden twin behind DssUnit.
class GoldenDssUnit final : public DssUnit {
 public:
  void reset() override;
  DssUnitDecision eval(const DssUnitInputs& in) override;
  golden::TokenUpd tokens(bool accepted) override;
  void clock() override;
  bool busy() const override;

 private:
  golden::DssUnitTwin dss_;
  DssUnitInputs in_;
  golden::DssUnitTwin::Out out_;
};

/// Runs `unit` on the JSON state `input` (file names the input in errors); see the file comment.
nlohmann::json run_dss_unit(DssUnit& unit, const nlohmann::json& input, const std::string& file);

}  // namespace gs
