// gsched: the DSS decision unit run alone (see unit_dss.hpp).
//
// The environment is gs_top's wiring around gs_policy_dss, without the SM driver and the GPU:
// golden KSRT (tokens; `pending` kernels have CTAs left to issue: grid 2, next_cta 0), Active
// Queue (rank = listed order), SMST (states, owners, resident CTAs) and gs_preempt_ctrl's accept
// rule. Every side of `gsim unit dss` runs in this one loop, so the sides differ only in the unit.
#include "unit/unit_dss.hpp"

#include <map>

#include "common/error.hpp"
#include "unit/unit_numbers.hpp"
#include "sched/golden/gs_preempt_ctrl.hpp"

namespace gs {

using nlohmann::json;
using namespace golden;

namespace {

const char* state_name(SmState s) {
  switch (s) {
    case SmState::kIdle: return "idle";
    case SmState::kRunning: return "running";
    case SmState::kReserved: return "reserved";
  }
  return "?";
}

/// The DSS unit's input, validated (kernel ids mapped to KSRT slots in listed order).
struct DssInput {
  uint32_t num_sms = 0;
  uint32_t max_cycles = 10000;
  std::string event;
  struct Kernel {
    KernelId id = 0;
    int16_t tokens = 0;
    bool pending = true;
  };
  std::vector<Kernel> kernels;
  struct Sm {
    SmState state = SmState::kIdle;
    int owner = -1;  // slot
    int next = -1;   // slot
    uint32_t ctas = 0;
  };
  std::vector<Sm> sms;
};

DssInput parse_dss(const json& in, const std::string& file) {
  DssInput d;
  auto need = [&](const json& obj, const char* key, const std::string& where) -> const json& {
    if (!obj.is_object() || !obj.contains(key)) throw InputError(file, where + key, "missing");
    return obj.at(key);
  };
  try {
    d.num_sms = uint32_t(unit_uint(need(in, "num_sms", ""), file, "num_sms", 1, MaxSms, "RTL MaxSms"));
    d.event = need(in, "event", "").get<std::string>();
    if (d.event != "arrival" && d.event != "sm_idle")
      throw InputError(file, "event", "must be \"arrival\" or \"sm_idle\", not \"" + d.event + "\"");
    if (in.contains("max_cycles"))
      d.max_cycles = uint32_t(unit_uint(in.at("max_cycles"), file, "max_cycles", 1, 1000000,
                                        "a decision takes a few cycles per SM"));
    const json& ks = need(in, "kernels", "");
    if (!ks.is_array() || ks.empty() || ks.size() > MaxKernels)
      throw InputError(file, "kernels", "must list 1.." + std::to_string(MaxKernels) + " kernels (RTL MaxKernels)");
    std::map<KernelId, int> slot_of;
    for (size_t i = 0; i < ks.size(); ++i) {
      const std::string w = "kernels[" + std::to_string(i) + "].";
      DssInput::Kernel k;
      const uint32_t id = uint32_t(unit_uint(need(ks[i], "id", w), file, w + "id", 0, 254));
      k.id = static_cast<KernelId>(id);
      const int32_t t = int32_t(unit_int(need(ks[i], "tokens", w), file, w + "tokens", -32768, 32767, "16-bit signed"));
      k.tokens = static_cast<int16_t>(t);
      if (ks[i].contains("pending")) k.pending = ks[i].at("pending").get<bool>();
      if (slot_of.count(k.id)) throw InputError(file, w + "id", "duplicate kernel id " + std::to_string(id));
      slot_of[k.id] = static_cast<int>(i);
      d.kernels.push_back(k);
    }
    const json& ss = need(in, "sms", "");
    if (!ss.is_array() || ss.size() != d.num_sms)
      throw InputError(file, "sms", "must list exactly num_sms = " + std::to_string(d.num_sms) + " SMs");
    auto slot = [&](const json& v, const std::string& field) {
      if (v.is_null()) return -1;
      const auto it = slot_of.find(static_cast<KernelId>(unit_uint(v, file, field, 0, 254)));
      if (it == slot_of.end()) throw InputError(file, field, "kernel " + v.dump() + " is not in \"kernels\"");
      return it->second;
    };
    for (size_t s = 0; s < ss.size(); ++s) {
      const std::string w = "sms[" + std::to_string(s) + "].";
      DssInput::Sm sm;
      const std::string st = need(ss[s], "state", w).get<std::string>();
      if (st == "idle") sm.state = SmState::kIdle;
      else if (st == "running") sm.state = SmState::kRunning;
      else if (st == "reserved") sm.state = SmState::kReserved;
      else throw InputError(file, w + "state", "must be idle, running or reserved, not \"" + st + "\"");
      if (ss[s].contains("kernel")) sm.owner = slot(ss[s].at("kernel"), w + "kernel");
      if (ss[s].contains("next")) sm.next = slot(ss[s].at("next"), w + "next");
      sm.ctas = ss[s].value("ctas", sm.owner >= 0 ? 1u : 0u);
      if (sm.ctas > MaxCtasPerSm) throw InputError(file, w + "ctas", "exceeds MaxCtasPerSm");
      if (sm.state == SmState::kRunning && sm.owner < 0)
        throw InputError(file, w + "kernel", "a running SM needs its kernel");
      if (sm.state == SmState::kIdle && sm.owner >= 0) throw InputError(file, w + "kernel", "an idle SM has no kernel");
      if (sm.state == SmState::kReserved && sm.next < 0)
        throw InputError(file, w + "next", "a reserved SM needs the kernel it is reserved for");
      d.sms.push_back(sm);
    }
  } catch (const json::exception& e) {
    throw InputError(file, "json", e.what());
  }
  return d;
}

/// The environment loop (file comment of unit_dss.hpp).
json run_dss(DssUnit& unit, const DssInput& d) {
  const uint32_t slots = MaxKernels;
  Ksrt ksrt;
  ksrt.reset(slots);
  ActiveQueue aq;
  aq.reset(slots);
  for (uint32_t k = 0; k < d.kernels.size(); ++k) {
    KsrtEntry& e = ksrt.q.tbl[k];
    e.valid = true;
    e.kernel = d.kernels[k].id;
    e.tokens = d.kernels[k].tokens;
    e.grid = 2;
    e.next_cta = d.kernels[k].pending ? 0 : 2;
    aq.q.rank[k] = k;
  }
  Smst smst;
  smst.reset(d.num_sms, slots);
  for (uint32_t s = 0; s < d.num_sms; ++s) {
    SmstEntry& m = smst.q.tbl[s];
    const auto& in = d.sms[s];
    m.state = in.state;
    m.owner_valid = in.owner >= 0;
    m.owner = in.owner >= 0 ? uint32_t(in.owner) : 0;
    m.next_valid = in.next >= 0;
    m.next = in.next >= 0 ? uint32_t(in.next) : 0;
    m.ctas = in.ctas;
    if (in.owner >= 0) smst.q.resident[s * slots + uint32_t(in.owner)] = in.ctas;
  }
  unit.reset();

  json actions = json::array();
  uint32_t cycle = 0;
  for (; cycle < d.max_cycles; ++cycle) {
    uint32_t pending = 0;
    for (uint32_t k = 0; k < slots; ++k) {
      const KsrtEntry& e = ksrt.entry(k);
      if (e.valid && e.next_cta != e.grid) pending |= 1u << k;
    }
    DssUnitInputs in;
    in.num_sms = d.num_sms;
    in.trigger = cycle == 0;  // the event that invoked the unit
    in.pending = pending;
    in.ksrt = &ksrt;
    in.aq = &aq;
    in.smst = &smst;
    const DssUnitDecision o = unit.eval(in);
    // A unit under test (RTL) may name any SM its port can carry; the tables hold num_sms.
    if ((o.owner_wr.valid && o.owner_wr.sm >= d.num_sms) || (o.req.valid && o.req.sm >= d.num_sms))
      throw InvariantError("dss unit: cycle " + std::to_string(cycle) +
                           ": decision for an SM beyond num_sms = " + std::to_string(d.num_sms));
    const bool accepted = PreemptCtrl::accept(o.req, smst);
    const TokenUpd tok = unit.tokens(accepted);
    if (o.owner_wr.valid) {
      json a{{"cycle", cycle}, {"sm", o.owner_wr.sm}};
      if (o.owner_wr.owner_valid) {
        a["action"] = "assign";
        a["kernel"] = ksrt.entry(o.owner_wr.owner).kernel;
      } else {
        a["action"] = "release";
        a["kernel"] = ksrt.entry(smst.entry(o.owner_wr.sm).owner).kernel;
      }
      actions.push_back(a);
    }
    if (accepted) {
      actions.push_back(json{{"cycle", cycle},
                             {"action", "preempt"},
                             {"sm", o.req.sm},
                             {"victim", ksrt.entry(o.req.victim).kernel},
                             {"next", ksrt.entry(o.req.next).kernel}});
    }
    const bool was_busy = unit.busy();
    unit.clock();
    Smst::In w;
    w.reserve_valid = accepted;
    w.reserve_sm = o.req.sm;
    w.reserve_next_valid = o.req.next_valid && o.req.assign_next;
    w.reserve_next = o.req.next;
    w.owner_wr = o.owner_wr;
    Ksrt::In kin;
    kin.tok = tok;
    smst.next(w, smst.d);
    ksrt.next(kin, ksrt.d);
    smst.commit();
    ksrt.commit();
    if (cycle > 0 && !was_busy && !unit.busy()) break;
  }
  if (cycle >= d.max_cycles)
    throw InputError("dss unit: still busy after max_cycles = " + std::to_string(d.max_cycles));

  json tokens = json::object();
  for (uint32_t k = 0; k < d.kernels.size(); ++k) tokens[std::to_string(ksrt.entry(k).kernel)] = ksrt.entry(k).tokens;
  json sms = json::array();
  for (uint32_t s = 0; s < d.num_sms; ++s) {
    const SmstEntry& m = smst.entry(s);
    json e{{"sm", s}, {"state", state_name(m.state)}};
    e["kernel"] = m.owner_valid ? json(ksrt.entry(m.owner).kernel) : json(nullptr);
    e["next"] = m.next_valid ? json(ksrt.entry(m.next).kernel) : json(nullptr);
    sms.push_back(e);
  }
  return json{{"cycles", cycle}, {"actions", actions}, {"tokens", tokens}, {"sms", sms}};
}

}  // namespace

void GoldenDssUnit::reset() { dss_.reset(MaxKernels); }

DssUnitDecision GoldenDssUnit::eval(const DssUnitInputs& in) {
  in_ = in;
  out_ = dss_.comb(true, in.pending, *in.ksrt, *in.aq, *in.smst);
  return DssUnitDecision{out_.owner_wr, out_.req};
}

TokenUpd GoldenDssUnit::tokens(bool accepted) { return DssUnitTwin::tokens(out_, accepted); }

void GoldenDssUnit::clock() {
  dss_.clock(true, in_.trigger, out_, in_.pending, *in_.ksrt, *in_.aq, *in_.smst, in_.num_sms);
}

bool GoldenDssUnit::busy() const { return dss_.q.st != DssUnitTwin::St::kIdle; }

json run_dss_unit(DssUnit& unit, const json& input, const std::string& file) {
  return run_dss(unit, parse_dss(input, file));
}

}  // namespace gs
