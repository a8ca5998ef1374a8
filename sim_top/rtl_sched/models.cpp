// gsched rtl_sched: the project's two Verilated gs_top builds behind RtlModel.
// Vgs_top: -O3, no tracing (rtl/lockstep runs, benchmark). Vgs_top_trace: --trace-fst
// --trace-structs (--wave, the replay that writes a mismatch's waveform window). Both it and
// Vgs_top_mutants (-O1, untraced) are built with GS_MUTANTS: the lockstep mutants' switches,
// off unless a +GS_MUT_<X> plusarg is given (docs/rtl/mutations.md).
#include "Vgs_top.h"
#include "Vgs_top___024root.h"
#include "Vgs_top_mutants.h"
#include "Vgs_top_mutants___024root.h"
#include "Vgs_top_trace.h"
#include "Vgs_top_trace___024root.h"
#include "rtl_sched/gs_top_driver.hpp"
#include "verilated_fst_c.h"

namespace gs::rtl {

std::unique_ptr<RtlModel> make_fast_gs_top() { return std::make_unique<GsTopDriver<Vgs_top>>("Vgs_top"); }

std::unique_ptr<RtlModel> make_traced_gs_top() {
  return std::make_unique<GsTopDriver<Vgs_top_trace, true, VerilatedFstC>>("Vgs_top_trace");
}

std::unique_ptr<RtlModel> make_mutant_gs_top(const std::string& mutant, bool traced) {
  const std::string plusarg = mutant.empty() ? std::string() : "+" + mutant;
  if (traced) return std::make_unique<GsTopDriver<Vgs_top_trace, true, VerilatedFstC>>("Vgs_top_trace", plusarg);
  return std::make_unique<GsTopDriver<Vgs_top_mutants>>("Vgs_top_mutants", plusarg);
}

}  // namespace gs::rtl
