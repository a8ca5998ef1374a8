// gsim: helpers shared by the subcommands (declarations and contracts in commands.hpp).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "commands.hpp"
#include "common/error.hpp"
#include "sched/scheduler_port.hpp"

// The RTL schedulers ("rtl", "lockstep") live in the Verilator library, which defines
// GS_HAVE_RTL for its users and provides gs::register_rtl_schedulers().
#if defined(GS_HAVE_RTL)
#if __has_include("rtl_sched/register.hpp")
#include "rtl_sched/register.hpp"
#else
#error "GS_HAVE_RTL is defined but rtl_sched/register.hpp is not on the include path"
#endif
#endif

namespace gsim {

std::string default_scheduler_kind() {
#if defined(GS_HAVE_RTL)
  return "lockstep";
#else
  return "golden";
#endif
}

void register_build_schedulers() {
#if defined(GS_HAVE_RTL)
  static const bool registered = (gs::register_rtl_schedulers(), true);
  (void)registered;
#endif
}

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

void check_scheduler_and_policy(const std::string& kind, const std::string& policy) {
  const auto kinds = gs::list_scheduler_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw gs::InputError("--scheduler: unknown scheduler '" + kind + "' (this build has: " + join(kinds) + ")");
  const auto policies = gs::list_policies();
  if (std::find(policies.begin(), policies.end(), policy) == policies.end())
    throw gs::InputError("--policy: unknown policy '" + policy + "' (known: " + join(policies) + ")");
}

void write_text_file(const std::string& path, const std::string& text, const std::string& option) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  if (out) out.flush();
  if (!out) throw gs::InputError(option + " " + path + ": cannot write the file: " + std::strerror(errno));
}

std::string read_text_file(const std::string& path, const std::string& option) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw gs::InputError(option + " " + path + ": cannot read the file: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace gsim
