// gsched: error types shared by the model, the loaders and the CLI.
//
// Every user-facing failure is one of these, so gsim can map it to an exit code:
//   InputError      bad config / workload / mix / CLI argument        -> exit 2
//   CheckMismatch   lockstep checker: RTL and golden disagree          -> exit 3
//   InvariantError  a model invariant broke (capacity, CTA exactly-once)-> exit 4
//   WatchdogError   no forward progress for N cycles                   -> exit 5
//   Interrupted     the user stopped the run (SIGINT / SIGTERM)          -> exit 130
#pragma once
#include <stdexcept>
#include <string>

namespace gs {

/// Bad user input. The message names the file, the field and the reason.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& field, const std::string& reason)
      : std::runtime_error(file + ": field '" + field + "': " + reason) {}
  explicit InputError(const std::string& msg) : std::runtime_error(msg) {}
};

/// A model invariant (docs/verification.md: capacities, CTA exactly-once, ...) was violated.
class InvariantError : public std::runtime_error {
 public:
  explicit InvariantError(const std::string& msg) : std::runtime_error("invariant violated: " + msg) {}
};

/// The lockstep checker found RTL and golden disagreeing.
class CheckMismatch : public std::runtime_error {
 public:
  explicit CheckMismatch(const std::string& msg) : std::runtime_error(msg) {}
};

/// The run made no progress for the watchdog window; message carries a state dump.
class WatchdogError : public std::runtime_error {
 public:
  explicit WatchdogError(const std::string& msg) : std::runtime_error(msg) {}
};

/// The run was stopped on request (Ctrl-C); thrown from a per-cycle hook so that everything
/// the run holds (waveform writers included) is closed by unwinding.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(const std::string& msg) : std::runtime_error(msg) {}
};

}  // namespace gs
