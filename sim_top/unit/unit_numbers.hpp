// gsched: the numeric fields of `gsim unit` inputs, range-checked after conversion.
//
// nlohmann::json's get<uint32_t>() wraps -1 to 2^32-1 and 2^32+8 to 8, and turns 1e300 into
// anything; std::llround of a product beyond 2^63 is undefined. Every number a unit reads goes
// through these instead: the value is checked against its range in the type it was written in
// (a JSON integer, a float) before it is narrowed, and a value out of range is an InputError
// naming the file, the field and the range (exit 2), in the loaders' style
// ("F: field 'kernels[0].ipc_big': ...").
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace gs {

/// An integer field in lo..hi (inclusive); `why` (e.g. "RTL MaxSms") is named in the message.
inline uint64_t unit_uint(const nlohmann::json& v, const std::string& file, const std::string& field, uint64_t lo,
                          uint64_t hi, const std::string& why = "") {
  const std::string range = "an integer " + std::to_string(lo) + ".." + std::to_string(hi) +
                            (why.empty() ? std::string() : " (" + why + ")");
  if (!v.is_number_integer()) throw InputError(file, field, "must be " + range + ", not " + v.dump());
  if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
    throw InputError(file, field, "must be " + range + ", not " + v.dump());
  const uint64_t x = v.get<uint64_t>();
  if (x < lo || x > hi) throw InputError(file, field, "must be " + range + ", not " + v.dump());
  return x;
}

/// A signed integer field in lo..hi (inclusive).
inline int64_t unit_int(const nlohmann::json& v, const std::string& file, const std::string& field, int64_t lo,
                        int64_t hi, const std::string& why = "") {
  const std::string range = "an integer " + std::to_string(lo) + ".." + std::to_string(hi) +
                            (why.empty() ? std::string() : " (" + why + ")");
  if (!v.is_number_integer()) throw InputError(file, field, "must be " + range + ", not " + v.dump());
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > uint64_t(hi < 0 ? 0 : hi))
      throw InputError(file, field, "must be " + range + ", not " + v.dump());
    return int64_t(v.get<uint64_t>());
  }
  const int64_t x = v.get<int64_t>();
  if (x < lo || x > hi) throw InputError(file, field, "must be " + range + ", not " + v.dump());
  return x;
}

/// IPC x window_cycles rounded to whole instructions, which must fit `bits` bits (`width`, e.g.
/// "HcInstW"): refused before rounding, so no overflow can reach the unit.
inline uint64_t unit_insts(double ipc, uint64_t window, unsigned bits, const std::string& width,
                           const std::string& file, const std::string& field) {
  const double top = std::ldexp(1.0, int(bits));  // 2^bits, exact in a double
  const double v = ipc * double(window);
  if (!std::isfinite(v) || v < 0 || v >= top - 0.5) {
    const double max_ipc = (top - 1) / double(window);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", max_ipc);
    char got[64];
    std::snprintf(got, sizeof got, "%.6g", ipc);
    throw InputError(file, field,
                     "IPC " + std::string(got) + " x window_cycles " + std::to_string(window) + " does not fit " +
                         width + " = " + std::to_string(bits) + " bits of instructions: must be 0.." + buf +
                         " for this window");
  }
  return uint64_t(std::llround(v));
}

}  // namespace gs
