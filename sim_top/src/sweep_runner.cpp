// gsim sweep: the local job runner (contracts in sweep_runner.hpp).
//
// Each run is a child process of the gsim binary itself (posix_spawn), writing its --json to a
// dot file in <out>/runs and its stderr to another; stdout (the table) is discarded. Once a
// child exited 0, its JSON gets the "sweep_inputs" key and is renamed into place atomically,
// so a result file is always complete. Dot files in <out>/runs are temporaries only.
#include "sweep_runner.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "config/json_reader.hpp"

extern char** environ;

namespace gsim::sweep {

namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  const Run* run = nullptr;
  std::string fingerprint;
  pid_t pid = -1;
  std::string json_tmp, stderr_tmp;
};

void remove_quietly(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
}

pid_t spawn_child(const std::string& program, const Child& c) {
  std::vector<std::string> argv_s = {"gsim"};
  argv_s.insert(argv_s.end(), c.run->args.begin(), c.run->args.end());
  argv_s.insert(argv_s.end(), {"--json", c.json_tmp});
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, c.stderr_tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw gs::InputError("sweep: cannot start " + program + ": " + std::strerror(rc));
  return pid;
}

std::string format_duration(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%.0fm%02.0fs", std::floor(s / 60), std::fmod(s, 60));
  else std::snprintf(buf, sizeof buf, "%.0fh%02.0fm", std::floor(s / 3600), std::floor(std::fmod(s, 3600) / 60));
  return buf;
}

/// "sweep NAME: 37/120 done, 2 failed, 4 running, ETA 3m12s" on stderr: rewritten in place
/// on a terminal, else a line every ~5% of the runs.
class Progress {
 public:
  Progress(const std::string& name, const RunnerOptions& opt, size_t pending)
      : name_(name), opt_(opt), live_(::isatty(2) != 0), pending_(pending),
        step_(std::max<uint32_t>(1, opt.total / 20)) {}

  void update(uint32_t finished, uint32_t failed, size_t running, bool force = false) {
    if (opt_.quiet) return;
    const auto now = Clock::now();
    if (live_) {
      if (!force && now - last_ < std::chrono::milliseconds(250)) return;
    } else if (finished == printed_ || (finished / step_ == printed_ / step_ && finished < pending_ && !force)) {
      return;  // a line per ~5% of the runs, and one at the end
    }
    printed_ = finished;
    last_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    std::string eta = "ETA ?";
    if (finished > 0 && pending_ > finished) eta = "ETA " + format_duration(secs / finished * (pending_ - finished));
    if (pending_ <= finished) eta = "took " + format_duration(secs);
    std::fprintf(stderr, "%ssweep %s: %u/%u done, %u failed, %zu running, %s%s", live_ ? "\r\033[K" : "", name_.c_str(),
                 opt_.already_done + finished, opt_.total, failed, running, eta.c_str(), live_ ? "" : "\n");
    std::fflush(stderr);
    open_ = live_;
  }
  void clear() {
    if (open_) std::fputs("\r\033[K", stderr);
    open_ = false;
  }

 private:
  std::string name_;
  const RunnerOptions& opt_;
  bool live_;
  size_t pending_;
  uint32_t step_;
  uint32_t printed_ = UINT32_MAX;  // `finished` at the last line printed
  Clock::time_point start_ = Clock::now(), last_{};
  bool open_ = false;
};

std::string exit_description(int status, int& code) {
  if (WIFEXITED(status)) {
    code = WEXITSTATUS(status);
    return "exit " + std::to_string(code);
  }
  code = 128 + WTERMSIG(status);
  return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
}

