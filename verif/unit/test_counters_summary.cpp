// gsched unit tests: the end-of-run counter summary (metrics/counters_summary.hpp) and its
// reports (metrics/counters_report.hpp) -- definitions on a hand-made run, consistency on whole
// runs of the model (golden scheduler), the preemption and context counters of both
// mechanisms, DRAM row-buffer hits, and byte-identical reports of identical runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "gpu/mem/dram_channel.hpp"
#include "metrics/counters_report.hpp"
#include "metrics/counters_summary.hpp"
#include "metrics/report.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

struct ModelRun {
  GpuConfig cfg;
  RunResult result;
  CountersSummary summary;
};

ModelRun run_model(const std::string& config, const Mix& mix, const std::string& policy, PreemptMode mode,
                   const std::vector<std::string>& sets = {}) {
  ModelRun m;
  m.cfg = load_gpu_config(config, sets);
  RunOptions ro;
  ro.sched.policy = policy;
  ro.sched.preempt = mode;
  auto sched = make_scheduler("golden", ro.sched);
  Gpu gpu(m.cfg, mix, *sched, ro);
  m.result = gpu.run();
  m.summary = summarize_counters(m.cfg, m.result);
  return m;
}

/// A mix entry for library kernel `name`: arrival 0, context 0, priority 0, the descriptor's grid.
MixEntry library_entry(const std::vector<KernelDesc>& lib, const std::string& name) {
  MixEntry e;
  e.kernel = name;
  e.desc = find_kernel(lib, name);
  return e;
}

ModelRun run_mix(const std::string& config, const std::string& mix_name, const std::string& policy, PreemptMode mode) {
  const auto lib = load_kernel_library();
  return run_model(config, load_mix(mix_name, lib), policy, mode);
}

/// Hit counts never exceed accesses; stall shares of a group with issue-less cycles sum to 1.
void check_group(const CounterGroup& g) {
  CHECK(g.l1_hits <= g.l1_accesses);
  CHECK(g.l2_hits <= g.l2_accesses);
  CHECK(g.l1_hit_rate() >= 0.0);
  CHECK(g.l1_hit_rate() <= 1.0);
  CHECK(g.l2_hit_rate() <= 1.0);
  const StallBreakdown& s = g.stalls;
  if (s.total() != 0)
    CHECK(s.share(s.memory) + s.share(s.dependency) + s.share(s.functional_unit) + s.share(s.idle) ==
          Approx(1.0).epsilon(1e-12));
  CHECK(g.ctas_finished <= g.ctas_started + g.ctas_preempted_switch);
}

/// The per-SM-type groups of a kernel add up to its all-SM group.
void check_types_sum_to_all(const KernelCounters& k) {
  CounterGroup sum;
  for (const CounterGroup& g : k.by_sm_type) {
    CHECK(g.cycles == k.all.cycles);
    sum.sms += g.sms;
    sum.instructions += g.instructions;
    sum.l1_accesses += g.l1_accesses;
    sum.l2_hits += g.l2_hits;
    sum.dram_bytes += g.dram_bytes;
    sum.stalls.memory += g.stalls.memory;
    sum.stalls.idle += g.stalls.idle;
    sum.ctas_preempted_switch += g.ctas_preempted_switch;
  }
  CHECK(sum.sms == k.all.sms);
  CHECK(sum.instructions == k.all.instructions);
  CHECK(sum.l1_accesses == k.all.l1_accesses);
  CHECK(sum.l2_hits == k.all.l2_hits);
  CHECK(sum.dram_bytes == k.all.dram_bytes);
  CHECK(sum.stalls.memory == k.all.stalls.memory);
  CHECK(sum.stalls.idle == k.all.stalls.idle);
  CHECK(sum.ctas_preempted_switch == k.all.ctas_preempted_switch);
}

}  // namespace

