// gsched: output files that never destroy anything.
//
// Every file gsim writes goes through these two steps:
//   1. check_output_path() before any simulation: the path is refused (gs::InputError naming
//      the option, the path and the reason) when it is empty, names an existing file that is
//      not a regular file (a device, a FIFO, a directory), is the same file as one of the
//      run's inputs (std::filesystem::equivalent), is the same as another output of the run,
//      or lies in a directory that does not exist or is not writable;
//   2. write_file_atomically() once the results exist: the text goes to a temporary file in
//      the target's directory, is flushed and fsync'ed, then rename()d over the target, so
//      the target holds either its old bytes or the complete new ones -- never a torn file.
//      Only the temporary it created is ever removed; nothing else is deleted.
// The path "-" means standard output: it never clashes with an input, at most one output of a
// run may be "-" ("only one output may go to standard output"), and write_file_atomically()
// writes the text to stdout and flushes it. The rule for users: docs/cli.md, "Output files".
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace gs {

/// One input file of a run, for the same-file check: (what it is, its path), e.g. ("--mix", "m.json").
using NamedPath = std::pair<std::string, std::string>;

/// True for "-", the path that means standard output.
bool is_stdout_path(const std::string& path);

/// The files a GPU config given as `path_or_name` (a preset name or a JSON path) makes a run
/// read: the config file itself, then the file its "hetero.baseline_config" names, each as
/// (option, path) ready for check_output_path's inputs (the reference as
/// "<option> hetero.baseline_config"). A name or file that does not resolve is left out (the
/// loader reports it); never throws.
std::vector<NamedPath> config_input_files(const std::string& option, const std::string& path_or_name);

/// Throws InputError if `path` may not be written as output `option` (see the header comment).
/// `inputs` are the run's input files; `outputs` the outputs already checked for this run.
void check_output_path(const std::string& option, const std::string& path, const std::vector<NamedPath>& inputs,
                       const std::vector<NamedPath>& outputs = {});

/// Writes `text` to `path` through a temporary file in the same directory and rename(); to
/// standard output (flushed) when `path` is "-".
/// Throws InputError naming `option` and the path on any failure (the temporary is removed).
void write_file_atomically(const std::string& option, const std::string& path, const std::string& text);

/// Free bytes available to this user in the directory that would hold `path` (0 if unknown).
unsigned long long free_bytes_for(const std::string& path);

}  // namespace gs
