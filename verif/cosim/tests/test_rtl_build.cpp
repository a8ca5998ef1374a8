// gsched cosim tests: the RTL build's parameters, encodings and limits agree with the C++ side.
//
// rtl/spec/gs_spec.toml is the one source of truth: gen_spec.py writes gs_pkg.sv and gs_spec.hpp
// (gs_rtl_params.hpp); CMake reads the port widths back from the Verilated header (gs_rtl_ports.hpp). These tests compare both with
// the Verilated model's own view (the /*verilator public*/ params) and with scheduler_port.hpp,
// and check that configs and launches beyond the RTL are refused, not truncated.
#include <catch2/catch.hpp>
#include <string>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gs_rtl_params.hpp"
#include "gs_rtl_ports.hpp"
#include "rtl_sched/rtl_limits.hpp"
#include "sched/scheduler_port.hpp"

#if __has_include("Vgs_top_gs_pkg.h")
#include "Vgs_top_gs_pkg.h"
#define GS_HAVE_PUBLIC_PKG 1
#endif

namespace {

gs::GpuConfig small_config(uint32_t sms) {
  gs::GpuConfig cfg;
  cfg.name = "test-" + std::to_string(sms) + "sm";
  cfg.sm_types.resize(1);
  cfg.sm_types[0].count = sms;
  cfg.sm_type_of.assign(sms, 0);
  cfg.max_active_kernels = gs::rtl::MaxKernels;
  cfg.max_contexts = gs::rtl::MaxContexts;
  return cfg;
}

gs::LaunchCmd ok_launch() {
  gs::LaunchCmd l;
  l.valid = true;
  l.kernel = 3;
  l.ctx = 1;
  l.prio = 2;
  l.tokens = 10;
  l.threads = 256;
  l.warps = 8;
  l.regs = 8192;
  l.shmem = 4096;
  l.grid = 100;
  return l;
}

std::string refusal(const gs::LaunchCmd& l) {
  try {
    gs::rtl::check_launch(l);
  } catch (const gs::InputError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("Verilated gs_pkg parameters equal the generated C++ header", "[cosim][params]") {
#ifdef GS_HAVE_PUBLIC_PKG
  int compared = 0;
#define GS_CHECK_PARAM(name)                                           \
  CHECK(static_cast<uint64_t>(Vgs_top_gs_pkg::name) == gs::rtl::name); \
  ++compared;
  GS_RTL_PUBLIC_PARAMS(GS_CHECK_PARAM)
#undef GS_CHECK_PARAM
  CHECK(compared >= 3);
#else
  FAIL("rtl/spec/gs_spec.toml marks no parameter public: the Verilated model exposes none");
#endif
}

TEST_CASE("gs_top port widths follow gs_pkg parameters", "[cosim][params]") {
  using namespace gs::rtl;
  CHECK(port_width::launch_kernel_i == KernelIdW);
  CHECK(port_width::dispatch_kernel_o == KernelIdW);
  CHECK(port_width::preempt_victim_o == KernelIdW);
  CHECK(port_width::dispatch_sm_o == SmIdW);
  CHECK(port_width::event_sm_i == SmIdW);
  CHECK(port_width::dispatch_cta_o == CtaIdW);
  CHECK(port_width::event_cta_i == CtaIdW);
  CHECK(port_width::launch_prio_i == PrioW);
  CHECK(port_width::launch_tokens_i == TokenW);
  CHECK(port_width::cfg_type_threads_i == MaxSmTypes * ThreadW);
  CHECK(port_width::cfg_type_regs_i == MaxSmTypes * RegW);
  CHECK(port_width::cfg_type_shmem_i == MaxSmTypes * ShmemW);
  CHECK(port_width::cfg_type_ctas_i == MaxSmTypes * CtaCntW);
  CHECK(port_width::cfg_type_big_i == MaxSmTypes);
  CHECK(port_width::cfg_sm_type_i == MaxSms * SmTypeW);
  // kNoKernel travels as all ones of KernelIdW.
  CHECK(NoKernel == (1u << KernelIdW) - 1);
}

TEST_CASE("RTL enum encodings equal the C++ port enums", "[cosim][params]") {
  using gs::rtl::EnumMember;
  const EnumMember* ev = gs::rtl::kSmEventTypeMembers;
  REQUIRE(std::size(gs::rtl::kSmEventTypeMembers) == 4);
  CHECK(ev[0].value == unsigned(gs::SmEventType::kNone));
  CHECK(ev[1].value == unsigned(gs::SmEventType::kCtaFinished));
  CHECK(ev[2].value == unsigned(gs::SmEventType::kCtaSaved));
  CHECK(ev[3].value == unsigned(gs::SmEventType::kPreemptDone));
  REQUIRE(std::size(gs::rtl::kPreemptModeMembers) == 2);
  CHECK(gs::rtl::kPreemptModeMembers[0].value == unsigned(gs::PreemptMode::kDrain));
  CHECK(gs::rtl::kPreemptModeMembers[1].value == unsigned(gs::PreemptMode::kSwitch));
  REQUIRE(std::size(gs::rtl::kBypassLevelMembers) == 4);
  CHECK(gs::rtl::kBypassLevelMembers[0].value == unsigned(gs::BypassLevel::kNone));
  CHECK(gs::rtl::kBypassLevelMembers[1].value == unsigned(gs::BypassLevel::kL1));
  CHECK(gs::rtl::kBypassLevelMembers[2].value == unsigned(gs::BypassLevel::kL1L2));
  CHECK(gs::rtl::kBypassLevelMembers[3].value == unsigned(gs::BypassLevel::kL2));
}

TEST_CASE("every golden policy has an RTL encoding", "[cosim][params]") {
  for (const auto& p : gs::list_scheduler_policies()) {
    INFO("policy " << p);
    CHECK_NOTHROW(gs::rtl::policy_code(p));
  }
  CHECK(gs::rtl::policy_code("left-over") == 0);
  CHECK_THROWS_AS(gs::rtl::policy_code("no-such-policy"), gs::InputError);
}

TEST_CASE("a config beyond the RTL build is refused with the parameter named", "[cosim][params]") {
  gs::SchedOptions opt;
  CHECK_NOTHROW(gs::rtl::to_port_config(small_config(gs::rtl::MaxSms), opt));
  try {
    gs::rtl::to_port_config(small_config(gs::rtl::MaxSms + 8), opt);
    FAIL("a config with too many SMs was accepted");
  } catch (const gs::InputError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("MaxSms=" + std::to_string(gs::rtl::MaxSms)) != std::string::npos);
    CHECK(msg.find(std::to_string(gs::rtl::MaxSms + 8) + " SMs") != std::string::npos);
  }
  gs::GpuConfig kernels = small_config(4);
  kernels.max_active_kernels = gs::rtl::MaxKernels * 2;
  CHECK_THROWS_AS(gs::rtl::to_port_config(kernels, opt), gs::InputError);
  gs::GpuConfig regs = small_config(4);
  regs.sm_types[0].registers = 1u << gs::rtl::RegW;  // one past the port's range
  // the scheduler's own field check (limits::check_scheduler_config, the golden's text)
  CHECK_THROWS_WITH(gs::rtl::to_port_config(regs, opt),
                    Catch::Contains("field 'registers'") &&
                        Catch::Contains(std::to_string(gs::rtl::RegW) + "-bit field (max " +
                                        std::to_string((1u << gs::rtl::RegW) - 1)));
  gs::GpuConfig slots = small_config(4);
  slots.sm_types[0].max_ctas = gs::rtl::MaxCtasPerSm + 1;
  CHECK_THROWS_AS(gs::rtl::to_port_config(slots, opt), gs::InputError);
}

TEST_CASE("gs_top holds the SMs by type: MaxSmTypes distinct types fit, one more is refused", "[cosim][params]") {
  gs::SchedOptions opt;
  const uint32_t n = gs::rtl::MaxSmTypes + 1;
  // n config types, one SM each (SM s has s + 1 CTA slots) ...
  gs::GpuConfig cfg = small_config(n);
  cfg.sm_types.resize(n);
  for (uint32_t t = 0; t < n; ++t) {
    cfg.sm_types[t].count = 1;
    cfg.sm_types[t].max_ctas = t + 1;
    cfg.sm_type_of[t] = t;
  }
  try {
    gs::rtl::to_port_config(cfg, opt);
    FAIL("a config with more SM types than MaxSmTypes was accepted");
  } catch (const gs::InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("MaxSmTypes=" + std::to_string(gs::rtl::MaxSmTypes)) &&
                             Catch::Contains(std::to_string(n) + " distinct SM types in sm_types"));
  }
  // ... the same with the last type a copy of the first: one type on gs_top, SMs 0 and n-1 name it
  cfg.sm_types[n - 1].max_ctas = 1;
  const gs::rtl::PortConfig pc = gs::rtl::to_port_config(cfg, opt);
  REQUIRE(pc.type_ctas.size() == gs::rtl::MaxSmTypes);
  CHECK(pc.sm_type.size() == n);
  CHECK(pc.sm_type[0] == 0);
  CHECK(pc.sm_type[n - 1] == 0);
  CHECK(pc.sm_type[1] == 1);
  CHECK(pc.type_ctas[1] == 2);
}

TEST_CASE("a launch beyond the RTL ports is refused not truncated", "[cosim][params]") {
  CHECK(refusal(ok_launch()).empty());
  gs::LaunchCmd ctx = ok_launch();
  ctx.ctx = gs::rtl::MaxContexts;
  CHECK_THAT(refusal(ctx),
             Catch::Contains("field 'context'") && Catch::Contains("0.." + std::to_string(gs::rtl::MaxContexts - 1)));
  gs::LaunchCmd grid = ok_launch();
  grid.grid = (1u << gs::rtl::CtaIdW) + 1;  // its last CTA id does not fit cta_id_t
  CHECK_FALSE(refusal(grid).empty());
  gs::LaunchCmd kernel = ok_launch();
  kernel.kernel = gs::rtl::NoKernel;  // the RTL's "none" is not a usable id
  CHECK_THAT(refusal(kernel), Catch::Contains("KernelIdW"));
  gs::LaunchCmd prio = ok_launch();
  prio.prio = 1u << gs::rtl::PrioW;
  CHECK_THAT(refusal(prio),
             Catch::Contains("field 'priority'") && Catch::Contains(std::to_string(gs::rtl::PrioW) + "-bit field"));
}
