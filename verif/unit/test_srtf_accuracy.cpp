// gsched tests: the Simple Slicing predictor's accuracy on CTA traces
// (cmodel/metrics/srtf_accuracy.hpp, `gsim accuracy`): hand-worked traces whose Eq. 2 values
// are computed below, the slice-unaware mode, the last-slice filter, the actual-runtime
// choices, the CSV readers and their errors, and a short simulated run.
#include <catch2/catch.hpp>

#include <map>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/srtf_accuracy.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

namespace {
using gs::AccuracyCta;
using gs::AccuracyMode;
using gs::AccuracyPoint;
using gs::AccuracyTrace;

AccuracyTrace one_sm(std::vector<gs::AccuracyKernel> ks, std::vector<AccuracyCta> ctas, uint32_t sms = 1) {
  AccuracyTrace tr;
  tr.group = "test";
  tr.name = "hand";
  tr.num_sms = sms;
  tr.kernels = std::move(ks);
  tr.ctas = std::move(ctas);
  return tr;
}

std::vector<AccuracyPoint> of(const std::vector<AccuracyPoint>& pts, AccuracyMode m, const std::string& kernel = "") {
  std::vector<AccuracyPoint> out;
  for (const AccuracyPoint& p : pts)
    if (p.mode == m && (kernel.empty() || p.kernel == kernel)) out.push_back(p);
  return out;
}
}  // namespace

TEST_CASE("accuracy: R staggered blocks of equal duration predict exactly from the first end", "[accuracy][unit]") {
  // One SM, R = 2 resident, 6 blocks of 100 cycles started 50 apart, each replaced at once:
  // at every end Pred_Cycles = now + (6 - done) * 100 / 2 = 350, the SM's active cycles.
  std::vector<AccuracyCta> ctas;
  for (uint32_t i = 0; i < 6; ++i) ctas.push_back({0, i, 0, 50ull * i, 50ull * i + 100});
  const auto pts = gs::srtf_accuracy(one_sm({{"K", 0, 6}}, ctas));
  const auto ss = of(pts, AccuracyMode::kSliceAware);
  REQUIRE(ss.size() == 6);
  for (const AccuracyPoint& p : ss) {
    CHECK(p.predicted == 350);
    CHECK(p.actual == 350);
    CHECK(p.ratio == 1.0);
    CHECK(p.t == 100);
    CHECK(p.total == 6);
    CHECK(p.last_slice);
  }
  CHECK(ss.front().cycle == 100);
  CHECK(ss.front().resident == 2);
  CHECK(ss.back().resident == 1);  // the last block is not replaced
  const auto un = of(pts, AccuracyMode::kSliceUnaware);
  REQUIRE(un.size() == 1);
  CHECK(un[0].cycle == 100);
  CHECK(un[0].ratio == 1.0);
}

TEST_CASE("accuracy: synchronous waves show Eq. 2's linear (not staircase) remainder", "[accuracy][unit]") {
  // Two waves of R = 2 blocks, 0-100 and 100-200. At cycle 100 the second end sees one block
  // resident (the first is not yet replaced: ends come before starts in a cycle):
  //   end 0: 100 + 3*100/2 = 250;  end 1: 100 + 2*100/1 = 300;
  //   end 2: 200 + 1*100/2 = 250;  end 3: 200 + 0 = 200;   actual 200.
  const auto pts = gs::srtf_accuracy(
      one_sm({{"K", 0, 4}}, {{0, 0, 0, 0, 100}, {0, 1, 0, 0, 100}, {0, 2, 0, 100, 200}, {0, 3, 0, 100, 200}}));
  const auto ss = of(pts, AccuracyMode::kSliceAware);
  REQUIRE(ss.size() == 4);
  std::vector<uint64_t> pred;
  for (const auto& p : ss) pred.push_back(p.predicted);
  CHECK(pred == std::vector<uint64_t>{250, 300, 250, 200});
  CHECK(ss[0].ratio == 1.25);
  CHECK(ss[1].ratio == 1.5);
  CHECK(ss[3].ratio == 1.0);
  CHECK(ss[0].actual == 200);
  const auto un = of(pts, AccuracyMode::kSliceUnaware);
  REQUIRE(un.size() == 1);
  CHECK(un[0].ratio == 1.25);
}

