// gsched: strict JSON reading with file/field/reason errors (see json_reader.hpp).
#include "config/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace gs {

using nlohmann::json;

std::string read_text_file(const std::string& path) {
  // Input files are small JSON; a device, a directory or a huge file is a mistake, not input.
  constexpr uintmax_t kMaxInputBytes = 64ull << 20;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path + ": not a regular file");
  if (const uintmax_t size = std::filesystem::file_size(path, ec); !ec && size > kMaxInputBytes)
    throw InputError(path + ": " + std::to_string(size >> 20) + " MiB is too large for an input file (at most " +
                     std::to_string(kMaxInputBytes >> 20) + " MiB)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

// Line and column (1-based) of a 1-based byte position, as editors count them.
void line_col(const std::string& text, size_t byte, size_t& line, size_t& col) {
  line = 1;
  col = 1;
  const size_t end = std::min(text.size(), byte > 0 ? byte - 1 : 0);
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
}

// nlohmann's message starts with "[json.exception.parse_error.101] parse error at line L,
// column C: "; keep only the explanation, the position is reported by us.
std::string parse_error_reason(const std::string& what) {
  const auto col = what.find("column ");
  if (col != std::string::npos) {
    const auto colon = what.find(": ", col);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  const auto bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

json parse_json_strict(const std::string& text, const std::string& file) {
  // Nesting depth, outside strings: no input of ours nests deeper than a few levels, and a
  // hostile one (100000 '[') would only cost stack and time.
  {
    constexpr int kMaxDepth = 64;
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\') ++i;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        if (++depth > kMaxDepth) {
          size_t line = 0, col = 0;
          line_col(text, i + 1, line, col);
          throw InputError(file + ":" + std::to_string(line) + ":" + std::to_string(col) +
                           ": JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
        }
      } else if (c == ']' || c == '}') {
        --depth;
      }
    }
  }
  // Duplicate keys: one set of seen keys per open object. The parser callback cannot tell
  // us the position, so we name the key and the object it sits in.
  struct Frame {
    bool is_object;
    std::set<std::string> keys;
    std::string last_key;
  };
  std::vector<Frame> frames;
  std::string duplicate;
  std::string duplicate_parent;
  json::parser_callback_t cb = [&](int, json::parse_event_t ev, json& parsed) {
    switch (ev) {
      case json::parse_event_t::object_start: frames.push_back({true, {}, {}}); break;
      case json::parse_event_t::array_start: frames.push_back({false, {}, {}}); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames.empty()) frames.pop_back();
        break;
      case json::parse_event_t::key:
        if (!frames.empty() && frames.back().is_object && parsed.is_string()) {
          const std::string key = parsed.get<std::string>();
          if (!frames.back().keys.insert(key).second && duplicate.empty()) {
            duplicate = key;
            for (size_t i = frames.size() - 1; i-- > 0;) {
              if (frames[i].is_object) {
                duplicate_parent = frames[i].last_key;
                break;
              }
            }
          }
          frames.back().last_key = key;
        }
        break;
      case json::parse_event_t::value: break;
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(text, cb, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const json::parse_error& e) {
    size_t line = 0, col = 0;
    line_col(text, e.byte, line, col);
    throw InputError(file + ":" + std::to_string(line) + ":" + std::to_string(col) +
                     ": JSON syntax error: " + parse_error_reason(e.what()));
  } catch (const json::exception& e) {
    // Not a syntax error but a value the parser cannot hold: "number overflow parsing '1e400'"
    // (out_of_range.406). Locate the quoted token in the text for the line and column.
    const std::string what = e.what();
    std::string where = file;
    const auto q1 = what.find('\'');
    const auto q2 = q1 == std::string::npos ? q1 : what.find('\'', q1 + 1);
    if (q2 != std::string::npos) {
      const auto pos = text.find(what.substr(q1 + 1, q2 - q1 - 1));
      if (pos != std::string::npos) {
        size_t line = 0, col = 0;
        line_col(text, pos + 1, line, col);
        where += ":" + std::to_string(line) + ":" + std::to_string(col);
      }
    }
    throw InputError(where + ": JSON value out of range: " + parse_error_reason(what) +
                     " (numbers must fit a 64-bit integer or a double)");
  }
  if (!duplicate.empty()) {
    throw InputError(file, duplicate,
                     "key given twice in the same object" +
                         (duplicate_parent.empty() ? std::string() : " (inside '" + duplicate_parent + "')") +
                         "; each key may appear once");
  }
  return doc;
}

std::vector<std::string> json_stems_in(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> stems;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return stems;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    if (entry.path().extension() != ".json") continue;
    stems.push_back(entry.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());  // directory order is not deterministic
  return stems;
}

std::vector<std::string> closest_names(const std::string& word, const std::vector<std::string>& candidates,
                                       size_t max) {
  const std::string w = lower(word);
  const size_t limit = std::max<size_t>(2, w.size() / 3);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const std::string lc = lower(c);
    size_t d = edit_distance(w, lc);
    // A name that contains the word (or the reverse) is a good hint: "hot" -> "HOT", "lbm" ->
    // "lbm.StreamCollide".
    if (w.size() >= 2 && (lc.find(w) != std::string::npos || w.find(lc) != std::string::npos))
      d = std::min<size_t>(d, 1);
    if (d <= limit) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < max; ++i) out.push_back(scored[i].second);
  return out;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  return out;
}

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0);
}

