// gsched unit tests: synthetic instruction streams -- purity, mix proportions, CTA-duration
// spread and the four address patterns.
#include <catch2/catch.hpp>

#include <array>
#include <set>

#include "workload/inst_stream.hpp"

using namespace gs;

namespace {

KernelDesc mix_kernel() {
  KernelDesc k;
  k.name = "mix";
  k.threads_per_cta = 256;
  k.grid_ctas = 100;
  k.insts_per_warp = 1000;
  k.sfu_permille = 100;
  k.ldst_permille = 250;
  k.shmem_permille = 150;
  k.store_permille = 400;
  return k;
}

constexpr uint64_t kBase = uint64_t(1) << 40;

}  // namespace

TEST_CASE("inst stream is a pure function of seed cta warp and index", "[inst_stream]") {
  KernelDesc k = mix_kernel();
  k.pattern = MemPattern::kRandom;
  const InstStream a(k, 42, kBase, 128, 32);
  const InstStream b(k, 42, kBase, 128, 32);
  // Query b in reverse order: no hidden state may make the answers differ.
  for (uint32_t i = 500; i-- > 0;) {
    CHECK(b.type(3, 5, i) == a.type(3, 5, i));
    CHECK(b.line_addr(3, 5, i, 0) == a.line_addr(3, 5, i, 0));
  }
  CHECK(a.length(7) == b.length(7));
  // A different seed, CTA or warp gives a different stream.
  const InstStream c(k, 43, kBase, 128, 32);
  uint32_t diff_seed = 0, diff_warp = 0;
  for (uint32_t i = 0; i < 200; ++i) {
    diff_seed += a.type(3, 5, i) != c.type(3, 5, i);
    diff_warp += a.type(3, 5, i) != a.type(3, 6, i);
  }
  CHECK(diff_seed > 50);
  CHECK(diff_warp > 50);
}

TEST_CASE("inst stream follows the per-mille instruction mix", "[inst_stream]") {
  const KernelDesc k = mix_kernel();
  const InstStream s(k, 9, kBase, 128, 32);
  std::array<uint32_t, size_t(InstType::kCount)> n{};
  const uint32_t total = 200000;
  for (uint32_t i = 0; i < total; ++i) n[size_t(s.type(i % 50, i % 8, i / 400))]++;
  auto share = [&](InstType t) { return double(n[size_t(t)]) * 1000.0 / total; };
  CHECK(share(InstType::kSfu) == Approx(100).margin(5));
  CHECK(share(InstType::kLoad) + share(InstType::kStore) == Approx(250).margin(5));
  CHECK(share(InstType::kStore) == Approx(250 * 0.4).margin(5));
  CHECK(share(InstType::kShared) == Approx(150).margin(5));
  CHECK(share(InstType::kAlu) == Approx(500).margin(6));

  KernelDesc alu = k;
  alu.sfu_permille = alu.ldst_permille = alu.shmem_permille = 0;
  const InstStream only_alu(alu, 9, kBase, 128, 32);
  for (uint32_t i = 0; i < 1000; ++i) REQUIRE(only_alu.type(1, 1, i) == InstType::kAlu);
}

TEST_CASE("inst stream varies CTA length within the spread deterministically", "[inst_stream]") {
  KernelDesc k = mix_kernel();
  k.cta_spread_pct = 20;
  const InstStream s(k, 11, kBase, 128, 32);
  std::set<uint32_t> lengths;
  for (uint32_t c = 0; c < 500; ++c) {
    const uint32_t len = s.length(c);
    CHECK(len >= 800);
    CHECK(len <= 1200);
    lengths.insert(len);
  }
  CHECK(lengths.size() > 100);
  CHECK(*lengths.begin() < 850);
  CHECK(*lengths.rbegin() > 1150);
  k.cta_spread_pct = 0;
  const InstStream fixed(k, 11, kBase, 128, 32);
  for (uint32_t c = 0; c < 50; ++c) CHECK(fixed.length(c) == 1000);
}

