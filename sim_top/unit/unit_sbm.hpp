// gsched: SBM's profiling flow (gs_sbm_ctrl, Algorithms 1 and 2) run alone (`gsim unit sbm`).
//
// parse_sbm() validates the JSON input (docs/rtl/gs_sbm_ctrl.md, "gsim unit sbm"):
//   {"occupancy": [occ1, occ2],          workgroups of each task that fit one SM alone
//    "window_cycles": W,                 optional (25000): a phase's window; IPC x W = instructions
//    "ipc": {"Base": [ipc1, ipc2], "B1_L12": [..], "B2_L12": [..], "B1_L2": [..], "B2_L2": [..],
//            "MWG" | "MWGB1" | "MWGB2": [[ipc1, ipc2] for occ_th 0, 1, ...]}}
// the IPC of each task under each configuration the flow may run. run_sbm_unit() runs one side
// -- the golden SbmCtrl here, the Verilated gs_sbm_ctrl (sim_top/rtl_sched/unit_sbm_rtl.hpp) --
// from a start pulse through every phase it asks for, and reports {"phases": [{"phase", "ipc"}],
// "sbm_reg": {"config", "arch_cfg", "f", "ci", "occ_th"}, "cycles"}. Throws InputError naming the
// file and field (exit 2) for a malformed input or a phase the flow needs and the input lacks.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sched/golden/gs_sbm_ctrl.hpp"
#include "sched/golden/gs_sbm_smc.hpp"

namespace gs {

/// A phase's measurement: both tasks' instructions under a configuration.
using SbmMeasure = std::function<void(const SbmReg&, uint64_t&, uint64_t&)>;

/// One implementation of gs_sbm_ctrl, clocked from a start pulse until busy_o falls.
class SbmCtrlUnit {
 public:
  virtual ~SbmCtrlUnit() = default;
  /// Reset, start with the occupancies, one result per phase (from measure(cfg_o)) in the
  /// cycle after the phase's cfg_o is read; returns SBM_REG, the phases' configurations and
  /// the cycles from start to busy_o low.
  virtual SbmReg run(uint32_t occ1, uint32_t occ2, const SbmMeasure& measure, std::vector<SbmReg>& phases,
                     uint32_t& cycles) = 0;
};

/// The golden twin behind SbmCtrlUnit.
class GoldenSbmCtrlUnit final : public SbmCtrlUnit {
 public:
  SbmReg run(uint32_t occ1, uint32_t occ2, const SbmMeasure& measure, std::vector<SbmReg>& phases,
             uint32_t& cycles) override;

 private:
  golden::SbmCtrl twin_;
};

/// Runs `unit` on the JSON input (file names it in errors); see the file comment.
nlohmann::json run_sbm_unit(SbmCtrlUnit& unit, const nlohmann::json& input, const std::string& file);

}  // namespace gs