/// Stops every running child: SIGTERM (gsim run stops at its next cycle, exit 130), SIGKILL
/// after 5 s; waits for all and removes their temporaries.
void stop_children(std::vector<Child>& running) {
  for (const Child& c : running) ::kill(c.pid, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  for (Child& c : running) {
    int status = 0;
    while (::waitpid(c.pid, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        ::kill(c.pid, SIGKILL);
        ::waitpid(c.pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    remove_quietly(c.json_tmp);
    remove_quietly(c.stderr_tmp);
  }
  running.clear();
}

}  // namespace

// The "gsim: error:" line comes first because a watchdog error is followed by a long state dump.
std::string stderr_summary(const std::string& path, size_t lines) {
  std::string text;
  try {
    text = gs::read_text_file(path);
  } catch (const gs::InputError&) {
    return {};
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t pos = text.size();
  for (size_t n = 0; n < lines && pos != std::string::npos && pos > 0; ++n) pos = text.rfind('\n', pos - 1);
  const size_t tail_from = pos == std::string::npos || pos == 0 ? 0 : pos + 1;
  const size_t error_at = text.find("gsim: error:");
  if (error_at == std::string::npos || error_at >= tail_from) return text.substr(tail_from);
  const size_t error_end = text.find('\n', error_at);
  return text.substr(error_at, error_end == std::string::npos ? std::string::npos : error_end - error_at) +
         (error_end == std::string::npos || error_end + 1 >= tail_from ? "\n" : "\n...\n") + text.substr(tail_from);
}

std::string result_with_inputs(const std::string& child_json, const Run& run, const std::string& fingerprint) {
  nlohmann::ordered_json doc;
  try {
    doc = nlohmann::ordered_json::parse(gs::read_text_file(child_json));
  } catch (const nlohmann::json::exception& e) {
    throw gs::InputError(child_json + ": the run's JSON does not parse: " + e.what());
  }
  doc["sweep_inputs"] = {{"args", run.args}, {"inputs_fnv1a64", fingerprint}};
  return doc.dump(2) + "\n";
}

namespace {

RunnerResult run_loop(const std::string& sweep_name, const std::vector<const Run*>& pending,
                      const std::vector<std::string>& fingerprints, const RunnerOptions& opt,
                      std::vector<Child>& running) {
  RunnerResult res;
  Progress progress(sweep_name, opt, pending.size());
  size_t next = 0;
  uint32_t finished = 0;
  if (pending.empty()) return res;
  while (next < pending.size() || !running.empty()) {
    if (interrupted()) {
      progress.clear();
      stop_children(running);
      res.interrupted = true;
      return res;
    }
    while (running.size() < opt.jobs && next < pending.size()) {
      Child c;
      c.run = pending[next];
      c.fingerprint = fingerprints[next];
      ++next;
      // the pid in the name: two processes that run the same run (two --run-index of one run)
      // never share a temporary
      const std::string stem = opt.runs_dir + "/." + c.run->id + "." + std::to_string(::getpid());
      c.json_tmp = stem + kPartSuffix;
      c.stderr_tmp = stem + kStderrSuffix;
      c.pid = spawn_child(opt.program, c);
      running.push_back(std::move(c));
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) {
      progress.update(finished, static_cast<uint32_t>(res.failures.size()), running.size());
      // Poll, not block: a Ctrl-C must be seen between children. 1 ms keeps the slot's idle time
      // small against a short run (a 20k-cycle pair takes about 60 ms; docs/sweep.md, "Scale").
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    const auto it = std::find_if(running.begin(), running.end(), [pid](const Child& c) { return c.pid == pid; });
    if (it == running.end()) continue;  // not one of ours
    Child c = std::move(*it);
    running.erase(it);
    if (interrupted()) {  // a Ctrl-C reaches the children too: their exit 130 is not a failure
      remove_quietly(c.json_tmp);
      remove_quietly(c.stderr_tmp);
      continue;
    }
    ++finished;
    const std::string final_path = opt.runs_dir + "/" + c.run->id + ".json";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      try {
        gs::write_file_atomically("sweep result", final_path, result_with_inputs(c.json_tmp, *c.run, c.fingerprint));
      } catch (...) {  // not written: its temporaries go too (the caller stops the others)
        remove_quietly(c.json_tmp);
        remove_quietly(c.stderr_tmp);
        throw;
      }
      ++res.completed;
    } else {
      Failure f;
      f.id = c.run->id;
      const std::string how = exit_description(status, f.exit_code);
      f.command = shell_line(opt.program, c.run->args);  // without --json: its temporary is gone
      f.stderr_tail = stderr_summary(c.stderr_tmp, 8);
      progress.clear();
      std::fprintf(stderr, "gsim: sweep %s: run %s failed (%s): %s\n", sweep_name.c_str(), f.id.c_str(), how.c_str(),
                   f.command.c_str());
      if (!f.stderr_tail.empty()) std::fprintf(stderr, "  its stderr ends:\n%s\n", f.stderr_tail.c_str());
      res.failures.push_back(std::move(f));
    }
    remove_quietly(c.json_tmp);
    remove_quietly(c.stderr_tmp);
  }
  progress.update(finished, static_cast<uint32_t>(res.failures.size()), 0, true);
  progress.clear();
  return res;
}

}  // namespace

RunnerResult run_pending(const std::string& sweep_name, const std::vector<const Run*>& pending,
                         const std::vector<std::string>& fingerprints, const RunnerOptions& opt) {
  std::vector<Child> running;
  try {
    return run_loop(sweep_name, pending, fingerprints, opt, running);
  } catch (...) {  // a result that cannot be written, a child that cannot start: no orphans, no temporaries
    stop_children(running);
    throw;
  }
}

}  // namespace gsim::sweep