TEST_CASE("counter summary follows its definitions on a hand-made run", "[counters]") {
  GpuConfig cfg;
  cfg.name = "two-types";
  cfg.sm_types.resize(2);
  cfg.sm_types[0].name = "big";
  cfg.sm_types[1].name = "small";
  cfg.sm_type_of = {0, 0, 1};
  cfg.dram_channels = 2;
  cfg.line_bytes = 128;
  RunResult r;
  r.cycles = 1000;
  r.kernels.resize(2);
  r.kernels[0].name = "A";
  r.kernels[0].end_cycle = 1000;
  r.kernels[1].name = "B";
  r.kernels[1].arrival_cycle = 200;
  r.kernels[1].end_cycle = 600;
  r.counters.resize(3, 2);
  KernelSmCounters& a0 = r.counters.at(0, 0);
  a0.insts_issued = 300;
  a0.active_cycles = 900;
  a0.l1_accesses = 100;
  a0.l1_misses = 25;
  a0.l2_accesses = 25;
  a0.l2_misses = 5;
  a0.dram_bytes = 640;
  a0.stall_cycles[int(StallReason::kMemLatency)] = 30;
  a0.stall_cycles[int(StallReason::kMshrFull)] = 10;
  a0.stall_cycles[int(StallReason::kRaw)] = 20;
  a0.stall_cycles[int(StallReason::kExecBusy)] = 15;
  a0.stall_cycles[int(StallReason::kIdle)] = 25;
  a0.ctas_drained = 2;
  r.counters.at(1, 0).insts_issued = 100;
  r.counters.at(1, 0).l1_accesses = 100;
  KernelSmCounters& b2 = r.counters.at(2, 1);
  b2.insts_issued = 200;
  b2.active_cycles = 400;
  b2.ctas_switched = 3;
  b2.ctx_save_bytes = 3000;
  b2.ctx_restore_bytes = 1000;
  b2.ctx_save_cycles = 90;
  b2.ctx_restore_cycles = 60;
  r.dram = {{10, 2, 4, 3, 7}, {5, 3, 6, 6, 2}};

  const CountersSummary s = summarize_counters(cfg, r);
  REQUIRE(s.kernels.size() == 2);
  const KernelCounters& a = s.kernels[0];
  CHECK(a.name == "A");
  CHECK(a.sm_type_names == std::vector<std::string>{"big", "small"});
  CHECK(a.by_sm_type[0].sms == 2);
  CHECK(a.by_sm_type[1].sms == 1);
  CHECK(a.all.instructions == 400);
  CHECK(a.all.cycles == 1000);
  CHECK(a.all.ipc() == Approx(0.4));
  CHECK(a.by_sm_type[0].ipc() == Approx(0.4));
  CHECK(a.by_sm_type[1].ipc() == 0.0);
  CHECK(a.all.ipc_per_active_sm() == Approx(400.0 / 900.0));
  CHECK(a.all.l1_hits == 175);
  CHECK(a.all.l1_hit_rate() == Approx(0.875));
  CHECK(a.all.l2_hit_rate() == Approx(0.8));
  CHECK(a.all.stalls.memory == 40);  // mem latency + MSHR full
  CHECK(a.all.stalls.dependency == 20);
  CHECK(a.all.stalls.functional_unit == 15);
  CHECK(a.all.stalls.idle == 25);
  CHECK(a.all.stalls.share(a.all.stalls.memory) == Approx(0.4));
  CHECK(a.all.ctas_preempted_drain == 2);
  // Peak: 2 channels x 4 B x 4 transfers x 924 MHz over 1400 MHz core clock = 21.12 B/cycle.
  CHECK(s.dram.peak_bytes_per_cycle == Approx(2.0 * 4 * 4 * 924 / 1400.0));
  CHECK(a.all.dram_share_of_peak(s.dram.peak_bytes_per_cycle) == Approx(640.0 / (1000 * 21.12)));
  const KernelCounters& b = s.kernels[1];
  CHECK(b.all.cycles == 400);  // turnaround: arrival 200 to end 600
  CHECK(b.all.ipc() == Approx(0.5));
  CHECK(b.by_sm_type[1].ctas_preempted_switch == 3);
  CHECK(b.all.context_save_bytes == 3000);
  CHECK(b.all.context_restore_bytes == 1000);
  CHECK(b.all.context_save_cycles == 90);
  CHECK(b.all.context_restore_cycles == 60);
  CHECK(b.all.stalls.total() == 0);
  CHECK(b.all.stalls.share(0) == 0.0);  // no issue-less cycle: shares are 0, not NaN
  CHECK(s.gpu.instructions == 600);
  CHECK(s.gpu.cycles == 1000);
  // DRAM, GPU-wide from the channels.
  CHECK(s.dram.channels == 2);
  CHECK(s.dram.reads == 15);
  CHECK(s.dram.writes == 5);
  CHECK(s.dram.activates == 10);
  CHECK(s.dram.row_hits == 9);
  CHECK(s.dram.row_buffer_hit_rate() == Approx(0.45));
  CHECK(s.dram.channel_bytes == std::vector<uint64_t>{12 * 128, 8 * 128});
  CHECK(s.dram.bytes() == 20 * 128);
  CHECK(s.gpu.dram_bytes == s.dram.bytes());
  CHECK(s.dram.bandwidth_share() == Approx(2560.0 / (1000 * 21.12)));
  for (const KernelCounters& k : s.kernels) check_types_sum_to_all(k);

  // A counter bank of another shape than the config is a wiring error, not a summary.
  r.counters.resize(2, 2);
  CHECK_THROWS_AS(summarize_counters(cfg, r), InvariantError);
}

