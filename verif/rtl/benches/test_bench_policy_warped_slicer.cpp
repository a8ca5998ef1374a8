// gs_policy_warped_slicer against its golden twin with tables that hold still long enough for
// whole profiling phases (the generated bench in gs_policy_benches.cpp changes the kernel set
// every few cycles, so it mostly exercises restarts): every phase -- occupancy, the profile
// setup, CTA_avg, warm-up, sample, read-out with phi_mem, water-filling and the partition -- is
// compared output by output and register by register every cycle (policy_bench.hpp).
#include <catch2/catch.hpp>

#include "Vbench_gs_policy_warped_slicer.h"
#include "policy_bench.hpp"

using gs::bench::PolicyBench;

TEST_CASE("gs_policy_warped_slicer: whole profiling phases against its golden twin", "[rtl][bench][policy]") {
  for (uint32_t sms : {3u, 5u, 16u, gs::spec::MaxSms}) {
    PolicyBench<Vbench_gs_policy_warped_slicer> b(gs::Policy::kWarpedSlicer, 91 + sms, sms);
    b.set_slot_free_permille(1);
    b.run(40000, /*mutate_permille=*/2);
    INFO(sms << " SMs: " << b.quota_writes() << " quota writes, " << b.owner_writes() << " owner writes");
    // every SM gets an owner and a quota per profiling round, and quotas again per partition
    CHECK(b.owner_writes() > 4 * sms);
    CHECK(b.quota_writes() > b.owner_writes());
  }
}
