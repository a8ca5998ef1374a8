// gsim: command-line hardening and conveniences (declarations and contracts in commands.hpp).
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "commands.hpp"
#include "common/error.hpp"

#if __has_include("gsim_version.hpp")
#include "gsim_version.hpp"  // generated at build time: GSIM_VERSION, GSIM_GIT_COMMIT
#endif
#ifndef GSIM_VERSION
#define GSIM_VERSION "0.1"
#endif
#ifndef GSIM_GIT_COMMIT
#define GSIM_GIT_COMMIT ""
#endif

namespace gsim {

unsigned usable_threads(unsigned requested, bool quiet) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return requested;
  const unsigned cpus = unsigned(CPU_COUNT(&set));
  if (cpus == 0 || requested <= cpus) return requested;
  if (!quiet)
    std::fprintf(
        stderr,
        "gsim: note: --threads %u: this process may use %u CPUs; running %u threads (more would only wait for each other)\n",
        requested, cpus, cpus);
  return cpus;
}

CLI::Validator whole_number(uint64_t min, uint64_t max) {
  const std::string desc = max == std::numeric_limits<uint64_t>::max()
                               ? "INT>=" + std::to_string(min)
                               : "INT in [" + std::to_string(min) + " - " + std::to_string(max) + "]";
  return CLI::Validator(
      [min, max](std::string& v) -> std::string {
        if (v.empty()) return "must be a whole number, got an empty value";
        if (v.find_first_not_of("0123456789") != std::string::npos)
          return "must be a whole number " + std::string(min == 0 ? ">= 0" : "") + " in decimal digits, got '" + v +
                 "'";
        errno = 0;
        const unsigned long long x = std::strtoull(v.c_str(), nullptr, 10);
        if (errno == ERANGE || v.size() > 20) return "'" + v + "' is too large (at most " + std::to_string(max) + ")";
        if (x < min || x > max)
          return "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " + v;
        return {};
      },
      desc);
}

std::string git_commit() { return GSIM_GIT_COMMIT; }

std::string version_string() {
  std::string v = std::string("gsim ") + GSIM_VERSION;
  if (!git_commit().empty()) v += " (git " + git_commit() + ")";
  return v;
}

// ---- signals

namespace {

std::atomic<int> g_stop{0};
char g_wave[4096] = {0};
char g_wave_hier[4100] = {0};

extern "C" void on_stop_signal(int sig) {
  if (g_stop.fetch_add(1) > 0) {  // second Ctrl-C: the user means it
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}

extern "C" void on_sigbus(int) {
  // Async-signal-safe only: unlink, write, _exit.
  static const char head[] = "gsim: error: --wave: the waveform writer failed (bus error: the disk is full or the "
                             "file shrank); removed ";
  if (g_wave[0]) {
    ::unlink(g_wave);
    ::unlink(g_wave_hier);
    (void)!::write(2, head, sizeof head - 1);
    (void)!::write(2, g_wave, std::strlen(g_wave));
    (void)!::write(2, "\n", 1);
    ::_exit(2);
  }
  static const char msg[] = "gsim: internal error: bus error\n";
  (void)!::write(2, msg, sizeof msg - 1);
  ::_exit(1);
}

}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  struct sigaction bus {};
  bus.sa_handler = on_sigbus;
  sigemptyset(&bus.sa_mask);
  sigaction(SIGBUS, &bus, nullptr);
}

bool interrupted() { return g_stop.load(std::memory_order_relaxed) != 0; }

void throw_if_interrupted(const std::string& where) {
  if (interrupted()) throw gs::Interrupted("interrupted " + where);
}

void set_wave_cleanup(const std::string& path) {
  if (path.size() + 6 > sizeof g_wave) return;
  std::snprintf(g_wave, sizeof g_wave, "%s", path.c_str());
  std::snprintf(g_wave_hier, sizeof g_wave_hier, "%s.hier", path.c_str());
}

// ---- progress

struct ProgressReporter::Impl {
  ProgressOptions opt;
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now(), last_print = start;
  uint64_t cycles_done = 0;   // cycles of runs already finished
  uint64_t alone_cycles = 0;  // sum of finished alone runs (estimate of the shared run)
  uint32_t alone_runs = 0;
  bool shared = false;
  uint32_t index = 0, count = 0;
  uint64_t last_cycle = 0;
  bool line_open = false;

  void phase_change(bool sh, uint32_t idx) {
    cycles_done += last_cycle;
    if (!shared && index != 0) {
      alone_cycles += last_cycle;
      ++alone_runs;
    }
    shared = sh;
    index = idx;
    last_cycle = 0;
  }

  std::string eta(double rate) const {
    if (rate <= 0 || alone_runs == 0) return "ETA ?";
    const double mean_alone = double(alone_cycles) / alone_runs;
    double left;
    if (shared) {
      left = double(alone_cycles) - double(last_cycle);  // shared run ~ the alone runs back to back
    } else {
      const double this_left = mean_alone > double(last_cycle) ? mean_alone - double(last_cycle) : 0.0;
      left = this_left + mean_alone * double(count - index) + mean_alone * count;
    }
    if (left <= 0) return "ETA ?";  // this run already outlasted the estimate
    const double s = left / rate;
    char buf[48];
    if (s < 120) std::snprintf(buf, sizeof buf, "ETA ~%.0fs", s);
    else std::snprintf(buf, sizeof buf, "ETA ~%.0fm%02.0fs", std::floor(s / 60), std::fmod(s, 60));
    return buf;
  }

  void print(const std::string& kernel) {
    const auto now = Clock::now();
    const double secs = std::chrono::duration<double>(now - start).count();
    const double rate = secs > 0 ? double(cycles_done + last_cycle) / secs : 0;
    char head[160];
    if (shared) std::snprintf(head, sizeof head, "shared run (%u kernels)", count);
    else std::snprintf(head, sizeof head, "alone run %u/%u (%s)", index, count, kernel.c_str());
    std::fprintf(stderr, "%sgsim: %s: cycle %llu, %.0f cycles/s, %s%s", opt.live ? "\r\033[K" : "", head,
                 (unsigned long long)last_cycle, rate, eta(rate).c_str(), opt.live ? "" : "\n");
    std::fflush(stderr);
    line_open = opt.live;
    last_print = now;
  }
};

ProgressReporter::ProgressReporter(ProgressOptions opt) : impl_(new Impl) { impl_->opt = opt; }
ProgressReporter::~ProgressReporter() {
  finish();
  delete impl_;
}

void ProgressReporter::on_cycle(bool shared, uint32_t index, uint32_t count, const std::string& kernel,
                                uint64_t cycle) {
  Impl& im = *impl_;
  if (interrupted()) {
    finish();
    throw gs::Interrupted("interrupted during the " +
                          (shared ? std::string("shared run")
                                  : "alone run " + std::to_string(index) + "/" + std::to_string(count) + " (" + kernel +
                                        ")") +
                          " at cycle " + std::to_string(cycle));
  }
  if (shared != im.shared || index != im.index) im.phase_change(shared, index);
  im.count = count;
  im.last_cycle = cycle;
  if (im.opt.every) {
    if (cycle % im.opt.every == 0) im.print(kernel);
  } else if (im.opt.live && (cycle & 4095) == 0) {
    if (Impl::Clock::now() - im.last_print > std::chrono::milliseconds(250)) im.print(kernel);
  }
}

void ProgressReporter::finish() {
  if (impl_ && impl_->line_open) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    impl_->line_open = false;
  }
}

}  // namespace gsim