TEST_CASE("counter reports: CSV header and rows, JSON keys, table lines", "[counters][report]") {
  GpuConfig cfg;
  cfg.sm_types.resize(2);
  cfg.sm_types[0].name = "big";
  cfg.sm_types[1].name = "small";
  cfg.sm_type_of = {0, 1};
  RunResult r;
  r.cycles = 100;
  r.kernels.resize(2);
  r.kernels[0].name = "A";
  r.kernels[0].end_cycle = 100;
  r.kernels[1].name = "B,2";
  r.kernels[1].end_cycle = 50;
  r.counters.resize(2, 2);
  r.counters.at(0, 0).insts_issued = 10;
  r.dram = {{4, 0, 1, 0, 3}};
  const CountersSummary s = summarize_counters(cfg, r);
  RunInfo info;
  info.config = "cfg";
  info.mix = "mix";
  info.policy = "left-over";
  info.scheduler = "golden";
  info.preempt = "drain";

  const std::string csv = format_counters_csv(info, s);
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 1 + 2 * (2 + 1) + 1);  // header, per kernel 2 types + all, GPU-wide
  CHECK(lines[0] == counters_csv_header());
  const auto columns = [](const std::string& line) { return std::count(line.begin(), line.end(), ',') + 1; };
  CHECK(columns(lines[0]) == 43);
  CHECK(lines[1].rfind("cfg,mix,left-over,golden,drain,shared,1,A,big,1,10,100,0.100000,", 0) == 0);
  CHECK(lines[3].rfind("cfg,mix,left-over,golden,drain,shared,1,A,all,2,10,", 0) == 0);
  CHECK(lines[4].rfind("cfg,mix,left-over,golden,drain,shared,1,\"B,2\",big,", 0) == 0);
  CHECK(lines[7].rfind("cfg,mix,left-over,golden,drain,shared,1,all,all,2,10,100,", 0) == 0);
  CHECK(lines[7].find(",0.750000,") != std::string::npos);  // row-buffer hit rate on the GPU row only
  CHECK(columns(lines[1]) == 43);
  CHECK(columns(lines[7]) == 43);

  const auto j = counters_json(s);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"dram", "gpu", "kernels"});
  CHECK(j["dram"]["row_buffer_hit_rate"].get<double>() == 0.75);
  CHECK(j["dram"]["bytes"] == 512);
  REQUIRE(j["kernels"].size() == 2);
  CHECK(j["kernels"][1]["name"] == "B,2");
  REQUIRE(j["kernels"][0]["sm_types"].size() == 2);
  CHECK(j["kernels"][0]["sm_types"][1]["sm_type"] == "small");
  CHECK(j["kernels"][0]["all"]["ipc"].get<double>() == 0.1);
  for (const char* key : {"memory", "dependency", "functional_unit", "idle"}) {
    CHECK(j["gpu"]["stall_cycles"].contains(key));
    CHECK(j["gpu"]["stall_shares"].contains(key));
  }

  const std::string t = format_counters_table(s);
  CHECK(t.find("kernel  IPC(thread)  L1_hit%") != std::string::npos);
  CHECK(t.find("\nA ") != std::string::npos);
  CHECK(t.find("row-buffer hits 75.0%") != std::string::npos);
  // No access bypassed a cache: the JSON groups have no bypass keys, the table no BYPASS line,
  // the CSV its two columns at 0.
  CHECK_FALSE(j["gpu"].contains("l1_bypassed"));
  CHECK_FALSE(j["kernels"][0]["sm_types"][0].contains("l2_bypassed"));
  CHECK(t.find("BYPASS") == std::string::npos);
  const auto header = lines[0];
  CHECK(header.find(",l1_hit_rate,l1_bypassed,l2_accesses,") != std::string::npos);
  CHECK(header.find(",l2_hit_rate,l2_bypassed,dram_bytes,") != std::string::npos);
}