std::string json_type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return "number with a fraction";
    case json::value_t::string: return "string";
    case json::value_t::array: return "array";
    case json::value_t::object: return "object";
    default: return "value";
  }
}

void expect_object(const json& v, const std::string& file, const std::string& path) {
  if (!v.is_object()) {
    throw InputError(file, path.empty() ? "<top level>" : path,
                     "expected a JSON object {...}, got " + json_type_name(v));
  }
}

// --- ObjectReader -------------------------------------------------------------------------

namespace {
std::vector<FieldRead>* g_field_sink = nullptr;  // FieldRecorder (gsim show config)
}  // namespace

FieldRecorder::FieldRecorder(std::vector<FieldRead>* sink) { g_field_sink = sink; }
FieldRecorder::~FieldRecorder() { g_field_sink = nullptr; }

void ObjectReader::record(const std::string& key, const std::string& value) const {
  if (g_field_sink) g_field_sink->push_back({file_, field(key), value, obj_.contains(key)});
}

ObjectReader::ObjectReader(const json& obj, std::string file, std::string path)
    : obj_(obj), file_(std::move(file)), path_(std::move(path)) {
  expect_object(obj_, file_, path_);
}

std::string ObjectReader::field(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

void ObjectReader::fail(const std::string& key, const std::string& reason) const {
  throw InputError(file_, field(key), reason);
}

const json* ObjectReader::get(const std::string& key) {
  known_.insert(key);
  const auto it = obj_.find(key);
  return it == obj_.end() ? nullptr : &*it;
}

bool ObjectReader::has(const std::string& key) { return get(key) != nullptr; }

void ObjectReader::require(const std::string& key) {
  if (!get(key)) fail(key, "required field is missing");
}

uint64_t ObjectReader::integer(const std::string& key, const json& v, uint64_t min, uint64_t max,
                               const char* why) const {
  if (v.is_number_float()) {
    fail(key, "expected a whole number, got " + v.dump());
  }
  if (!v.is_number_integer()) {
    fail(key, "expected an integer, got " + json_type_name(v) + " " + v.dump());
  }
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0) {
    fail(key, "must not be negative (got " + v.dump() + ")");
  }
  const uint64_t x = v.get<uint64_t>();
  if (x < min || x > max) {
    std::string range = "must be ";
    if (max == std::numeric_limits<uint64_t>::max() || max == std::numeric_limits<uint32_t>::max()) {
      range += ">= " + std::to_string(min);
    } else {
      range += "between " + std::to_string(min) + " and " + std::to_string(max);
    }
    fail(key, range + " (got " + std::to_string(x) + ")" + (why && x > max ? std::string("; ") + why : std::string()));
  }
  return x;
}

void ObjectReader::u32(const std::string& key, uint32_t& out, uint32_t min, uint32_t max, const char* why) {
  if (const json* v = get(key)) out = static_cast<uint32_t>(integer(key, *v, min, max, why));
  if (g_field_sink) record(key, std::to_string(out));
}

void ObjectReader::u64(const std::string& key, uint64_t& out, uint64_t min, uint64_t max, const char* why) {
  if (const json* v = get(key)) out = integer(key, *v, min, max, why);
  if (g_field_sink) record(key, std::to_string(out));
}

