// gsched: memory system unit tests -- GDDR5 timing conversion, bank/row-buffer timing,
// FR-FCFS order, address interleaving, unloaded latency and streaming bandwidth.
#include <catch2/catch.hpp>

#include <cstdio>

#include "gpu/mem/dram_channel.hpp"
#include "test_mem_common.hpp"

using namespace gs;
using gs::memtest::Harness;
using gs::memtest::kNever;
using gs::memtest::make_config;

namespace {

mem::DramRequest read_req(uint32_t bank, uint64_t row, uint16_t id) {
  mem::DramRequest r;
  r.bank = bank;
  r.row = row;
  r.write = false;
  r.mshr = id;  // used as an identifier by these tests
  return r;
}

/// Ticks `ch` from `from` until it has produced `n` results; returns (id, done cycle) pairs.
std::vector<std::pair<uint16_t, uint64_t>> run_channel(mem::DramChannel& ch, uint64_t& now, size_t n) {
  std::vector<std::pair<uint16_t, uint64_t>> out;
  for (int guard = 0; out.size() < n && guard < 100000; ++guard, ++now) {
    ch.tick(now);
    while (ch.has_done(now)) {
      out.emplace_back(ch.done_front().mshr, now);
      ch.pop_done();
    }
  }
  return out;
}

}  // namespace

TEST_CASE("DRAM timings are converted to core cycles rounding up", "[mem][dram]") {
  const GpuConfig cfg = make_config();
  const auto t = mem::DramTiming::from_config(cfg);
  // 12 DRAM clocks at 924 MHz = 18.18 core cycles at 1400 MHz -> 19.
  CHECK(t.tCL == 19);
  CHECK(t.tRCD == 19);
  CHECK(t.tRP == 19);
  CHECK(t.tRC == 61);   // 40 * 1400 / 924 = 60.6
  CHECK(t.tRAS == 43);  // 42.4
  CHECK(t.tRRD == 10);  // 9.09
  CHECK(t.tCCD == 4);   // 3.03
  CHECK(t.tWR == 19);
  // A 128 B line on a 4 B x4 bus is 8 DRAM clocks = 12.12 core cycles = 12412.1/1024.
  CHECK(t.burst_fp == 12413);
  CHECK(t.burst == 13);
  // The fixed-point burst gives the configured peak to within 1e-4, never above it.
  const double fp_peak = 128.0 * mem::kFixedOne / double(t.burst_fp) * cfg.dram_channels;
  CHECK(fp_peak <= cfg.dram_peak_bytes_per_core_cycle());
  CHECK(fp_peak >= cfg.dram_peak_bytes_per_core_cycle() * 0.9999);
}

TEST_CASE("DRAM bank timing: closed row, row hit and row conflict", "[mem][dram]") {
  const auto t = mem::DramTiming::from_config(make_config());
  mem::DramChannel ch(t, 16, 32);
  uint64_t now = 0;
  ch.enqueue(read_req(3, 7, 1), now);
  auto r = run_channel(ch, now, 1);
  REQUIRE(r.size() == 1);
  CHECK(r[0].second == t.tRCD + t.tCL + t.burst);  // ACT at 0, RD at tRCD
  CHECK(ch.open_row(3) == 7);

  // Row hit: RD right away.
  const uint64_t t1 = now;
  ch.enqueue(read_req(3, 7, 2), now);
  r = run_channel(ch, now, 1);
  CHECK(r[0].second - t1 == t.tCL + t.burst);

  // Row conflict long after tRAS: PRE, tRP, ACT, tRCD, RD.
  now += 200;
  const uint64_t t2 = now;
  ch.enqueue(read_req(3, 9, 3), now);
  r = run_channel(ch, now, 1);
  CHECK(r[0].second - t2 == t.tRP + t.tRCD + t.tCL + t.burst);
  CHECK(ch.stats().activates == 2);
  CHECK(ch.stats().precharges == 1);
}

TEST_CASE("DRAM respects tRC and tRAS on a fast row conflict", "[mem][dram]") {
  const auto t = mem::DramTiming::from_config(make_config());
  mem::DramChannel ch(t, 16, 32);
  uint64_t now = 0;
  ch.enqueue(read_req(0, 1, 1), now);
  ch.enqueue(read_req(0, 2, 2), now);
  auto r = run_channel(ch, now, 2);
  REQUIRE(r.size() == 2);
  // Second ACT waits for max(tRAS + tRP, tRC) after the first (tRC = 61 > 43 + 19 = 62? no:
  // PRE at tRAS = 43, ACT at max(43 + 19, 61) = 62).
  const uint64_t act2 = std::max<uint64_t>(t.tRAS + t.tRP, t.tRC);
  CHECK(r[1].second == act2 + t.tRCD + t.tCL + t.burst);
}