TEST_CASE("counter reports: bypassed accesses per level and kernel", "[counters][report][bypass]") {
  GpuConfig cfg;
  cfg.sm_types.resize(1);
  cfg.sm_types[0].name = "sm";
  cfg.sm_type_of = {0, 0};
  RunResult r;
  r.cycles = 100;
  r.kernels.resize(2);
  r.kernels[0].name = "A";
  r.kernels[0].end_cycle = 100;
  r.kernels[1].name = "B";
  r.kernels[1].end_cycle = 100;
  r.counters.resize(2, 2);
  r.counters.at(0, 1).l1_bypassed = 7;  // B: around L1 on SM 0, around L2 on both SMs
  r.counters.at(0, 1).l2_bypassed = 3;
  r.counters.at(1, 1).l2_bypassed = 2;
  r.counters.at(1, 1).l1_accesses = 4;
  r.counters.at(1, 1).l1_misses = 1;
  const CountersSummary s = summarize_counters(cfg, r);
  CHECK(s.kernels[1].all.l1_bypassed == 7);
  CHECK(s.kernels[1].all.l2_bypassed == 5);
  CHECK(s.kernels[1].all.l1_hits == 3);
  CHECK(s.kernels[0].all.l1_bypassed == 0);
  CHECK(s.gpu.l2_bypassed == 5);

  const auto j = counters_json(s);
  CHECK(j["kernels"][1]["all"]["l1_bypassed"] == 7);
  CHECK(j["kernels"][1]["all"]["l2_bypassed"] == 5);
  CHECK(j["kernels"][0]["all"]["l2_bypassed"] == 0);  // every group has the keys once any bypassed
  CHECK(j["kernels"][1]["sm_types"][0]["l2_bypassed"] == 5);
  std::vector<std::string> keys;
  for (auto it = j["gpu"].begin(); it != j["gpu"].end(); ++it) keys.push_back(it.key());
  const auto at = [&keys](const char* k) { return std::find(keys.begin(), keys.end(), k) - keys.begin(); };
  CHECK(at("l1_bypassed") == at("l1_hit_rate") + 1);
  CHECK(at("l2_bypassed") == at("l2_hit_rate") + 1);

  RunInfo info;
  const std::string csv = format_counters_csv(info, s);
  // B's all-SM row: ...,l1_accesses 4,l1_hits 3,l1_hit_rate,l1_bypassed 7,l2_accesses 0,l2_hits 0,l2_hit_rate,l2_bypassed 5,
  CHECK(csv.find(",B,all,2,0,100,0.000000,0,0.000000,4,3,0.750000,7,0,0,0.000000,5,") != std::string::npos);
  const std::string t = format_counters_table(s);
  CHECK(t.find("BYPASS   B: 7 accesses around L1, 5 around L2\n") != std::string::npos);
  CHECK(t.find("BYPASS   A") == std::string::npos);
}

