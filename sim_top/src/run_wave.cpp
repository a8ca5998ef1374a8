// gsim run --wave: the waveform check and the GTKWave hand-off (contracts in run_wave.hpp).
#include "run_wave.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/gpu_config.hpp"
#include "gs_spec.hpp"

#if defined(GS_HAVE_RTL) && __has_include("gtkwave/fstapi.h")
#include "gtkwave/fstapi.h"  // the FST reader that comes with Verilator's writer
#define GSIM_CAN_READ_FST 1
#endif

namespace gsim {

namespace {

#if defined(GSIM_CAN_READ_FST)
/// The block structure of an FST file (fstapi.h, FST_BL_*): blocks of [type byte, 8-byte big-endian
/// length counting itself, payload] from a 329-byte header to the end of the file, with a geometry
/// and a hierarchy block and no block the writer marked as skipped. Checked before the reader
/// is let at the file: fstReaderOpen() loops forever on some truncated files.
std::string fst_structure_problem(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "it cannot be opened";
  const std::string d((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bool geometry = false, hierarchy = false;
  size_t pos = 0;
  while (pos < d.size()) {
    if (pos + 9 > d.size()) return "it ends inside a block header";
    const unsigned type = static_cast<unsigned char>(d[pos]);
    uint64_t len = 0;
    for (int i = 1; i <= 8; ++i) len = (len << 8) | static_cast<unsigned char>(d[pos + i]);
    if (pos == 0 && (type != FST_BL_HDR || len != 329)) return "it has no FST header";
    if (len < 8 || len > d.size() - pos - 1) return "a block runs past the end of the file";
    if (type == FST_BL_SKIP) return "it holds a block the writer could not finish";
    geometry |= type == FST_BL_GEOM;
    hierarchy |= type == FST_BL_HIER || type == FST_BL_HIER_LZ4 || type == FST_BL_HIER_LZ4DUO;
    pos += 1 + len;
  }
  if (!geometry || !hierarchy) return "it has no signal hierarchy";
  return {};
}
#endif


// GTKWave keeps the 100 ps FST in ps: .gtkw times are 1000 per cycle. Its zoom z shows
// kZoomScale x 2^-z cycles across the wave pane (measured under Xvfb with
// gtkwave::getWindowEndTime: 1,341 cycles at z = -18.7228 in a view of 1600 pixels with the
// columns below). The pane narrows where GTKWave widens the name column for long names, so the
// .gtkw's zoom is approximate; the Tcl file written beside it sets the window exactly
// (gtkwave::setZoomRangeTimes; ctest wave_view_window).
constexpr uint64_t kGtkwPerCycle = 1000;
constexpr double kZoomScale = 1341.0 / 433500.0;  // 2^18.7228 = 433,500
constexpr int kSstWidth = 260, kSignalsWidth = 680;

std::filesystem::path views_dir() { return std::filesystem::path(gs::data_dir()).parent_path() / "verif" / "waves"; }

std::string absolute(const std::string& p) {
  std::error_code ec;
  const std::filesystem::path a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

/// The shipped view `text` for this run: dump file, own path, window start and zoom, a wider
/// name/value column, and the views' filter paths (written as /gsched/verif/waves/...) made absolute.
std::string view_for_run(const std::string& text, const std::string& wave, const std::string& self, uint64_t from,
                         uint64_t to) {
  const double zoom = -std::log2(1.02 * double(to - from + 1) / kZoomScale);
  const std::string fake_root = "/gsched/verif/waves/";
  const std::string real_root = views_dir().lexically_normal().string() + "/";
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[savefile]", 0) == 0) {
      out += "[dumpfile] \"" + absolute(wave) + "\"\n[savefile] \"" + absolute(self) + "\"\n";
      continue;
    }
    if (line.rfind("[dumpfile]", 0) == 0) continue;
    if (line.rfind("[timestart]", 0) == 0) line = "[timestart] " + std::to_string(from * kGtkwPerCycle);
    if (line.rfind("[signals_width]", 0) == 0) line = "[signals_width] " + std::to_string(kSignalsWidth);
    if (line.rfind("[sst_width]", 0) == 0) line = "[sst_width] " + std::to_string(kSstWidth);
    if (!line.empty() && line[0] == '*') {  // zoom, marker, then the named markers
      char buf[64];
      std::snprintf(buf, sizeof buf, "*%.6f %llu", zoom, static_cast<unsigned long long>(from * kGtkwPerCycle));
      const size_t marker_end = line.find(' ', line.find(' ') + 1);
      line = buf + (marker_end == std::string::npos ? std::string() : line.substr(marker_end));
    }
    for (size_t at = line.find(fake_root); at != std::string::npos; at = line.find(fake_root, at + real_root.size()))
      line.replace(at, fake_root.size(), real_root);
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string wave_problem(const std::string& path) {
#if defined(GSIM_CAN_READ_FST)
  return fst_structure_problem(path);
#else
  (void)path;
  return {};
#endif
}

void verify_wave(const std::string& path, uint64_t cycles) {
#if defined(GSIM_CAN_READ_FST)
  std::string problem = fst_structure_problem(path);
  void* ctx = problem.empty() ? fstReaderOpen(path.c_str()) : nullptr;
  if (!problem.empty()) {
  } else if (!ctx) {
    problem = "it does not read back as an FST file";
  } else {
    const uint64_t end = fstReaderGetEndTime(ctx);
    fstReaderClose(ctx);
    if (cycles > 1 && end + 10 < (cycles - 1) * 10)
      problem = "it ends at time " + std::to_string(end) + " instead of " + std::to_string((cycles - 1) * 10);
  }
  if (problem.empty()) return;
  std::error_code ec;
  std::filesystem::remove(path, ec);
  throw gs::InputError("--wave " + path + ": the waveform was not written completely (" + problem + "; " +
                       std::to_string(gs::free_bytes_for(path) >> 20) +
                       " MiB free now: was the disk full?); removed it, no results written");
#else
  (void)path, (void)cycles;
#endif
}

std::string wave_view_path(const std::string& wave, const char* ext) {
  const std::string fst = ".fst";
  const bool is_fst = wave.size() > fst.size() && wave.compare(wave.size() - fst.size(), fst.size(), fst) == 0;
  return (is_fst ? wave.substr(0, wave.size() - fst.size()) : wave) + ext;
}

std::string hand_off_wave(const std::string& wave, uint64_t from, uint64_t to, const std::string& policy, bool quiet) {
  std::string view = "dispatch.gtkw";
  for (const auto& info : gs::spec::kPolicies)
    if (policy == info.name) view = info.view;
  const std::filesystem::path shipped = views_dir() / view;
  std::error_code ec;
  std::string written;
  if (std::filesystem::is_regular_file(shipped, ec)) {
    std::ifstream in(shipped);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    written = wave_view_path(wave, ".gtkw");
    gs::write_file_atomically("--wave (its view)", written, view_for_run(text, wave, written, from, to));
    gs::write_file_atomically("--wave (its window)", wave_view_path(wave, ".tcl"),
                              "# gsim: opens " + wave + " on cycles " + std::to_string(from) + ".." +
                                  std::to_string(to) + " (gtkwave -S this file)\ngtkwave::setZoomRangeTimes " +
                                  std::to_string(from * kGtkwPerCycle) + " " +
                                  std::to_string((to + 1) * kGtkwPerCycle) + "\n");
  }
  if (quiet) return written;
  std::fprintf(stderr, "gsim: waveform %s: the shared run's scheduler, cycles %llu..%llu (time axis: 1 ns = 1 cycle)\n",
               wave.c_str(), static_cast<unsigned long long>(from), static_cast<unsigned long long>(to));
  if (!written.empty())
    std::fprintf(stderr, "gsim: view it with: gtkwave -S %s %s %s   (verif/waves/%s on that window)\n",
                 wave_view_path(wave, ".tcl").c_str(), wave.c_str(), written.c_str(), view.c_str());
  else
    std::fprintf(stderr, "gsim: view it with: gtkwave %s verif/waves/%s   (in the gsched source tree)\n", wave.c_str(),
                 view.c_str());
  return written;
}

}  // namespace gsim
