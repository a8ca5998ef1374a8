// The one report channel (cmodel/metrics/policy_report.hpp): a Report takes only what its
// [[report]] entry declares, a policy twin's record becomes rows of the mix's kernels, and the
// two formatters print every kind the same way.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "metrics/policy_report.hpp"
#include "sched/policy_record.hpp"
#include "workload/kernel_desc.hpp"

using namespace gs;

namespace {

Mix two_kernels() {
  Mix m;
  m.name = "m";
  m.kernels.resize(2);
  m.kernels[0].kernel = "IMG";
  m.kernels[1].kernel = "NN";
  return m;
}

}  // namespace

TEST_CASE("report: a field or value the spec does not declare is refused", "[report]") {
  Report r(spec::ReportKind::kOracle);
  CHECK_THROWS_AS(r.set("no_such_field", 1), std::logic_error);
  CHECK_THROWS_AS(r.set("objective", 3), std::logic_error);  // text, not int
  CHECK_THROWS_AS(r.add_row("no_such_table"), std::logic_error);
  ReportRow& row = r.add_row("candidates");
  CHECK_THROWS_AS(row.set("kernel", "IMG"), std::logic_error);  // candidates has no kernel column
  CHECK_THROWS_AS(row.set("chosen", 1), std::logic_error);      // a flag is a bool
  row.set("ipc", 2);                                            // an int is a real
  CHECK(std::get<double>(row.at("ipc")) == 2.0);
  Report p(spec::ReportKind::kPartition);
  CHECK_THROWS_AS(p.set("mode", 3), std::logic_error);  // shared, spatial, alone: 0..2
  CHECK_NOTHROW(p.set("mode", spec::PartitionReport::kModeAlone));
}

TEST_CASE("report: a twin's record names the mix's kernels in slot order, its given columns only", "[report]") {
  using R = spec::PartitionReport;
  PolicyRecordStore store(2);
  store.reset();
  PolicyRecord& rec = store.add(R::kKind);
  rec.cycle = 27235;
  rec.set(R::kMode, R::kModeShared);
  rec.set(1, R::kCtasPerSm, 3);  // slot 1 first: rows still come in slot order
  rec.set(0, R::kCtasPerSm, 4);
  rec.kernel[0] = 0;
  rec.kernel[1] = 1;
  const Report r = report_of(rec, two_kernels());
  REQUIRE(r.rows("kernels").size() == 2);
  CHECK(std::get<std::string>(r.rows("kernels")[0].at("kernel")) == "IMG");
  CHECK(std::get<int64_t>(r.rows("kernels")[1].at("ctas_per_sm")) == 3);
  CHECK(std::holds_alternative<std::monostate>(r.rows("kernels")[0].at("bypass")));  // never set

  CHECK(format_reports_text({r}) ==
        "\npolicy records (docs/cli.md, \"Policy reports\"):\n"
        "  cycle      27235  partition  mode shared: IMG ctas_per_sm 4, NN ctas_per_sm 3\n");
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  add_reports_json(j, {r, r}, 5);
  CHECK(j.dump() ==
        "{\"partitions\":[{\"cycle\":27235,\"mode\":\"shared\",\"kernels\":[{\"kernel\":\"IMG\",\"ctas_per_sm\":4},"
        "{\"kernel\":\"NN\",\"ctas_per_sm\":3}]},{\"cycle\":27235,\"mode\":\"shared\",\"kernels\":[{\"kernel\":\"IMG\","
        "\"ctas_per_sm\":4},{\"kernel\":\"NN\",\"ctas_per_sm\":3}]}],\"records_dropped\":5}");

  // a full store counts what it cannot keep and hands out scratch space
  store.add(R::kKind);
  PolicyRecord& extra = store.add(spec::ReportKind::kWindow);
  CHECK(extra.kind == spec::ReportKind::kWindow);
  CHECK(store.list().size() == 2);
  CHECK(store.dropped() == 1);
}

TEST_CASE("report: a per-run record is a block of fields and aligned tables, one JSON object", "[report]") {
  Report r(spec::ReportKind::kOracle);
  r.set("objective", "mix IPC");
  r.add_row("best").set("kernel", "IMG").set("ctas_per_sm", 4);
  r.add_row("candidates")
      .set("ctas_per_sm", std::vector<uint32_t>{1, 1})
      .set("ipc", 0.5)
      .set("cycles", 123456)
      .set("chosen", false);
  r.add_row("candidates")
      .set("ctas_per_sm", std::vector<uint32_t>{4, 2})
      .set("ipc", 1.25)
      .set("cycles", 99)
      .set("chosen", true);
  CHECK(format_reports_text({r}) ==
        "\noracle: the best of every static CTA combination per SM (highest mix IPC, golden left-over with "
        "per-kernel caps)\n"
        "  objective: mix IPC\n"
        "  best (the combination the shared run used):\n"
        "    kernel  ctas_per_sm\n"
        "    IMG     4\n"
        "  candidates (every combination tried):\n"
        "    ctas_per_sm  ipc    cycles  chosen\n"
        "    1,1          0.500  123456  no\n"
        "    4,2          1.250  99      yes\n");
  const nlohmann::ordered_json j = report_json(r);
  CHECK(j["objective"] == "mix IPC");
  CHECK(j["candidates"][1]["ctas_per_sm"] == nlohmann::ordered_json::array({4, 2}));
  CHECK(j["candidates"][1]["chosen"] == true);
  CHECK(!j.contains("cycle"));
}

TEST_CASE("report: every per_edge kind fits PolicyRecord and starts its rows with the kernel", "[report]") {
  for (const spec::ReportKindInfo& k : spec::kReportKinds) {
    INFO(k.name);
    if (!k.per_edge) continue;
    CHECK(k.num_fields <= spec::kReportEdgeFields);
    REQUIRE(k.num_tables == 1);
    CHECK(k.tables[0].num_columns <= spec::kReportEdgeColumns);
    CHECK(k.tables[0].columns[0].type == spec::ReportType::kKernel);
  }
}