TEST_CASE("counters of a whole run are consistent", "[counters][model]") {
  const ModelRun m = run_mix("warped-slicer", "default", "left-over", PreemptMode::kDrain);
  const CountersSummary& s = m.summary;
  REQUIRE(s.kernels.size() == 2);
  CounterGroup kernel_sum;
  for (size_t k = 0; k < s.kernels.size(); ++k) {
    const KernelCounters& kc = s.kernels[k];
    INFO("kernel " << kc.name);
    check_group(kc.all);
    for (const CounterGroup& g : kc.by_sm_type) check_group(g);
    check_types_sum_to_all(kc);
    CHECK(kc.all.instructions == m.result.kernels[k].instructions);
    CHECK(kc.all.cycles == m.result.kernels[k].cycles());
    CHECK(kc.all.ctas_finished == m.result.kernels[k].ctas);  // no preemption under left-over
    CHECK(kc.all.ctas_preempted_drain == 0);
    CHECK(kc.all.ctas_preempted_switch == 0);
    CHECK(kc.all.l1_accesses > 0);
    kernel_sum.dram_bytes += kc.all.dram_bytes;
    kernel_sum.instructions += kc.all.instructions;
  }
  check_group(s.gpu);
  CHECK(s.gpu.instructions == kernel_sum.instructions);
  // BLK streams through memory: it moves DRAM bytes, within the preset's peak.
  const CounterGroup& blk = s.kernels[1].all;
  REQUIRE(s.kernels[1].name == "BLK");
  CHECK(blk.dram_bytes > 0);
  CHECK(blk.dram_share_of_peak(s.dram.peak_bytes_per_cycle) > 0.0);
  CHECK(blk.dram_share_of_peak(s.dram.peak_bytes_per_cycle) <= 1.0);
  CHECK(blk.stalls.memory > 0);

  // DRAM: the GPU total is the sum over channels; the bytes charged to kernels are that total
  // less the lines whose bursts had not ended when the last kernel finished (at most what the
  // channels' done queues hold, two queue depths each).
  const DramSummary& d = s.dram;
  CHECK(d.channels == m.cfg.dram_channels);
  uint64_t channel_sum = 0;
  for (uint64_t b : d.channel_bytes) channel_sum += b;
  CHECK(channel_sum == d.bytes());
  CHECK(s.gpu.dram_bytes == d.bytes());
  CHECK(kernel_sum.dram_bytes <= d.bytes());
  CHECK(d.bytes() - kernel_sum.dram_bytes <= uint64_t(d.channels) * 2 * m.cfg.dram_queue_depth * m.cfg.line_bytes);
  CHECK(d.bandwidth_share() > 0.0);
  CHECK(d.bandwidth_share() <= 1.0);
  CHECK(d.row_hits <= d.reads + d.writes);
  CHECK(d.row_hits + d.activates >= d.reads + d.writes);  // every other column command needed an ACT
  CHECK(d.row_buffer_hit_rate() > 0.0);
}

TEST_CASE("counters are grouped per SM type on a GPU with two types", "[counters][model]") {
  const ModelRun m = run_mix("heterocore", "hc-histo-kmeans", "left-over", PreemptMode::kDrain);
  REQUIRE(m.cfg.sm_types.size() == 2);
  for (const KernelCounters& k : m.summary.kernels) {
    INFO("kernel " << k.name);
    REQUIRE(k.by_sm_type.size() == 2);
    CHECK(k.sm_type_names == std::vector<std::string>{"big", "small"});
    CHECK(k.by_sm_type[0].sms == m.cfg.sm_types[0].count);
    CHECK(k.by_sm_type[1].sms == m.cfg.sm_types[1].count);
    check_types_sum_to_all(k);
    for (const CounterGroup& g : k.by_sm_type) {
      check_group(g);
      CHECK(g.instructions > 0);  // left-over spreads each kernel over both types
    }
    CHECK(k.by_sm_type[0].ipc() + k.by_sm_type[1].ipc() == Approx(k.all.ipc()));
  }
}

TEST_CASE("every warp-scheduler cycle of an occupied SM is one issue or one stall", "[counters][model]") {
  // Alone, a kernel is the only one resident, so on every SM
  //   instructions + issue-less cycles = warp schedulers x cycles with a CTA resident.
  const auto lib = load_kernel_library();
  Mix mix;
  mix.name = "alone";
  mix.kernels.push_back(library_entry(lib, "BLK"));
  const ModelRun m = run_model("warped-slicer", mix, "left-over", PreemptMode::kDrain);
  uint64_t checked = 0;
  for (uint32_t sm = 0; sm < m.cfg.num_sms(); ++sm) {
    CounterGroup g;
    add_counters(g, m.result.counters.at(sm, 0));
    INFO("SM " << sm);
    CHECK(g.instructions + g.stalls.total() == uint64_t(m.cfg.sm(sm).warp_schedulers) * g.active_sm_cycles);
    checked += g.active_sm_cycles != 0;
  }
  CHECK(checked == m.cfg.num_sms());
}