void ObjectReader::fixed(const std::string& key, uint32_t& out, uint32_t frac_bits, uint32_t max_raw, const char* why) {
  const json* v = get(key);
  if (!v) {
    if (g_field_sink) record(key, std::to_string(std::ldexp(double(out), -static_cast<int>(frac_bits))));
    return;
  }
  if (!v->is_number()) fail(key, "expected a number, got " + json_type_name(*v) + " " + v->dump());
  const double x = v->get<double>();
  const double step = std::ldexp(1.0, -static_cast<int>(frac_bits));
  const double max = max_raw * step;
  if (!(x >= 0.0) || x > max) {
    std::ostringstream os;
    os << "must be between 0 and " << max << " (got " << v->dump() << ")" << (why ? std::string("; ") + why : "");
    fail(key, os.str());
  }
  out = static_cast<uint32_t>(std::floor(x / step + 0.5));
  if (g_field_sink) record(key, v->dump());
}

void ObjectReader::str(const std::string& key, std::string& out, bool allow_empty) {
  const json* v = get(key);
  if (!v) {
    if (g_field_sink) record(key, "\"" + out + "\"");
    return;
  }
  if (!v->is_string()) fail(key, "expected a string, got " + json_type_name(*v) + " " + v->dump());
  std::string s = v->get<std::string>();
  if (s.empty() && !allow_empty) fail(key, "must not be empty");
  out = std::move(s);
  if (g_field_sink) record(key, "\"" + out + "\"");
}

void ObjectReader::notes(const std::string& key) {
  const json* v = get(key);
  if (!v || v->is_string()) return;
  if (v->is_array()) {
    for (const auto& e : *v) {
      if (!e.is_string()) fail(key, "expected a string or an array of strings");
    }
    return;
  }
  fail(key, "expected a string or an array of strings, got " + json_type_name(*v));
}

void ObjectReader::any_object(const std::string& key) {
  const json* v = get(key);
  if (v && !v->is_object()) fail(key, "expected an object {...}, got " + json_type_name(*v));
}

void ObjectReader::u32_list(const std::string& key, std::vector<uint32_t>& out, uint32_t min, uint32_t max,
                            const char* why) {
  const json* v = get(key);
  if (v) {
    if (!v->is_array()) fail(key, "expected an array of integers, got " + json_type_name(*v));
    std::vector<uint32_t> list;
    for (size_t i = 0; i < v->size(); ++i) {
      list.push_back(static_cast<uint32_t>(integer(key + "[" + std::to_string(i) + "]", (*v)[i], min, max, why)));
    }
    out = std::move(list);
  }
  if (g_field_sink) {
    std::string text;
    for (uint32_t x : out) text += (text.empty() ? "" : ", ") + std::to_string(x);
    record(key, "[" + text + "]");
  }
}

int ObjectReader::choice(const std::string& key, const std::vector<std::string>& choices) {
  const json* v = get(key);
  if (!v) {
    if (!choices.empty()) record(key, choices[0]);
    return -1;
  }
  if (!v->is_string()) fail(key, "expected one of \"" + join_names(choices) + "\", got " + json_type_name(*v));
  const std::string s = v->get<std::string>();
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == s) {
      record(key, s);
      return static_cast<int>(i);
    }
  }
  fail(key, "unknown value \"" + s + "\"; expected one of: " + join_names(choices));
}

const json* ObjectReader::array(const std::string& key) {
  const json* v = get(key);
  if (v && !v->is_array()) fail(key, "expected an array [...], got " + json_type_name(*v));
  return v;
}

const json* ObjectReader::object(const std::string& key) {
  const json* v = get(key);
  if (v && !v->is_object()) fail(key, "expected an object {...}, got " + json_type_name(*v));
  return v;
}

void ObjectReader::reject_unknown_keys(const std::vector<std::pair<std::string, std::string>>& hints) const {
  const std::vector<std::string> valid(known_.begin(), known_.end());
  for (auto it = obj_.begin(); it != obj_.end(); ++it) {
    if (known_.count(it.key())) continue;
    std::string reason = "unknown key";
    for (const auto& h : hints) {
      if (h.first == it.key()) reason += " (" + h.second + ")";
    }
    const auto close = closest_names(it.key(), valid, 1);
    if (!close.empty()) reason += " (did you mean '" + close.front() + "'?)";
    reason += "; valid keys here: " + join_names(valid);
    fail(it.key(), reason);
  }
}

}  // namespace gs
