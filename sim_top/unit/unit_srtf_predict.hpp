// gsched: SRTF's Simple Slicing runtime predictor run alone (`gsim unit srtf-predict`).
//
// parse_srtf_predict() validates the JSON input (docs/rtl/gs_srtf_predict.md, "gsim unit
// srtf-predict"): one SM's events {"events": [{"cycle", "kind": "launch" | "start" | "end" |
// "kernel_end", "kernel", "block"}], "total_blocks": {"<kernel>": n}}, kernel = KSRT slot,
// block = block slot on the SM (start and end), cycles absolute and non-decreasing (the ports
// see them modulo 2**CycleW). replay_srtf_predict() drives one side -- the golden
// SrtfPredictTwin here, the Verilated gs_srtf_predict (sim_top/rtl_sched/unit_srtf_predict_rtl.hpp)
// -- one event per cycle, and after every block end clocks until the predictor is idle, so
// every end gets its own prediction: {"predictions": [{"event", "cycle", "kernel", "active",
// "t", "done", "total", "resident", "pred", "latency"}], "cycles"}.
// Throws InputError naming the file and the field for a malformed input (exit 2).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sched/golden/gs_srtf_predict.hpp"

namespace gs {

/// What the replay reads of one slot after a block end's prediction (the predictor's registers).
struct SrtfSlotView {
  uint64_t active = 0, pred = 0;
  uint32_t t = 0, done = 0, total = 0, resident = 0;  // resident: Eq. 2's divisor (den)
  bool has_pred = false;
};

/// One implementation of gs_srtf_predict, clocked one cycle at a time.
class SrtfPredictUnit {
 public:
  virtual ~SrtfPredictUnit() = default;
  virtual void reset() = 0;
  /// One clock cycle with `ev` on the event port (ev.valid = false: none).
  virtual void clock(const golden::SrtfEv& ev) = 0;
  /// busy_o after the last edge.
  virtual bool busy() = 0;
  virtual SrtfSlotView view(uint32_t slot) = 0;
};

/// The golden twin behind SrtfPredictUnit.
class GoldenSrtfPredictUnit final : public SrtfPredictUnit {
 public:
  void reset() override { twin_.reset(); }
  void clock(const golden::SrtfEv& ev) override {
    twin_.next(ev);
    twin_.commit();
  }
  bool busy() override { return twin_.busy(); }
  SrtfSlotView view(uint32_t slot) override;

 private:
  golden::SrtfPredictTwin twin_;
};

/// The validated events, in order, with their absolute cycles.
std::vector<golden::SrtfTimedEv> parse_srtf_predict(const nlohmann::json& input, const std::string& file);

/// Replays `evs` on `unit` (see the file comment); the JSON result.
nlohmann::json replay_srtf_predict(SrtfPredictUnit& unit, const std::vector<golden::SrtfTimedEv>& evs);

/// parse_srtf_predict + replay_srtf_predict (file names it in errors).
nlohmann::json run_srtf_predict_unit(SrtfPredictUnit& unit, const nlohmann::json& input, const std::string& file);

/// The result's "predictions" from srtf_reference() (Algorithm 1 and Eq. 2 read straight), with
/// "latency" left out: what the replay must report, latency aside.
nlohmann::json srtf_reference_json(const std::vector<golden::SrtfTimedEv>& evs);

}  // namespace gs
