// gsched: strict, self-describing reading of the JSON input files (configs, kernels, mixes).
//
// Contract: every user-facing mistake in a JSON file becomes a gs::InputError whose message
// names the file, the field (as a path such as "sm_types[1].l1_assoc") and the reason:
//   - syntax errors report line and column;
//   - a key given twice in one object is an error (JSON parsers silently keep the last one);
//   - a key nobody reads is an error listing the valid keys and the closest one (typo help);
//   - numbers must be integers of the right sign and range, strings must be strings, ...
// ObjectReader records every key it is asked for, so the list of valid keys printed on an
// unknown key is always exactly the set the loader understands (no second list to keep in sync).
#pragma once
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gs {

/// Reads a whole file; throws InputError(path, ...) if it cannot be opened.
std::string read_text_file(const std::string& path);

/// Parses JSON text strictly (no comments, no duplicate keys). `file` is for messages.
nlohmann::json parse_json_strict(const std::string& text, const std::string& file);

/// Names ("stem" without ".json") of the *.json files directly in `dir`, sorted.
/// Returns an empty list if the directory does not exist.
std::vector<std::string> json_stems_in(const std::string& dir);

/// Up to `max` candidates closest to `word` (edit distance, case-insensitive), closest first;
/// only reasonably close ones are returned.
std::vector<std::string> closest_names(const std::string& word, const std::vector<std::string>& candidates,
                                       size_t max = 3);

/// Joins names as "a, b, c".
std::string join_names(const std::vector<std::string>& names);

/// True if `path_or_name` looks like a path (has a '/' or ends in ".json") rather than a name.
bool looks_like_path(const std::string& path_or_name);

/// One field an ObjectReader read (gsim show config): the file, the field path, the value after
/// reading (the caller's default when the file does not give it) and whether the file gave it.
struct FieldRead {
  std::string file, field, value;
  bool given = false;
};
/// While one is alive, every ObjectReader appends each typed field it reads to `sink` (a choice
/// the file does not give is recorded as its first value, the loaders' default). One at a time;
/// not for the simulation's threads.
class FieldRecorder {
 public:
  explicit FieldRecorder(std::vector<FieldRead>* sink);
  ~FieldRecorder();
  FieldRecorder(const FieldRecorder&) = delete;
  FieldRecorder& operator=(const FieldRecorder&) = delete;
};

/// Field-by-field reader of one JSON object. Absent keys leave the output untouched (so the
/// caller's struct defaults apply); present keys are type- and range-checked.
class ObjectReader {
 public:
  /// `obj` must outlive the reader. `path` is the object's own field path ("" at top level).
  ObjectReader(const nlohmann::json& obj, std::string file, std::string path);

  bool has(const std::string& key);
  /// Integer fields with inclusive bounds; `why` (optional) explains the bound in the message.
  void u32(const std::string& key, uint32_t& out, uint32_t min = 0, uint32_t max = std::numeric_limits<uint32_t>::max(),
           const char* why = nullptr);
  void u64(const std::string& key, uint64_t& out, uint64_t min = 0, uint64_t max = std::numeric_limits<uint64_t>::max(),
           const char* why = nullptr);
  /// A non-negative number (integer or fraction) stored in unsigned fixed point with `frac_bits`
  /// fraction bits, rounded to the nearest step (ties up); the stored value must not pass
  /// `max_raw` (`why`, optional, explains that bound in the message).
  void fixed(const std::string& key, uint32_t& out, uint32_t frac_bits, uint32_t max_raw, const char* why = nullptr);
  void str(const std::string& key, std::string& out, bool allow_empty = false);
  /// Strings or arrays of strings (free-text notes); the value is only type-checked.
  void notes(const std::string& key);
  /// A free-form object kept for documentation (e.g. a paper's table row); only type-checked.
  void any_object(const std::string& key);
  void u32_list(const std::string& key, std::vector<uint32_t>& out, uint32_t min = 0,
                uint32_t max = std::numeric_limits<uint32_t>::max(), const char* why = nullptr);
  /// One of `choices`; returns the index, or -1 if the key is absent.
  int choice(const std::string& key, const std::vector<std::string>& choices);
  /// The raw value of an array / object field after checking its type; nullptr if absent.
  const nlohmann::json* array(const std::string& key);
  const nlohmann::json* object(const std::string& key);
  /// Marks a key as required: throws if absent.
  void require(const std::string& key);

  /// Throws on the first key that no reader call asked about, listing the valid keys.
  /// `hints` maps keys people plausibly write by mistake to a specific explanation.
  void reject_unknown_keys(const std::vector<std::pair<std::string, std::string>>& hints = {}) const;

  /// "path.key" (or "key" at top level), as used in error messages.
  std::string field(const std::string& key) const;
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const;
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

 private:
  const nlohmann::json* get(const std::string& key);                    // registers the key as known
  void record(const std::string& key, const std::string& value) const;  // FieldRecorder
  uint64_t integer(const std::string& key, const nlohmann::json& v, uint64_t min, uint64_t max,
                   const char* why = nullptr) const;

  const nlohmann::json& obj_;
  std::string file_;
  std::string path_;
  std::set<std::string> known_;
};

/// Checks that `v` is a JSON object, else throws InputError(file, path, ...).
void expect_object(const nlohmann::json& v, const std::string& file, const std::string& path);

/// Human name of a JSON value's type ("string", "integer", ...).
std::string json_type_name(const nlohmann::json& v);

}  // namespace gs