TEST_CASE("switch preemption reports saved CTAs and context traffic, drain reports drained CTAs",
          "[counters][model][preempt]") {
  const ModelRun sw = run_mix("tanasic-k20c", "ppq-priority", "ppq-excl", PreemptMode::kSwitch);
  const CounterGroup& g = sw.summary.gpu;
  uint64_t saved_events = 0;
  for (const KernelResult& k : sw.result.kernels) saved_events += k.preemptions;
  CHECK(g.ctas_preempted_switch > 0);
  CHECK(g.ctas_preempted_switch == saved_events);
  // PtbqDepth (256) holds Tanasic's 13 x 16 CTAs: every SM switches, none falls back to draining.
  CHECK(g.switch_fallbacks == 0);
  CHECK(g.ctas_preempted_drain == 0);
  CHECK(g.context_save_bytes > 0);
  CHECK(g.context_restore_bytes == g.context_save_bytes);  // every saved CTA resumed
  CHECK(g.context_save_cycles > 0);
  CHECK(g.context_restore_cycles > 0);
  // A save takes at least the time to write its bytes at the preset's DRAM peak.
  CHECK(double(g.context_save_cycles) >= double(g.context_save_bytes) / sw.summary.dram.peak_bytes_per_cycle);
  for (const KernelCounters& k : sw.summary.kernels) check_group(k.all);

  const ModelRun dr = run_mix("tanasic-k20c", "ppq-priority", "ppq-excl", PreemptMode::kDrain);
  const CounterGroup& d = dr.summary.gpu;
  CHECK(d.ctas_preempted_drain > 0);
  CHECK(d.ctas_preempted_switch == 0);
  CHECK(d.context_save_bytes == 0);
  CHECK(d.context_restore_bytes == 0);
  CHECK(d.context_save_cycles == 0);
  // Drained CTAs run to completion: every CTA of the victim finishes exactly once.
  for (size_t k = 0; k < dr.summary.kernels.size(); ++k)
    CHECK(dr.summary.kernels[k].all.ctas_finished == dr.result.kernels[k].ctas);
}

TEST_CASE("the same run twice gives byte-identical counter reports", "[counters][determinism]") {
  const ModelRun a = run_mix("warped-slicer", "default", "left-over", PreemptMode::kDrain);
  const ModelRun b = run_mix("warped-slicer", "default", "left-over", PreemptMode::kDrain);
  RunInfo info;
  info.config = "warped-slicer";
  info.mix = "default";
  const MixMetrics m = compute_mix_metrics({{"HOT", 0, 1, 1, 1}, {"BLK", 0, 1, 1, 1}}, 1);
  CHECK(format_json(info, m, &a.summary) == format_json(info, m, &b.summary));
  CHECK(format_counters_csv(info, a.summary) == format_counters_csv(info, b.summary));
  CHECK(format_table(info, m, &a.summary) == format_table(info, m, &b.summary));
  CHECK(format_json(info, m, &a.summary).find("\"counters\"") != std::string::npos);
}

TEST_CASE("DRAM row-buffer hits: one activate serves every queued request to its row", "[counters][mem][dram]") {
  GpuConfig cfg;
  const auto t = mem::DramTiming::from_config(cfg);
  mem::DramChannel ch(t, 4, 8);
  uint64_t now = 0;
  auto req = [](uint32_t bank, uint64_t row) {
    mem::DramRequest r;
    r.bank = bank;
    r.row = row;
    return r;
  };
  ch.enqueue(req(0, 5), now);
  ch.enqueue(req(0, 5), now);
  ch.enqueue(req(0, 5), now);
  ch.enqueue(req(0, 9), now);  // row conflict: PRE + ACT
  ch.enqueue(req(1, 5), now);  // another bank: its own ACT
  size_t done = 0;
  for (; done < 5 && now < 10000; ++now) {
    ch.tick(now);
    while (ch.has_done(now)) ch.pop_done(), ++done;
  }
  REQUIRE(done == 5);
  CHECK(ch.stats().reads == 5);
  CHECK(ch.stats().activates == 3);
  CHECK(ch.stats().row_hits == 2);
}

