// gsched tests: the golden twins use the same parameters as rtl/gs_pkg.sv (one source of
// truth): every `localparam int Name = value;` of the package is compared with the golden
// constant of the same name.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "sched/golden/golden_types.hpp"

namespace {

std::map<std::string, long> read_pkg_params() {
  std::string here = __FILE__;                       // .../verif/unit/test_golden_params.cpp
  const std::string root = here.substr(0, here.rfind("/verif/unit/"));
  std::ifstream f(root + "/rtl/gs_pkg.sv");
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  std::map<std::string, long> params;
  const std::regex re(R"(localparam\s+int\s+(\w+)\s*(?:/\*\s*verilator\s+public\s*\*/)?\s*=\s*(\d+)\s*;)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    params[(*it)[1]] = std::stol((*it)[2]);
  return params;
}

}  // namespace

TEST_CASE("golden parameters equal the gs_pkg localparams", "[golden][params]") {
  using namespace gs::golden;
  const auto p = read_pkg_params();
  const std::map<std::string, long> golden = {
      {"MaxSms", kMaxSms},       {"MaxKernels", kMaxKernels}, {"MaxContexts", kMaxContexts},
      {"CmdBufDepth", kCmdBufDepth}, {"MaxCtasPerSm", kMaxCtasPerSm}, {"PtbqDepth", kPtbqDepth},
      {"KernelIdW", kKernelIdW}, {"SmIdW", kSmIdW},         {"CtaIdW", kCtaIdW},
      {"ThreadW", kThreadW},     {"WarpW", kWarpW},         {"RegW", kRegW},
      {"ShmemW", kShmemW},       {"CtaCntW", kCtaCntW},     {"PrioW", kPrioW},
      {"TokenW", kTokenW}};
  for (const auto& [name, value] : golden) {
    INFO("gs_pkg::" << name);
    REQUIRE(p.count(name) == 1);
    CHECK(p.at(name) == value);
  }
  // derived widths written out in the package must match their definitions
  CHECK((1L << p.at("SlotW")) == p.at("MaxKernels"));
  CHECK((1L << p.at("CtxW")) == p.at("MaxContexts"));
  CHECK((1L << p.at("CmdPtrW")) == p.at("CmdBufDepth"));
  CHECK((1L << p.at("PtbqPtrW")) == p.at("PtbqDepth"));
  CHECK((1L << p.at("OrderPtrW")) == p.at("MaxContexts") * p.at("CmdBufDepth"));
  CHECK((1L << p.at("PtbqCntW")) > p.at("PtbqDepth"));
  CHECK((1L << p.at("CtaCntW")) > p.at("MaxCtasPerSm"));
  CHECK((1L << p.at("SmIdW")) > p.at("MaxSms"));
  CHECK((1L << p.at("SaveCreditW")) > p.at("MaxSms") * p.at("MaxCtasPerSm"));
  CHECK(p.at("OrderKeyW") == p.at("PrioW") + p.at("SlotW"));
  CHECK(p.at("LaunchW") == p.at("KernelIdW") + p.at("CtxW") + p.at("PrioW") + p.at("TokenW") + p.at("ThreadW") +
                               p.at("WarpW") + p.at("RegW") + p.at("ShmemW") + p.at("CtaIdW"));
  CHECK(p.at("KsrtW") == 1 + p.at("LaunchW") + 2 * p.at("CtaIdW"));
  CHECK(p.at("SmstW") == 2 + 2 * (1 + p.at("SlotW")) + p.at("ThreadW") + p.at("WarpW") + p.at("RegW") +
                             p.at("ShmemW") + p.at("CtaCntW"));
}