TEST_CASE("FR-FCFS serves a younger row hit before an older row miss", "[mem][dram]") {
  const auto t = mem::DramTiming::from_config(make_config());
  mem::DramChannel ch(t, 16, 32);
  uint64_t now = 0;
  ch.enqueue(read_req(5, 10, 1), now);  // opens row 10 of bank 5
  run_channel(ch, now, 1);
  REQUIRE(ch.open_row(5) == 10);
  now += 100;
  ch.enqueue(read_req(5, 11, 2), now);  // older: row miss
  ch.enqueue(read_req(5, 10, 3), now);  // younger: row hit
  ch.enqueue(read_req(5, 10, 4), now);  // younger: row hit
  auto r = run_channel(ch, now, 3);
  REQUIRE(r.size() == 3);
  CHECK(r[0].first == 3);
  CHECK(r[1].first == 4);
  CHECK(r[2].first == 2);
  CHECK(r[0].second < r[1].second);
  CHECK(r[1].second < r[2].second);

  // Control: with no row hit among them, requests are served oldest first.
  mem::DramChannel ch2(t, 16, 32);
  now = 0;
  ch2.enqueue(read_req(5, 10, 1), now);
  run_channel(ch2, now, 1);
  now += 100;
  ch2.enqueue(read_req(5, 11, 2), now);
  ch2.enqueue(read_req(5, 12, 3), now);
  r = run_channel(ch2, now, 2);
  CHECK(r[0].first == 2);
  CHECK(r[1].first == 3);
}

TEST_CASE("FR-FCFS order is visible through the whole memory system", "[mem][dram]") {
  Harness h(make_config(4));
  const auto& map = h.mem->address_map();
  // Lines of channel 0, bank 2: A1..A4 and C in one row, B in another row.
  std::vector<uint64_t> same_row;
  const uint64_t a1 = memtest::find_line(map, 128, 0, 0, 2);
  const int64_t row = int64_t(map.row_of(map.map(a1).local));
  same_row.push_back(a1);
  while (same_row.size() < 5) same_row.push_back(memtest::find_line(map, 128, same_row.back() + 128, 0, 2, row));
  const uint64_t b = memtest::find_line(map, 128, 0, 0, 2, row + 1);
  // A1..A4 keep the row busy past tRAS; B (row miss) arrives behind them, C (row hit) one
  // cycle after B. FR-FCFS serves C with the open row before precharging for B; plain
  // oldest-first would precharge for B as soon as A4 is done.
  for (int i = 0; i < 4; ++i) {
    REQUIRE(h.load(0, same_row[i], 1 + i));
    h.step();
  }
  REQUIRE(h.load(1, b, 10));
  h.step();
  REQUIRE(h.load(2, same_row[4], 11));
  h.drain();
  CHECK(h.done_at[4] < h.done_at[11]);
  CHECK(h.done_at[11] < h.done_at[10]);
  CHECK(h.mem->dram(0).stats().activates == 2);  // the shared row once, B's row once
}

TEST_CASE("address map: channels interleave by 256 B and strides spread", "[mem][dram]") {
  const GpuConfig cfg = make_config();
  mem::AddressMap map(cfg.dram_channels, 128, cfg.dram_row_bytes, cfg.dram_banks);
  // Two consecutive lines of a 256 B chunk share a channel; each group of 6 chunks covers
  // all 6 channels exactly once.
  for (uint64_t chunk = 0; chunk < 600; ++chunk) {
    CHECK(map.map(chunk * 256).channel == map.map(chunk * 256 + 128).channel);
    CHECK(map.map(chunk * 256 + 128).local == map.map(chunk * 256).local + 128);
  }
  for (uint64_t g = 0; g < 100; ++g) {
    uint32_t seen = 0;
    for (uint64_t k = 0; k < 6; ++k) seen |= 1u << map.map((g * 6 + k) * 256).channel;
    CHECK(seen == 0x3Fu);
  }
  // A stride of 6 chunks (every access on one channel under plain modulo) and a 4 KB stride
  // both spread: every channel gets between 10% and 23% of 6000 accesses.
  for (uint64_t stride : {6 * 256ull, 4096ull, 6 * 4096ull}) {
    uint32_t count[6] = {};
    for (uint64_t i = 0; i < 6000; ++i) ++count[map.map(i * stride).channel];
    for (uint32_t c = 0; c < 6; ++c) {
      CHECK(count[c] >= 600);
      CHECK(count[c] <= 1400);
    }
  }
  // The map is one to one: distinct addresses never collide in (channel, local).
  std::vector<std::pair<uint16_t, uint64_t>> seen;
  for (uint64_t i = 0; i < 3000; ++i) {
    const auto c = map.map(i * 128 * 7);
    seen.emplace_back(c.channel, c.local);
  }
  std::sort(seen.begin(), seen.end());
  CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
}

