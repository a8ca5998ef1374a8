// gsched block bench: rtl/lib/gs_ffs.sv (Verilated with Width = 13: a tree with padded leaves,
// and DataW = 4) against the loop every user's golden twin runs, on every input: the index and
// the found request's data word. Each GS_MUT_FFS_* mutant
// runs the same inputs and must differ (docs/rtl/mutations.md).
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include <verilated.h>

#include "Vbench_gs_ffs.h"
#include "gs_ffs_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per GS_MUT_FFS_*

namespace {

constexpr uint32_t kWidth = 13;  // -GWidth=13 -GDataW=4 in verif/rtl/benches/CMakeLists.txt
constexpr uint32_t kDataW = 4;

/// Request i's data word for request vector `req`: differs between neighbours and between inputs.
uint64_t data_word(uint32_t req, uint32_t i) { return (i * 5u + req) & ((1u << kDataW) - 1u); }

/// Every request vector of kWidth bits: "" or the first input whose result differs from the
/// lowest set bit.
template <class V>
std::string every_input() {
  auto ctx = std::make_unique<VerilatedContext>();
  V d(ctx.get(), "dut");
  for (uint32_t req = 0; req < (1u << kWidth); ++req) {
    uint64_t data = 0;
    for (uint32_t i = 0; i < kWidth; ++i) data |= data_word(req, i) << (i * kDataW);
    d.req_i = req;
    d.data_i = data;
    d.eval();
    uint32_t lowest = 0;
    while (req != 0 && !(req >> lowest & 1u)) ++lowest;
    const bool valid = req != 0;
    const uint64_t word = valid ? data_word(req, lowest) : 0;  // no request: index 0, data 0
    if (bool(d.valid_o) != valid || d.idx_o != lowest || d.data_o != word)
      return "req " + std::to_string(req) + ": valid " + std::to_string(d.valid_o) + " idx " + std::to_string(d.idx_o) +
             " data " + std::to_string(d.data_o) + ", expected valid " + std::to_string(valid) + " idx " +
             std::to_string(lowest) + " data " + std::to_string(word);
  }
  return "";
}

}  // namespace

TEST_CASE("gs_ffs: the lowest set bit of every 13-bit input, and its data word", "[rtl][bench]") {
  CHECK(every_input<Vbench_gs_ffs>() == "");
}

#define GS_FFS_MUTANT_TEST(define, model)                                      \
  TEST_CASE("gs_ffs mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = every_input<model>();                             \
    INFO(diff);                                                                \
    CHECK(diff != "");                                                         \
    WARN(#define " caught: " << diff);                                         \
  }
GS_BENCH_MUTANTS(GS_FFS_MUTANT_TEST)