TEST_CASE("a switch that the PTBQ cannot hold drains, and is counted as a switch fallback",
          "[counters][model][preempt]") {
  // 32 K20c SMs x 16 CTAs of sad.largersadcalc16 = 512 resident low-priority CTAs, twice the
  // PtbqDepth of 256: once the scan has switched 16 SMs, gs_preempt_ctrl drains the rest.
  const auto lib = load_kernel_library();
  Mix mix;
  mix.name = "ptbq-overflow";
  MixEntry lo = library_entry(lib, "sad.largersadcalc16");
  lo.grid_ctas = 1200;
  MixEntry hi = library_entry(lib, "spmv.spmvjds");
  hi.arrival_cycle = 3000;
  hi.context = 1;
  hi.priority = 2;
  mix.kernels = {lo, hi};
  const ModelRun m = run_model("tanasic-k20c", mix, "ppq-excl", PreemptMode::kSwitch, {"sm_types[0].count=32"});
  const CounterGroup& g = m.summary.gpu;
  CHECK(g.ctas_preempted_switch > 0);
  CHECK(g.ctas_preempted_switch <= 256);
  CHECK(g.switch_fallbacks > 0);
  CHECK(g.ctas_preempted_drain > 0);  // the fallback SMs drained
  // Charged to the kernels whose CTAs the drain caught: the low-priority victim (a high-priority
  // CTA dispatched in the same cycle as its SM's preemption is caught too).
  CHECK(m.summary.kernels[0].all.switch_fallbacks > m.summary.kernels[1].all.switch_fallbacks);
  CHECK(m.summary.kernels[0].all.switch_fallbacks + m.summary.kernels[1].all.switch_fallbacks == g.switch_fallbacks);
  // The table reports it.
  CHECK(format_counters_table(m.summary).find("PREEMPT  ") != std::string::npos);
}

TEST_CASE("a mix entry's cache bypass reaches the memory model and its counters", "[counters][model][bypass]") {
  const auto lib = load_kernel_library();
  CHECK(bypass_level_names() == std::vector<std::string>{"none", "l1", "l1l2", "l2"});
  Mix mix = load_mix("test-pair", lib);  // test.compute, test.memory
  REQUIRE(mix.kernels[1].bypass == BypassLevel::kNone);
  const ModelRun plain = run_model("warped-slicer", mix, "left-over", PreemptMode::kDrain);
  const KernelSmCounters mem_plain = plain.result.counters.kernel_total(1);
  REQUIRE(mem_plain.l2_accesses > 0);
  CHECK(mem_plain.l1_bypassed + mem_plain.l2_bypassed == 0);

  mix.kernels[1].bypass = BypassLevel::kL2;
  const ModelRun l2 = run_model("warped-slicer", mix, "left-over", PreemptMode::kDrain);
  const KernelSmCounters mem_l2 = l2.result.counters.kernel_total(1);
  CHECK(mem_l2.l1_accesses == mem_plain.l1_accesses);  // L1 still looked up
  CHECK(mem_l2.l1_bypassed == 0);
  CHECK(mem_l2.l2_accesses == 0);  // L2 never
  CHECK(mem_l2.l2_bypassed > 0);
  CHECK(l2.result.counters.kernel_total(0).l2_bypassed == 0);  // the other kernel is not bypassed
  CHECK(l2.summary.kernels[1].all.l2_bypassed == mem_l2.l2_bypassed);
  CHECK(counters_json(l2.summary)["kernels"][1]["all"]["l2_bypassed"] == mem_l2.l2_bypassed);

  mix.kernels[1].bypass = BypassLevel::kL1L2;
  const KernelSmCounters mem_both = run_model("warped-slicer", mix, "left-over", PreemptMode::kDrain)
                                        .result.counters.kernel_total(1);
  CHECK(mem_both.l1_accesses == 0);
  CHECK(mem_both.l2_accesses == 0);
  CHECK(mem_both.l1_bypassed > 0);
  CHECK(mem_both.l2_bypassed == mem_both.l1_bypassed);  // every access went around both levels

  // The mix file names the level; anything else is an input error naming the field.
  const auto doc = [](const std::string& bypass) {
    return nlohmann::json::parse(R"({"kernels": [{"kernel": "test.memory", "bypass": )" + bypass + "}]}");
  };
  CHECK(parse_mix(doc(R"("l2")"), "b.json", lib).kernels[0].bypass == BypassLevel::kL2);
  CHECK(parse_mix(doc(R"("l1")"), "b.json", lib).kernels[0].bypass == BypassLevel::kL1);
  for (const char* bad : {R"("L2")", R"("l3")", "3", "null", R"("")"}) {
    INFO(bad);
    try {
      parse_mix(doc(bad), "b.json", lib);
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("kernels[0].bypass") != std::string::npos);
    }
  }
}
