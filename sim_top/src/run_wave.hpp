// gsim run --wave: checking the waveform the run wrote and handing it to GTKWave.
//
// The FST writer does not report write errors, so verify_wave() reads the finished file back.
// wave_view_path() names the view a run writes beside its FST: the policy's shipped view
// (its registry entry's `view`, verif/waves/), opened on the run's window (docs/waveforms.md).
#pragma once
#include <cstdint>
#include <string>

namespace gsim {

/// "" when `path` is a structurally complete FST (or this build cannot tell), else the problem.
std::string wave_problem(const std::string& path);
/// Throws gs::InputError (and removes the file) unless `path` reads back as an FST reaching
/// cycle `cycles` - 1 (the run's length, or the end of the --wave-from/--wave-to window).
void verify_wave(const std::string& path, uint64_t cycles);
/// A file a --wave run writes beside `wave`: its name with `ext` (".gtkw", ".tcl") for .fst.
std::string wave_view_path(const std::string& wave, const char* ext);
/// After a --wave run: writes wave_view_path(wave, ".gtkw") (the shipped view of `policy` with
/// the dump file, its window start and absolute filter paths) and wave_view_path(wave, ".tcl")
/// (gtkwave -S: zooms to cycles `from`..`to` exactly), and prints the file, the window and the
/// gtkwave command on stderr (unless `quiet`). Returns the view written, or "" when the shipped
/// views are not where the data directory says (GSCHED_DATA_DIR elsewhere).
std::string hand_off_wave(const std::string& wave, uint64_t from, uint64_t to, const std::string& policy, bool quiet);

}  // namespace gsim