TEST_CASE("inst stream streaming pattern walks consecutive lines per warp", "[inst_stream]") {
  KernelDesc k = mix_kernel();
  k.pattern = MemPattern::kStreaming;
  k.lines_per_access = 2;
  k.footprint_bytes = 1ull << 30;
  const InstStream s(k, 1, kBase, 128, 32);
  const uint64_t total_warps = 100 * 8;
  // Neighbouring warps' n-th accesses touch adjacent lines; a warp's next access is one grid
  // stride further on, whatever instructions lie between; nothing is touched twice.
  auto at = [&](uint32_t c, uint32_t w, uint32_t n, uint32_t j) {
    return s.line_addr(s.warp_key(c, w), c, w, 0, n, j);
  };
  CHECK(at(0, 1, 0, 0) - at(0, 0, 0, 0) == 2 * 128);
  CHECK(at(0, 0, 0, 1) - at(0, 0, 0, 0) == 128);
  CHECK(at(0, 0, 1, 0) - at(0, 0, 0, 0) == total_warps * 2 * 128);
  CHECK(at(1, 0, 0, 0) - at(0, 0, 0, 0) == 8 * 2 * 128);
  // The instruction-index form counts the accesses before i itself.
  const uint64_t key = s.warp_key(2, 3);
  uint32_t n = 0;
  for (uint32_t i = 0; i < 200; ++i) {
    CHECK(s.accesses_before(key, i) == n);
    const InstType t = s.type(key, i);
    if (t == InstType::kLoad || t == InstType::kStore) {
      CHECK(s.line_addr(2, 3, i, 1) == at(2, 3, n, 1));
      ++n;
    }
  }
  CHECK(n > 0);
  std::set<uint64_t> seen;
  for (uint32_t c = 0; c < 4; ++c)
    for (uint32_t w = 0; w < 8; ++w)
      for (uint32_t a = 0; a < 50; ++a)
        for (uint32_t j = 0; j < 2; ++j) REQUIRE(seen.insert(at(c, w, a, j)).second);
  CHECK(at(0, 0, 0, 0) == kBase);
}

TEST_CASE("inst stream tiled random and per-CTA patterns stay in their regions", "[inst_stream]") {
  KernelDesc k = mix_kernel();
  k.tile_bytes = 16 * 1024;  // 128 lines
  k.ws_bytes = 8 * 1024;     // 64 lines
  k.footprint_bytes = 1 << 20;
  SECTION("tiled: a CTA sweeps its own tile, reusing every line") {
    k.pattern = MemPattern::kTiled;
    const InstStream s(k, 3, kBase, 128, 32);
    std::set<uint64_t> lines;
    for (uint32_t w = 0; w < 8; ++w)
      for (uint32_t i = 0; i < 64; ++i) {
        const uint64_t a = s.line_addr(5, w, i, 0);
        CHECK(a >= kBase + 5 * 16384);
        CHECK(a < kBase + 6 * 16384);
        lines.insert(a);
      }
    CHECK(lines.size() == 128);  // 512 accesses over a 128-line tile
  }
  SECTION("random over the footprint") {
    k.pattern = MemPattern::kRandom;
    const InstStream s(k, 3, kBase, 128, 32);
    std::set<uint64_t> lines;
    for (uint32_t i = 0; i < 20000; ++i) {
      const uint64_t a = s.line_addr(i % 100, i % 8, i, 0);
      CHECK(a >= kBase);
      CHECK(a < kBase + (1 << 20));
      lines.insert(a);
    }
    CHECK(lines.size() > 7000);  // 8192 lines, random cover
  }
  SECTION("per-CTA working set") {
    k.pattern = MemPattern::kPerCtaWs;
    const InstStream s(k, 3, kBase, 128, 32);
    std::set<uint64_t> lines;
    for (uint32_t w = 0; w < 8; ++w)
      for (uint32_t i = 0; i < 200; ++i) {
        const uint64_t a = s.line_addr(9, w, i, 0);
        CHECK(a >= kBase + 9 * 8192);
        CHECK(a < kBase + 10 * 8192);
        lines.insert(a);
      }
    CHECK(lines.size() > 50);
  }
}
