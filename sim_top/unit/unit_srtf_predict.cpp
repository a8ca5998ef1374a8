// gsched: the SRTF runtime predictor run alone (see unit_srtf_predict.hpp).
#include "unit/unit_srtf_predict.hpp"

#include <array>

#include "common/error.hpp"

namespace gs {

using nlohmann::json;
using golden::SrtfEv;
using golden::SrtfTimedEv;

SrtfSlotView GoldenSrtfPredictUnit::view(uint32_t slot) {
  const auto& q = twin_.q;
  SrtfSlotView v;
  v.active = q.active[slot];
  v.pred = q.pred[slot];
  v.t = q.t[slot];
  v.done = q.done[slot];
  v.total = q.total[slot];
  v.resident = q.den[slot];
  v.has_pred = q.has_pred >> slot & 1u;
  return v;
}

namespace {

/// `obj[key]` as a non-negative integer below `limit`; `name` is the field in errors.
uint64_t field_below(const json& obj, const char* key, const std::string& where, uint64_t limit,
                     const std::string& what, const std::string& file) {
  const std::string name = where + key;
  if (!obj.contains(key)) throw InputError(file, name, "missing");
  const json& v = obj.at(key);
  if (!v.is_number_integer()) throw InputError(file, name, "must be an integer, not " + v.dump());
  if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
    throw InputError(file, name, "must not be negative (" + v.dump() + ")");
  if (v.get<uint64_t>() >= limit)
    throw InputError(file, name, v.dump() + " is not below " + std::to_string(limit) + " (" + what + ")");
  return v.get<uint64_t>();
}

}  // namespace

std::vector<SrtfTimedEv> parse_srtf_predict(const json& input, const std::string& file) {
  constexpr uint32_t K = spec::MaxKernels, B = spec::MaxCtasPerSm;
  constexpr uint64_t kStampRange = uint64_t(1) << spec::CycleW;
  if (!input.is_object()) throw InputError(file, "json", "the input must be an object");
  if (!input.contains("total_blocks")) throw InputError(file, "total_blocks", "missing");
  const json& tb = input.at("total_blocks");
  if (!tb.is_object()) throw InputError(file, "total_blocks", "must be an object {\"<kernel>\": blocks on this SM}");
  std::array<int64_t, K> total;
  total.fill(-1);
  for (const auto& [key, v] : tb.items()) {
    uint32_t k = K;
    if (!key.empty() && key.size() <= 3 && key.find_first_not_of("0123456789") == std::string::npos)
      k = std::stoul(key);
    if (k >= K)
      throw InputError(file, "total_blocks." + key, "the key must be a kernel's KSRT slot 0.." + std::to_string(K - 1));
    total[k] = static_cast<int64_t>(field_below(tb, key.c_str(), "total_blocks.", uint64_t(1) << spec::CtaIdW,
                                                "Total_Blocks fits CtaIdW = " + std::to_string(spec::CtaIdW) + " bits",
                                                file));
  }
  if (!input.contains("events")) throw InputError(file, "events", "missing");
  const json& es = input.at("events");
  if (!es.is_array() || es.empty()) throw InputError(file, "events", "must be a non-empty array of events");

  // what the stream must respect for Algorithm 1 to apply: kernels launched before their
  // blocks, one block per block slot, stamps that differences modulo 2**CycleW measure exactly
  std::array<bool, K> running{};
  std::array<uint32_t, K> resident{};
  std::array<uint64_t, K> active_from{};
  std::array<int32_t, B> holder;  // kernel of the block in slot l, -1: free
  holder.fill(-1);
  std::array<uint64_t, B> started{};
  std::vector<SrtfTimedEv> out;
  uint64_t prev = 0;
  for (uint32_t i = 0; i < es.size(); ++i) {
    const std::string at = "events[" + std::to_string(i) + "]";
    const std::string where = at + ".";
    const json& e = es[i];
    if (!e.is_object()) throw InputError(file, at, "must be an object");
    SrtfTimedEv ev;
    if (!e.contains("kind")) throw InputError(file, where + "kind", "missing");
    const json& kind = e.at("kind");
    const std::string ks = kind.is_string() ? kind.get<std::string>() : "";
    if (ks == "launch") ev.kind = SrtfEvent::kLaunch;
    else if (ks == "start") ev.kind = SrtfEvent::kBlockStart;
    else if (ks == "end") ev.kind = SrtfEvent::kBlockEnd;
    else if (ks == "kernel_end") ev.kind = SrtfEvent::kKernelEnd;
    else
      throw InputError(file, where + "kind",
                       "must be \"launch\", \"start\", \"end\" or \"kernel_end\", not " + kind.dump());
    ev.cycle = field_below(e, "cycle", where, uint64_t(1) << 62, "an absolute cycle", file);
    if (i > 0 && ev.cycle < prev)
      throw InputError(file, where + "cycle",
                       std::to_string(ev.cycle) + " is before the previous event's " + std::to_string(prev));
    prev = ev.cycle;
    const uint32_t k = static_cast<uint32_t>(field_below(e, "kernel", where, K,
                                                         "a KSRT slot, MaxKernels = " + std::to_string(K), file));
    ev.slot = k;
    const bool blocky = ev.kind == SrtfEvent::kBlockStart || ev.kind == SrtfEvent::kBlockEnd;
    if (blocky)
      ev.blk = static_cast<uint32_t>(field_below(e, "block", where, B,
                                                 "a block slot, MaxCtasPerSm = " + std::to_string(B), file));
    if (ev.kind != SrtfEvent::kLaunch && !running[k])
      throw InputError(file, where + "kernel", "kernel " + std::to_string(k) + " is not running (no launch before)");
    switch (ev.kind) {
      case SrtfEvent::kLaunch:
        if (running[k]) throw InputError(file, where + "kernel", "kernel " + std::to_string(k) + " is already running");
        if (total[k] < 0)
          throw InputError(file, "total_blocks." + std::to_string(k),
                           "missing (kernel " + std::to_string(k) + " is launched by " + at + ")");
        ev.total = static_cast<uint32_t>(total[k]);
        running[k] = true;
        break;
      case SrtfEvent::kKernelEnd:
        if (resident[k] != 0)
          throw InputError(file, where + "kind",
                           "kernel_end while " + std::to_string(resident[k]) + " blocks of kernel " +
                               std::to_string(k) + " are resident");
        running[k] = false;
        break;
      case SrtfEvent::kBlockStart:
        if (holder[ev.blk] >= 0)
          throw InputError(file, where + "block",
                           "block slot " + std::to_string(ev.blk) + " already holds a block of kernel " +
                               std::to_string(holder[ev.blk]));
        holder[ev.blk] = static_cast<int32_t>(k);
        started[ev.blk] = ev.cycle;
        if (resident[k]++ == 0) active_from[k] = ev.cycle;
        break;
      case SrtfEvent::kBlockEnd:
        if (holder[ev.blk] != static_cast<int32_t>(k))
          throw InputError(file, where + "block",
                           "block slot " + std::to_string(ev.blk) + " holds no block of kernel " + std::to_string(k));
        if (ev.cycle - started[ev.blk] >= kStampRange || ev.cycle - active_from[k] >= kStampRange)
          throw InputError(file, where + "cycle",
                           "an interval of 2**CycleW cycles or more: stamps modulo 2**" + std::to_string(spec::CycleW) +
                               " cannot measure it");
        holder[ev.blk] = -1;
        --resident[k];
        active_from[k] = ev.cycle;
        break;
    }
    out.push_back(ev);
  }
  return out;
}

json replay_srtf_predict(SrtfPredictUnit& unit, const std::vector<SrtfTimedEv>& evs) {
  // the latency contract bounds every wait (docs/rtl/gs_srtf_predict.md); past it is a hang
  constexpr uint64_t kBound = (spec::MaxKernels + 1) * (spec::SrtfDivW + 1);
  unit.reset();
  json preds = json::array();
  uint64_t cycles = 0;
  for (uint32_t i = 0; i < evs.size(); ++i) {
    const SrtfTimedEv& e = evs[i];
    SrtfEv ev;
    ev.valid = true;
    ev.kind = e.kind;
    ev.slot = e.slot;
    ev.blk = e.blk;
    ev.cycle = static_cast<uint32_t>(e.cycle & golden::width_mask64(spec::CycleW));
    ev.total = e.total;
    unit.clock(ev);
    ++cycles;
    if (e.kind != SrtfEvent::kBlockEnd) continue;
    uint64_t latency = 1;
    for (; unit.busy(); ++latency) {
      if (latency > kBound)
        throw InvariantError("gs_srtf_predict: busy " + std::to_string(kBound) + " cycles after a block end");
      unit.clock(SrtfEv{});
      ++cycles;
    }
    const SrtfSlotView v = unit.view(e.slot);
    if (!v.has_pred)
      throw InvariantError("gs_srtf_predict: no prediction after the block end of event " + std::to_string(i));
    preds.push_back(json{{"event", i},
                         {"cycle", e.cycle},
                         {"kernel", e.slot},
                         {"active", v.active},
                         {"t", v.t},
                         {"done", v.done},
                         {"total", v.total},
                         {"resident", v.resident},
                         {"pred", v.pred},
                         {"latency", latency}});
  }
  return json{{"predictions", preds}, {"cycles", cycles}};
}

json run_srtf_predict_unit(SrtfPredictUnit& unit, const json& input, const std::string& file) {
  return replay_srtf_predict(unit, parse_srtf_predict(input, file));
}

json srtf_reference_json(const std::vector<SrtfTimedEv>& evs) {
  json preds = json::array();
  for (const golden::SrtfPrediction& p : golden::srtf_reference(evs))
    preds.push_back(json{{"event", p.event},
                         {"cycle", evs[p.event].cycle},
                         {"kernel", p.slot},
                         {"active", p.active},
                         {"t", p.t},
                         {"done", p.done},
                         {"total", p.total},
                         {"resident", p.resident},
                         {"pred", p.pred}});
  return preds;
}

}  // namespace gs