TEST_CASE("accuracy: one slice-unaware prediction per kernel and SM; Total_Blocks = ceil(grid / N_SM)",
          "[accuracy][unit]") {
  // 5 blocks on 2 SMs: Total_Blocks = 3 on both; SM 0 runs 3 blocks, SM 1 two, one at a time.
  const auto pts = gs::srtf_accuracy(
      one_sm({{"K", 0, 5}},
             {{0, 0, 0, 0, 100}, {0, 1, 1, 0, 100}, {0, 2, 0, 100, 200}, {0, 3, 1, 100, 200}, {0, 4, 0, 200, 300}}, 2));
  const auto un = of(pts, AccuracyMode::kSliceUnaware);
  REQUIRE(un.size() == 2);
  CHECK(un[0].sm == 0);
  CHECK(un[1].sm == 1);
  for (const auto& p : un) {
    CHECK(p.total == 3);
    CHECK(p.predicted == 300);  // 100 + (3 - 1) * 100 / 1
  }
  CHECK(un[0].ratio == 1.0);  // SM 0 ran its 3 blocks: 300 cycles
  CHECK(un[1].ratio == 1.5);  // SM 1 ran 2: 200 cycles, the estimate of 3 was one too many
  CHECK(of(pts, AccuracyMode::kSliceAware).size() == 5);
  const auto last1 = of(pts, AccuracyMode::kSliceAware).back();  // SM 1's second end: 200 + (3-2)*100
  CHECK(last1.sm == 1);
  CHECK(last1.predicted == 300);

  SECTION("turnaround: the kernel's last CTA end - arrival, on every SM") {
    gs::AccuracyOptions opt;
    opt.actual = gs::ActualRuntime::kTurnaround;
    const auto t = gs::srtf_accuracy(
        one_sm({{"K", 0, 5}},
               {{0, 0, 0, 0, 100}, {0, 1, 1, 0, 100}, {0, 2, 0, 100, 200}, {0, 3, 1, 100, 200}, {0, 4, 0, 200, 300}},
               2),
        opt);
    for (const auto& p : t) CHECK(p.actual == 300);
  }
}

TEST_CASE("accuracy: slices of a two-kernel trace and the last-slice filter", "[accuracy][unit]") {
  // One SM. A: 3 blocks one at a time, 0-100, 100-200, 200-400. B arrives at 150, one block
  // 150-250, and ends at 250. Slices of A: from its launch, from B's launch (t re-sampled at
  // A's next end: 100), from B's end (t = 200 at A's last end).
  //   A end 100: 100 + 2*100 = 300;  end 200: 200 + 1*100 = 300;  end 400: 400 + 0 = 400; actual 400.
  const AccuracyTrace tr = one_sm({{"A", 0, 3}, {"B", 150, 1}},
                                  {{0, 0, 0, 0, 100}, {0, 1, 0, 100, 200}, {0, 2, 0, 200, 400}, {1, 0, 0, 150, 250}});
  const auto pts = gs::srtf_accuracy(tr);
  const auto a = of(pts, AccuracyMode::kSliceAware, "A");
  REQUIRE(a.size() == 3);
  CHECK(a[0].predicted == 300);
  CHECK(a[1].predicted == 300);
  CHECK(a[2].predicted == 400);
  CHECK(a[0].t == 100);
  CHECK(a[1].t == 100);
  CHECK(a[2].t == 200);
  CHECK(a[0].ratio == 0.75);
  CHECK((!a[0].last_slice && !a[1].last_slice && a[2].last_slice));
  const auto b = of(pts, AccuracyMode::kSliceAware, "B");
  REQUIRE(b.size() == 1);
  CHECK(b[0].last_slice);  // A's end comes after B's last block: B has one slice
  CHECK(b[0].ratio == 1.0);

  gs::AccuracyOptions last;
  last.last_slice_only = true;
  const auto f = gs::srtf_accuracy(tr, last);
  const auto fa = of(f, AccuracyMode::kSliceAware, "A");
  REQUIRE(fa.size() == 1);
  CHECK(fa[0].cycle == 400);
  CHECK(of(f, AccuracyMode::kSliceAware, "B").size() == 1);
  // the slice-unaware predictions stay: one per kernel on the SM, A's made at its first end
  const auto un = of(f, AccuracyMode::kSliceUnaware);
  REQUIRE(un.size() == 2);
  CHECK(un[0].kernel == "A");
  CHECK(un[0].ratio == 0.75);
}