TEST_CASE("unloaded latency of an L1 and L2 miss to a closed row matches the formula", "[mem][dram][latency]") {
  Harness h(make_config(2));
  const auto& c = h.cfg;
  const auto t = h.mem->dram_timing();
  // l1 + (xbar + ceil(8/32)) + l2 + (tRCD + tCL + burst) + (xbar + ceil(128/32))
  const uint64_t expect = c.sm(0).l1_hit_latency + (c.xbar_latency + 1) + c.l2_hit_latency +
                          (t.tRCD + t.tCL + t.burst) + (c.xbar_latency + 4);
  CHECK(expect == 20 + 9 + 30 + (19 + 19 + 13) + 12);
  CHECK(h.mem->unloaded_dram_latency(0) == expect);
  const uint64_t t0 = h.now;
  REQUIRE(h.load(0, 0x123400 & ~uint64_t(127), 1));
  h.drain();
  CHECK(h.done_at[1] - t0 == expect);
  std::printf("[mem] unloaded latency: L1 hit %u, L2 hit %llu, DRAM (closed row) %llu cycles\n", c.sm(0).l1_hit_latency,
              (unsigned long long)h.mem->unloaded_l2_hit_latency(0), (unsigned long long)expect);
}

TEST_CASE("a store completes when L2 accepts it", "[mem][dram][latency]") {
  Harness h(make_config(2));
  const auto& c = h.cfg;
  REQUIRE(h.store(0, 0x5000, 1));
  h.drain();
  CHECK(h.done_at[1] == c.sm(0).l1_hit_latency + c.xbar_latency + 128 / c.xbar_bytes_per_cycle);
  CHECK(h.ctr(0).l1_accesses == 1);
  CHECK(h.ctr(0).l1_misses == 1);
  CHECK(h.ctr(0).l2_accesses == 1);
  CHECK(h.ctr(0).l2_misses == 1);
  CHECK(h.ctr(0).dram_bytes == 0);  // full-line write allocate: no fill read
}

namespace {

struct StreamResult {
  double bytes_per_cycle;
  double peak;
  uint64_t cycles;
  uint64_t lines;
};

/// Every SM streams its own region of distinct lines, one access per cycle when accepted.
StreamResult stream(const GpuConfig& cfg, uint64_t warmup, uint64_t window) {
  Harness h(cfg, 1, 1);
  const uint32_t sms = cfg.num_sms();
  std::vector<uint64_t> next(sms, 0);
  std::vector<uint64_t> tmp;
  auto cycle = [&]() {
    for (uint32_t s = 0; s < sms; ++s) {
      const uint64_t line = (uint64_t(s) << 28) + next[s] * 128;
      if (h.mem->access(s, MemAccess{line, 0, false, 0})) ++next[s];
    }
    h.mem->tick(h.now++);
    for (uint32_t s = 0; s < sms; ++s) h.mem->take_completions(s, tmp);
  };
  for (uint64_t i = 0; i < warmup; ++i) cycle();
  const uint64_t b0 = h.mem->dram_bytes_total();
  for (uint64_t i = 0; i < window; ++i) cycle();
  const uint64_t bytes = h.mem->dram_bytes_total() - b0;
  return {double(bytes) / double(window), cfg.dram_peak_bytes_per_core_cycle(), window, bytes / 128};
}

}  // namespace

TEST_CASE("streaming loads from all SMs reach the DRAM peak bandwidth", "[mem][dram][bandwidth]") {
  const GpuConfig cfg = make_config(16, 6);
  const StreamResult r = stream(cfg, 5000, 40000);
  std::printf("[mem] streaming: %.3f B/cycle of %.3f peak (%.1f%%), %llu lines in %llu cycles\n", r.bytes_per_cycle,
              r.peak, 100.0 * r.bytes_per_cycle / r.peak, (unsigned long long)r.lines, (unsigned long long)r.cycles);
  CHECK(r.bytes_per_cycle >= 0.90 * r.peak);
  CHECK(r.bytes_per_cycle <= r.peak);
}

TEST_CASE("streaming bandwidth scales with the channel count", "[mem][dram][bandwidth]") {
  for (uint32_t channels : {2u, 8u}) {
    const GpuConfig cfg = make_config(16, channels);
    const StreamResult r = stream(cfg, 5000, 20000);
    INFO("channels " << channels << ": " << r.bytes_per_cycle << " of " << r.peak);
    std::printf("[mem] streaming, %u channels: %.3f B/cycle of %.3f peak (%.1f%%)\n", channels, r.bytes_per_cycle,
                r.peak, 100.0 * r.bytes_per_cycle / r.peak);
    CHECK(r.bytes_per_cycle >= 0.90 * r.peak);
    CHECK(r.bytes_per_cycle <= r.peak);
  }
}
