// gsched: safe output files (contract in output_file.hpp).
#include "common/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"

namespace gs {

namespace fs = std::filesystem;

namespace {

std::string dir_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& reason) {
  throw InputError(option + " " + (path.empty() ? std::string("\"\"") : path) + ": " + reason);
}

}  // namespace

bool is_stdout_path(const std::string& path) { return path == "-"; }

std::vector<NamedPath> config_input_files(const std::string& option, const std::string& path_or_name) {
  std::vector<NamedPath> out;
  try {
    const std::string path = resolve_config_path(path_or_name);
    out.push_back({option, path});
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    // the conventional GPU the registry's base_sm setting names (hetero.baseline_config)
    const char* sec = spec::kBaseSmSection;
    const char* key = spec::kBaseSmSetting;
    if (*sec && j.is_object() && j.contains(sec) && j.at(sec).is_object() && j.at(sec).contains(key) &&
        j.at(sec).at(key).is_string()) {
      const std::string ref = j.at(sec).at(key).get<std::string>();
      try {
        out.push_back({option + " " + sec + "." + key, resolve_config_path(ref)});
      } catch (const std::exception&) {  // the loader reports a bad reference
      }
    }
  } catch (const std::exception&) {  // the loader reports a bad name or file
  }
  return out;
}

void check_output_path(const std::string& option, const std::string& path, const std::vector<NamedPath>& inputs,
                       const std::vector<NamedPath>& outputs) {
  if (path.empty()) refuse(option, path, "the output file name is empty");
  if (is_stdout_path(path)) {  // standard output: no file, no input clash; one output at most
    for (const NamedPath& out : outputs)
      if (is_stdout_path(out.second))
        refuse(option, path, "only one output may go to standard output (" + out.first + " already does)");
    return;
  }
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  const bool exists = fs::exists(st);
  if (exists && !fs::is_regular_file(st)) {
    const char* kind = fs::is_directory(st)                                 ? "a directory"
                       : fs::is_character_file(st) || fs::is_block_file(st) ? "a device"
                       : fs::is_fifo(st)                                    ? "a FIFO"
                       : fs::is_socket(st)                                  ? "a socket"
                                                                            : "not a regular file";
    refuse(option, path, std::string("is ") + kind + "; gsim writes only regular files (it would replace it)");
  }
  if (exists) {
    for (const NamedPath& in : inputs) {
      std::error_code e2;
      if (!in.second.empty() && fs::equivalent(path, in.second, e2))
        refuse(option, path,
               "is the same file as the input " + in.first + " " + in.second + "; writing it would destroy the input");
    }
  }
  for (const NamedPath& out : outputs) {
    if (is_stdout_path(out.second)) continue;
    std::error_code e2;
    const bool same = fs::weakly_canonical(path, e2) == fs::weakly_canonical(out.second, e2) ||
                      (exists && fs::equivalent(path, out.second, e2));
    if (same) refuse(option, path, "is also the output of " + out.first + "; give each output its own file");
  }
  const std::string dir = dir_of(path);
  if (!fs::is_directory(dir, ec)) refuse(option, path, "directory " + dir + " does not exist");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    refuse(option, path, "directory " + dir + " is not writable (" + std::strerror(errno) + ")");
  if (exists && ::access(path.c_str(), W_OK) != 0)
    refuse(option, path, std::string("the file is not writable (") + std::strerror(errno) + ")");
}

void write_file_atomically(const std::string& option, const std::string& path, const std::string& text) {
  if (is_stdout_path(path)) {
    std::fflush(stdout);  // whatever was printed before comes first
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
      refuse(option, path, std::string("cannot write to standard output: ") + std::strerror(errno));
    return;
  }
  const std::string dir = dir_of(path);
  std::string tmpl = (fs::path(dir) / ("." + fs::path(path).filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    refuse(option, path, std::string("cannot create a temporary file in ") + dir + ": " + std::strerror(errno));
  auto fail = [&](const char* step) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    refuse(option, path, std::string(step) + ": " + std::strerror(err) + " (nothing was written)");
  };
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write the file");
    }
    done += size_t(n);
  }
  // Keep the permissions a plain create would give (mkstemp makes 0600).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat old {};
  const mode_t mode = ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : (0666 & ~mask);
  if (::fchmod(fd, mode) != 0) fail("cannot set the file mode");
  if (::fsync(fd) != 0) fail("cannot flush the file");
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    refuse(option, path, std::string("cannot close the file: ") + std::strerror(err) + " (nothing was written)");
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    refuse(option, path, std::string("cannot replace the file: ") + std::strerror(err) + " (nothing was written)");
  }
}

unsigned long long free_bytes_for(const std::string& path) {
  struct statvfs s {};
  if (::statvfs(dir_of(path).c_str(), &s) != 0) return 0;
  return (unsigned long long)s.f_bavail * s.f_frsize;
}

}  // namespace gs