TEST_CASE("accuracy: summary quartiles and the 0.5x..2x share", "[accuracy][unit]") {
  std::vector<AccuracyPoint> pts;
  for (double r : {0.4, 1.0, 2.0, 3.0, 1.0}) {
    AccuracyPoint p;
    p.group = "g";
    p.kernel = "K";
    p.ratio = r;
    pts.push_back(p);
  }
  const auto s = gs::summarize_accuracy(pts);
  REQUIRE(s.size() == 1);
  CHECK(s[0].n == 5);
  CHECK(s[0].min == 0.4);
  CHECK(s[0].q1 == 1.0);
  CHECK(s[0].median == 1.0);
  CHECK(s[0].q3 == 2.0);
  CHECK(s[0].max == 3.0);
  CHECK(s[0].within == Approx(0.6));
  const std::string table = gs::format_accuracy_summary(s);
  CHECK(table.find("60.0%") != std::string::npos);
  CHECK(gs::format_accuracy_csv({}).rfind("group,trace,kernel,sm,cycle,mode,ratio,", 0) == 0);
}

TEST_CASE("accuracy: inconsistent traces and bad CSV are input errors naming the place", "[accuracy][unit]") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(gs::srtf_accuracy(one_sm({{"K", 0, 1}}, {{0, 0, 3, 0, 100}})), Contains("SM 3"));
  CHECK_THROWS_WITH(gs::srtf_accuracy(one_sm({{"K", 0, 1}}, {{0, 0, 0, 100, 50}})), Contains("before it starts"));
  CHECK_THROWS_WITH(gs::srtf_accuracy(one_sm({{"K", 50, 1}}, {{0, 0, 0, 0, 100}})),
                    Contains("before the kernel arrives"));
  CHECK_THROWS_WITH(gs::srtf_accuracy(one_sm({{"K", 0, 0}}, {{0, 0, 0, 0, 100}})), Contains("grid of 0"));
  CHECK_THROWS_WITH(gs::srtf_accuracy(one_sm({{"K", 0, 1}, {"L", 0, 1}}, {{0, 0, 0, 0, 100}})),
                    Contains("no CTA of it"));
  std::vector<AccuracyCta> many;
  for (uint32_t i = 0; i <= gs::spec::MaxCtasPerSm; ++i) many.push_back({0, i, 0, 0, 100});
  CHECK_THROWS_WITH(gs::srtf_accuracy(one_sm({{"K", 0, 64}}, many)), Contains("CTAs resident at cycle 0"));

  const std::vector<gs::AccuracyKernel> ks = {{"K", 0, 4}};
  CHECK_THROWS_WITH(gs::parse_cta_csv("kernel,sm\n", "f.csv", ks, 2, "g"), Contains("f.csv line 1: header"));
  CHECK_THROWS_WITH(gs::parse_cta_csv("kernel,cta,sm,start_cycle,end_cycle\nK,0,1,x,5\n", "f.csv", ks, 2, "g"),
                    Contains("f.csv line 2: field 'start_cycle' is 'x'"));
  CHECK_THROWS_WITH(gs::parse_cta_csv("kernel,cta,sm,start_cycle,end_cycle\nK,0,2,0,5\n", "f.csv", ks, 2, "g"),
                    Contains("field 'sm' is 2"));
  CHECK_THROWS_WITH(gs::parse_cta_csv("kernel,cta,sm,start_cycle,end_cycle\nQ,0,1,0,5\n", "f.csv", ks, 2, "g"),
                    Contains("field 'kernel' is 'Q'"));
  CHECK_THROWS_WITH(gs::parse_cta_csv("kernel,cta,sm,start_cycle,end_cycle\nK,0,1,0\n", "f.csv", ks, 2, "g"),
                    Contains("4 fields"));
  CHECK_THROWS_AS(gs::parse_h100_alone_csv("run,pos,kernel\n", "alone.csv", "single-gpu"), gs::InputError);
}

