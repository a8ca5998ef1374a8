// gsched rtl_sched: registers the Verilated scheduler kinds with the scheduler factory.
//
// gsim includes this header under __has_include("rtl_sched/register.hpp") and calls
// gs::register_rtl_schedulers() when GS_HAVE_RTL is defined (a PUBLIC definition of the
// gs_rtl_sched library), so a build without Verilator simply lacks the two kinds:
//   "rtl"       RtlScheduler over Vgs_top (SchedOptions::wave_file -> traced Vgs_top_trace)
//   "lockstep"  LockstepScheduler: golden reference vs. Vgs_top, checked every cycle
// and the unit side "rtl" of `gsim unit` (Vgs_policy_dss, rtl_sched/unit_dss_rtl.hpp;
// Vgs_waterfill, rtl_sched/unit_waterfill_rtl.hpp).
// Calling it more than once is harmless (re-registering replaces).
#pragma once

namespace gs {

void register_rtl_schedulers();

}  // namespace gs
