// gsim unit <block> --input F.json: runs one scheduler decision unit alone (golden and, in RTL
// builds, RTL side by side) from a JSON state and prints its actions as JSON; exit 3 when the
// sides disagree ("match": false). The block runners live in the unit library gs_unit
// (sim_top/unit/unit_runner.hpp, gs::run_unit).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/json_reader.hpp"

#include "unit/unit_runner.hpp"

namespace gsim {

namespace {

struct UnitArgs {
  std::string block, input;
};

int unit_action(const UnitArgs& a) {
  register_build_schedulers();
  const std::string text = read_text_file(a.input, "--input");
  // parsing and range checks: gs::run_unit_checked (unit/unit_runner.hpp), also driven by the fuzz target
  const std::string out = gs::run_unit_checked(a.block, text, a.input);
  std::fputs(out.c_str(), stdout);
  // The sides are printed either way; a disagreement is the lockstep checker's exit code.
  const nlohmann::json result = nlohmann::json::parse(out);
  if (result.contains("match") && !result.at("match").get<bool>())
    throw gs::CheckMismatch("unit '" + a.block + "': the sides disagree (\"match\": false), see stdout");
  return 0;
}

}  // namespace

Command add_unit_command(CLI::App& top) {
  auto args = std::make_shared<UnitArgs>();
  CLI::App* app = top.add_subcommand("unit", "Run one scheduler decision unit (e.g. dss) alone on a JSON state");
  app->add_option("block", args->block, "Decision unit name, e.g. dss")->required();
  app->add_option("--input", args->input, "JSON file with the unit's input state")->required();
  return {app, [args] { return unit_action(*args); }};
}

}  // namespace gsim