TEST_CASE("accuracy: the CSV readers give the trace the replay needs", "[accuracy][unit]") {
  const AccuracyTrace tr = gs::parse_cta_csv("kernel,cta,sm,start_cycle,end_cycle\r\nK,1,1,10,60\r\nK,0,0,0,50\r\n",
                                             "f.csv", {{"K", 0, 2}}, 2, "g");
  REQUIRE(tr.ctas.size() == 2);
  CHECK(tr.ctas[0].sm == 1);
  CHECK(tr.ctas[0].end_cycle == 60);
  CHECK(tr.num_sms == 2);

  const auto h = gs::parse_h100_alone_csv(
      "run,pos,kernel,block,sm,start_ns,end_ns\n0,0,compute,0,0,0,100\n0,0,compute,1,1,0,100\n"
      "1,0,sfu,0,1,0,40\n1,0,sfu,1,1,40,80\n",
      "alone.csv", "single-gpu");
  REQUIRE(h.size() == 2);
  CHECK(h[0].kernels.size() == 1);
  CHECK(h[0].kernels[0].name == "h100.compute");
  CHECK(h[0].kernels[0].grid_ctas == 2);
  CHECK(h[1].num_sms == 2);  // the highest SM index of the file + 1
  CHECK(h[1].group == "single-gpu");
  const auto pts = gs::srtf_accuracy(h[1]);  // sfu: 2 blocks one after the other on SM 1, Total_Blocks 1
  const auto ss = of(pts, AccuracyMode::kSliceAware);
  REQUIRE(ss.size() == 2);
  CHECK(ss[0].predicted == 40);  // Total_Blocks = ceil(2 / 2) = 1: nothing left after the first
  CHECK(ss[0].ratio == 0.5);
}

TEST_CASE("accuracy: a simulated run, replayed, ends every SM that ran its share exactly on time", "[accuracy][unit]") {
  const gs::GpuConfig cfg = gs::load_gpu_config("pai-gtx480");
  const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  gs::Mix mix;
  mix.name = "kernel:test.compute";
  gs::MixEntry e;
  e.kernel = "test.compute";
  e.desc = gs::find_kernel(lib, e.kernel);
  mix.kernels.push_back(e);
  gs::RunOptions ro;
  ro.sched.policy = "left-over";
  auto sched = gs::make_scheduler("golden", ro.sched);
  gs::Gpu gpu(cfg, mix, *sched, ro);
  const gs::RunResult r = gpu.run();
  const AccuracyTrace tr = gs::trace_from_run(r, mix, cfg.num_sms(), "single-sim", mix.name);
  REQUIRE(tr.ctas.size() == e.desc.grid_ctas);
  const auto pts = gs::srtf_accuracy(tr);
  std::map<uint32_t, AccuracyPoint> last;  // per SM, the last SS prediction
  std::map<uint32_t, uint32_t> unaware;
  for (const AccuracyPoint& p : pts) {
    CHECK(p.ratio > 0);
    if (p.mode == AccuracyMode::kSliceAware) last[p.sm] = p;
    else ++unaware[p.sm];
  }
  CHECK(!last.empty());
  for (const auto& [sm, n] : unaware) CHECK(n == 1);
  for (const auto& [sm, p] : last) {
    INFO("SM " << sm);
    if (p.done >= p.total) CHECK(p.ratio == 1.0);  // Pred_Cycles = Active_Kernel_Cycles = actual
    else CHECK(p.ratio > 1.0);                     // fewer blocks than ceil(grid / N_SM) ran here
  }
  CHECK(gs::srtf_accuracy(tr).size() == pts.size());  // deterministic
}
