// gsched rtl_sched: the project's two Verilated gs_top builds behind RtlModel.
// Vgs_top: -O3, no tracing (rtl/lockstep runs, benchmark). Vgs_top_trace: --trace-fst
// --trace-structs (--wave, and the replay that writes a mismatch's waveform window).
#include "Vgs_top.h"
#include "Vgs_top___024root.h"
#include "Vgs_top_trace.h"
#include "Vgs_top_trace___024root.h"
#include "rtl_sched/gs_top_driver.hpp"
#include "verilated_fst_c.h"

namespace gs::rtl {

std::unique_ptr<RtlModel> make_fast_gs_top() { return std::make_unique<GsTopDriver<Vgs_top>>("Vgs_top"); }

std::unique_ptr<RtlModel> make_traced_gs_top() {
  return std::make_unique<GsTopDriver<Vgs_top_trace, true, VerilatedFstC>>("Vgs_top_trace");
}

}  // namespace gs::rtl
