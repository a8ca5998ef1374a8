// gsched rtl_sched: "rtl" and "lockstep" scheduler kinds, and the "rtl" side of `gsim unit`
// (see register.hpp).
#include "rtl_sched/register.hpp"

#include "rtl_sched/lockstep_scheduler.hpp"
#include "rtl_sched/rtl_scheduler.hpp"
#include "rtl_sched/unit_dss_rtl.hpp"
#include "rtl_sched/unit_hetero_rtl.hpp"
#include "rtl_sched/unit_sbm_rtl.hpp"
#include "rtl_sched/unit_waterfill_rtl.hpp"
#include "unit/unit_runner.hpp"

namespace gs {

void register_rtl_schedulers() {
  register_scheduler_kind("rtl", [](const SchedOptions& opt) -> std::unique_ptr<SchedulerPort> {
    return make_rtl_scheduler(opt);
  });
  register_scheduler_kind("lockstep", [](const SchedOptions& opt) -> std::unique_ptr<SchedulerPort> {
    return make_lockstep_scheduler(opt);
  });
  register_unit_side("rtl", [](const std::string& block, const nlohmann::json& input) -> nlohmann::json {
    if (block == "waterfill") return rtl::run_rtl_waterfill_unit(input);
    if (block == "sbm") return rtl::run_rtl_sbm_unit(input);
    if (block == "hetero") return rtl::run_rtl_hetero_unit(input);
    return rtl::run_rtl_unit(block, input);  // dss, or null
  });
}

}  // namespace gs
