// gsched tests: golden::PolicyState, the policy registers in their RTL bit layout (the
// lockstep state check and the policy benches compare it bit for bit with state_o), and the
// registry's field tables the check names a differing register with.
#include <catch2/catch.hpp>

#include <vector>

#include "common/rng.hpp"
#include "sched/golden/gs_policy_ppq.hpp"
#include "sched/golden/gs_policy_spatial.hpp"

namespace {

using namespace gs;
using golden::PolicyState;

/// put()/get() against a bit-by-bit reference, fields straddling the 64-bit word boundary included.
TEST_CASE("PolicyState put and get are the bit layout, across word boundaries", "[golden][policy]") {
  Rng rng(7);
  std::vector<bool> ref(PolicyState::kWords * 64, false);
  PolicyState st;
  for (int i = 0; i < 20000; ++i) {
    const uint32_t width = 1 + static_cast<uint32_t>(rng.below(64));
    const uint32_t lsb = static_cast<uint32_t>(rng.below(PolicyState::kWords * 64 - width + 1));
    const uint64_t v = rng.next();
    st.put(lsb, width, v);
    for (uint32_t b = 0; b < width; ++b) ref[lsb + b] = (v >> b) & 1u;
    const uint32_t glsb = static_cast<uint32_t>(rng.below(PolicyState::kWords * 64 - width + 1));
    uint64_t want = 0;
    for (uint32_t b = 0; b < width; ++b) want |= uint64_t(ref[glsb + b]) << b;
    REQUIRE(st.get(glsb, width) == want);
    for (uint32_t b = 0; b < PolicyState::kWords * 64; b += 17) REQUIRE(st.bit(b) == ref[b]);
  }
}

TEST_CASE("the registry names every register of a module with state, inside PolicyStateW", "[golden][policy]") {
  uint32_t with_state = 0;
  for (const spec::PolicyInfo& p : spec::kPolicies) {
    if (p.state[0] == '\0') {
      REQUIRE(p.state_field_count == 0);
      continue;
    }
    ++with_state;
    REQUIRE(p.state_field_count > 0);
    uint32_t bits = 0;
    for (uint32_t i = 0; i < p.state_field_count; ++i) {
      INFO(p.module << "." << p.state_fields[i].name);
      REQUIRE(p.state_fields[i].lsb + p.state_fields[i].width <= spec::PolicyStateW);
      bits += p.state_fields[i].width;
    }
    REQUIRE(bits <= spec::PolicyStateW);
  }
  REQUIRE(with_state >= 4);  // even, spatial, ppq (x2), dss
}

TEST_CASE("a twin's state() writes its registers where the layout says", "[golden][policy]") {
  golden::PolicyPpq ppq;
  ppq.q.busy = true;
  ppq.q.s = 5;
  ppq.q.target = 9;
  ppq.q.seen = 9;
  ppq.q.next = 3;
  ppq.q.seen_valid = true;
  PolicyState st;
  st.put(0, 64, ~0ull);  // state() clears what it does not write
  ppq.state(st);
  namespace L = spec::layout::ppq_state_t;
  CHECK(st.get(L::busy_lsb, L::busy_width) == 1);
  CHECK(st.get(L::s_lsb, L::s_width) == 5);
  CHECK(st.get(L::target_lsb, L::target_width) == 9);
  CHECK(st.get(L::seen_lsb, L::seen_width) == 9);
  CHECK(st.get(L::next_lsb, L::next_width) == 3);
  CHECK(st.get(L::seen_valid_lsb, L::seen_valid_width) == 1);
  CHECK(st.get(spec::PpqStateW, 64 - spec::PpqStateW % 64) == 0);

  golden::PolicySpatial sp;
  sp.scan.q.busy = true;
  sp.scan.q.nk = 3;
  sp.q.pos = 2;
  sp.state(st);
  namespace S = spec::layout::spatial_state_t;
  namespace C = spec::layout::scan_state_t;
  CHECK(st.get(S::scan_lsb + C::busy_lsb, 1) == 1);
  CHECK(st.get(S::scan_lsb + C::nk_lsb, C::nk_width) == 3);
  CHECK(st.get(S::pos_lsb, S::pos_width) == 2);
}

}  // namespace
