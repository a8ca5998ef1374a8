// gsched cosim: one co-simulation case -- a mix on a config under a scheduler -- and its outcome.
//
// Contract: run_case() builds the scheduler with `make(opt)`, runs gs::Gpu to the end and
// classifies how it ended: kPass, kMismatch (CheckMismatch: the lockstep checker), kInvariant
// (InvariantError: the model's capacity / exactly-once checks or an RTL assertion), kWatchdog,
// kInputError. It never throws for those; the message is kept for the report. Statistics
// (cycles, decisions checked) come back when the scheduler is a LockstepScheduler.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "config/gpu_config.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace gs::cosim {

enum class Outcome { kPass, kMismatch, kInvariant, kWatchdog, kInputError };
const char* outcome_name(Outcome o);

struct CaseResult {
  Outcome outcome = Outcome::kPass;
  uint64_t cycles = 0;               // simulated cycles (until the end or the failure)
  uint64_t decisions_checked = 0;    // lockstep only
  std::string message;               // what the failure said
};

using SchedMaker = std::function<std::unique_ptr<SchedulerPort>(const SchedOptions&)>;

CaseResult run_case(const GpuConfig& cfg, const Mix& mix, const SchedOptions& opt, const SchedMaker& make,
                    uint64_t max_cycles = 20'000'000);

}  // namespace gs::cosim
