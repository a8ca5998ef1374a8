// gsched rtl_sched: "rtl" and "lockstep" scheduler kinds, and the "rtl" side of `gsim unit`
// (see register.hpp).
#include "rtl_sched/register.hpp"

#include "rtl_sched/lockstep_scheduler.hpp"
#include "rtl_sched/rtl_scheduler.hpp"
#include "rtl_sched/unit_dss_rtl.hpp"
#include "unit/unit_runner.hpp"

namespace gs {

void register_rtl_schedulers() {
  register_scheduler_kind("rtl", [](const SchedOptions& opt) -> std::unique_ptr<SchedulerPort> {
    return make_rtl_scheduler(opt);
  });
  register_scheduler_kind("lockstep", [](const SchedOptions& opt) -> std::unique_ptr<SchedulerPort> {
    return make_lockstep_scheduler(opt);
  });
  register_unit_side("rtl", rtl::run_rtl_unit);
}

}  // namespace gs
