// gsched unit tests: the scheduler's limits (cmodel/config/limits.hpp check_scheduler_config,
// check_launch), shared by the golden scheduler and the RTL scheduler: bad input is refused
// with an error that names where, the field and the limit.
#include <catch2/catch.hpp>

#include <string>

#include "common/error.hpp"
#include "config/limits.hpp"
#include "golden_harness.hpp"
#include "sched/golden/golden_scheduler.hpp"

using gs::InputError;
using gs::test::launch_cmd;
using gs::test::small_gpu;
namespace limits = gs::limits;

namespace {
/// The message of the InputError `f` throws ("" if it throws none).
template <class F>
std::string input_error(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
bool has(const std::string& m, const std::string& part) { return m.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("scheduler config limits name the SM, the field and the width", "[limits]") {
  const gs::SchedOptions opt;
  CHECK_NOTHROW(limits::check_scheduler_config(small_gpu(4), opt));

  gs::GpuConfig wide = small_gpu(2, 8192);  // 8192 threads: wider than ThreadW
  const std::string m = input_error([&] { limits::check_scheduler_config(wide, opt); });
  INFO(m);
  CHECK(has(m, "config unit-test SM 0"));
  CHECK(has(m, "field 'max_threads'"));
  CHECK(has(m, "8192 exceeds the scheduler's " + std::to_string(gs::spec::ThreadW) + "-bit field (max " +
                   std::to_string(limits::kMaxSmThreads) + ", rtl/spec/gs_spec.toml)"));

  gs::GpuConfig ctas = small_gpu(1, 1536, 32768, 48 * 1024, limits::kMaxCtasPerSm + 1);
  const std::string c = input_error([&] { limits::check_scheduler_config(ctas, opt); });
  INFO(c);
  CHECK(has(c, "field 'max_ctas'"));
  CHECK(has(c, "0.." + std::to_string(limits::kMaxCtasPerSm) + " (MaxCtasPerSm"));

  gs::GpuConfig slots = small_gpu(1, 1536, 32768, 48 * 1024, 8, limits::kMaxActiveKernels + 1);
  CHECK(has(input_error([&] { limits::check_scheduler_config(slots, opt); }), "field 'max_active_kernels'"));

  gs::SchedOptions limit;
  limit.cta_limit = limits::kMaxCtasPerSm + 1;
  const std::string l = input_error([&] { limits::check_scheduler_config(small_gpu(1), limit); });
  CHECK(has(l, "scheduler options: field 'cta_limit'"));
}

TEST_CASE("launch limits name the kernel, the field and the limit", "[limits]") {
  CHECK_NOTHROW(limits::check_launch(launch_cmd(3, 10, 256, 1024, 0), 4));

  const std::string grid = input_error([] {
    limits::check_launch(launch_cmd(3, limits::kMaxGridCtas + 1, 64, 64, 0), 4);
  });
  INFO(grid);
  CHECK(has(grid, "launch of kernel 3: field 'grid': "));
  CHECK(has(grid, std::to_string(limits::kMaxGridCtas)));

  CHECK(has(input_error([] { limits::check_launch(launch_cmd(3, 0, 64, 64, 0), 4); }), "field 'grid'"));
  CHECK(has(input_error([] { limits::check_launch(launch_cmd(3, 1, 64, 64, 0, 0, 0, 4), 4); }),
            "field 'context': 4 is outside 0..3"));
  CHECK(has(input_error([] { limits::check_launch(launch_cmd(gs::kNoKernel, 1, 64, 64, 0), 4); }), "field 'kernel'"));
  CHECK(has(input_error([] { limits::check_launch(launch_cmd(3, 1, 64, 64, 0, 16), 4); }),
            "field 'priority': 16 exceeds the scheduler's"));
  CHECK(has(input_error([] { limits::check_launch(launch_cmd(3, 1, 64, 1u << 17, 0), 4); }),
            "field 'registers per CTA'"));
}

TEST_CASE("the golden scheduler refuses with the shared limits' text", "[limits][golden]") {
  gs::GpuConfig wide = small_gpu(2, 8192);
  gs::SchedOptions opt;
  gs::GoldenScheduler g(opt);
  const std::string m = input_error([&] { g.reset(wide, opt); });
  const std::string shared = input_error([&] { limits::check_scheduler_config(wide, opt); });
  CHECK_FALSE(m.empty());
  CHECK(m == shared);
}
