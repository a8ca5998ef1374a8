#!/usr/bin/env python3
"""gsched spec generator: rtl/spec/gs_spec.toml -> gs_pkg.sv + gs_spec.hpp.

Run by the top-level CMakeLists.txt at every configure, which writes the SystemVerilog
(gs_pkg.sv, gs_policies.sv) into rtl/ -- checked in, so rtl/ is usable by Verilator and Yosys
without CMake, and a spec change shows up as their diff -- and the C++ into the build tree.
Also usable by hand:
    python3 rtl/spec/gen_spec.py --spec rtl/spec/gs_spec.toml --out DIR [--sv-out DIR2] \
        [--set MaxSms=132 --set MaxKernels=4]
--set overrides a [params] value (the area flow uses it to synthesize other scales); derived
widths follow. Files are rewritten only when their content changes, so an unchanged spec
causes no rebuild. Errors name the spec file and the offending entry and exit with status 2.
"""
import argparse
import pathlib
import re
import sys

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Debian 12 ships Python 3.11
    sys.exit("gen_spec.py: needs Python >= 3.11 (tomllib)")


# The golden-only scheduler options (SchedOptions fields) a registry entry may list in `takes`.
SCHED_OPTIONS_TAKEN = ("fixed_ctas", "srtf_known_cycles", "sbm_fixed_reg")
# The MixGenOptions fields a registry entry's regression_mix may set (verif/cosim case_mix_options()).
REGRESSION_MIX_FIELDS = ("min_kernels", "max_kernels", "max_grid", "max_insts_per_warp", "max_arrival")


class SpecError(Exception):
    pass


# Bits of the C++ types a [types] entry may name as its cpp (KernelId and SmId: gs_spec.hpp).
CPP_TYPE_BITS = {"uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "int32_t": 32, "uint64_t": 64,
                 "KernelId": 16, "SmId": 16}


def clog2(x):
    """Bits to hold 0..x-1 (at least 1)."""
    x = int(x)
    if x < 1:
        raise SpecError(f"clog2({x}): argument must be >= 1")
    return max(1, (x - 1).bit_length())


def cdiv(a, b):
    """a / b rounded up (chunks of b bits that hold a bits)."""
    if int(b) < 1:
        raise SpecError(f"cdiv({a}, {b}): divisor must be >= 1")
    return -(-int(a) // int(b))


_EXPR_OK = re.compile(r"^[A-Za-z0-9_+\-*() <>,]*$")


def evaluate(expr, env, where):
    if isinstance(expr, int):
        return expr
    if not isinstance(expr, str) or not _EXPR_OK.match(expr):
        raise SpecError(f"{where}: expression {expr!r} may use names, integers, + - * ( ) << >>, clog2(), max(a, b) and cdiv(a, b) (division rounded up)")
    for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr):
        if name not in ("clog2", "max", "cdiv") and name not in env:
            raise SpecError(f"{where}: {expr!r} names {name!r}, which is not a param or an earlier derived value")
    try:
        value = eval(expr, {"__builtins__": {}}, dict(env, clog2=clog2, max=max, cdiv=cdiv))  # noqa: S307 - checked above
    except SpecError:
        raise
    except Exception as e:  # pragma: no cover - syntax errors in the spec
        raise SpecError(f"{where}: cannot evaluate {expr!r}: {e}")
    if not isinstance(value, int) or value < 0:
        raise SpecError(f"{where}: {expr!r} = {value!r}, not a non-negative integer")
    return value


def camel(member, prefix):
    tail = member[len(prefix):] if member.startswith(prefix) else member
    # CTA_FINISHED -> CtaFinished, L1L2 -> L1L2: a letter after a letter is lower-cased
    out = []
    for part in (p for p in tail.split("_") if p):
        out.append("".join(c.lower() if i and part[i - 1].isalpha() else c for i, c in enumerate(part)))
    return "k" + "".join(out)


def pascal(name):
    """warped_slicer -> WarpedSlicer (settings sections' C++ records and width params)."""
    return "".join(w[:1].upper() + w[1:] for w in name.split("_"))


def common_prefix(names):
    first = names[0]
    cut = first.find("_") + 1
    prefix = first[:cut]
    if cut and all(n.startswith(prefix) for n in names):
        return prefix
    return ""


class Spec:
    def __init__(self, path, overrides):
        self.path = path
        try:
            with open(path, "rb") as f:
                raw = tomllib.load(f)
        except OSError as e:
            raise SpecError(f"{path}: cannot read: {e.strerror}")
        except tomllib.TOMLDecodeError as e:
            raise SpecError(f"{path}: {e}")
        self.raw = raw
        self.env = {}
        self.params = []   # (name, value, public, doc, expr or None)
        for name, p in raw.get("params", {}).items():
            value = p.get("value")
            if not isinstance(value, int) or value <= 0:
                raise SpecError(f"{path}: params.{name}.value must be a positive integer")
            self.params.append([name, value, bool(p.get("public", False)), p.get("doc", ""), None])
        for name, value in overrides.items():
            hit = [p for p in self.params if p[0] == name]
            if not hit:
                raise SpecError(f"--set {name}: not a param of {path} (params: {', '.join(p[0] for p in self.params)})")
            hit[0][1] = value
        # what the build overrode (gs_spec.hpp kSpecOverrides), so a message can name the variant
        self.overrides = [f"{name}={value}" for name, value in overrides.items()]
        for p in self.params:
            self.env[p[0]] = p[1]
        for name, d in raw.get("derived", {}).items():
            value = evaluate(d.get("expr"), self.env, f"{path}: derived.{name}")
            self.env[name] = value
            self.params.append([name, value, bool(d.get("public", False)), d.get("doc", ""), d.get("expr")])

        # A [[policy]] with `runs_under` is a C++-only analysis policy (an oracle, a static mapping,
        # a baseline built from another policy's runs): gsim names it, it has no policy_e member and
        # no RTL module, and gs::find_mix_strategy() runs it (cmodel/metrics/mix_strategy.hpp).
        all_policies = raw.get("policy", [])
        rtl_policies = [p for p in all_policies if "runs_under" not in p]
        self.env["NumPolicies"] = len(rtl_policies)
        self.types = {}
        for name, t in raw.get("types", {}).items():
            width = evaluate(t.get("width"), self.env, f"{path}: types.{name}.width")
            self.types[name] = dict(width=width, wexpr=str(t.get("width")), cpp=t.get("cpp", "uint32_t"), kernel=bool(t.get("kernel", False)),
                                    signed=bool(t.get("signed", False)), doc=t.get("doc", ""))
            # a field is packed into / unpacked from its C++ type: that type must hold every bit
            # (a width that follows MaxSms or MaxKernels can outgrow it when a param is raised)
            cpp_bits = CPP_TYPE_BITS.get(self.types[name]["cpp"])
            if cpp_bits is not None and width > cpp_bits:
                raise SpecError(f"{path}: types.{name}: {width} bits ({t.get('width')}) do not fit its cpp type "
                                f"{self.types[name]['cpp']} ({cpp_bits} bits)")

        self.enums = {}
        policies = rtl_policies
        if not policies:
            raise SpecError(f"{path}: no [[policy]] entries")
        names = set()
        for i, p in enumerate(all_policies):
            derived = "runs_under" in p
            for key in ("name", "doc") + (("runs_under", "strategy") if derived else ("member", "module")):
                if not isinstance(p.get(key), str):
                    raise SpecError(f"{path}: policy[{i}].{key} missing")
            if derived:
                for key in ("member", "module", "state", "observes", "profiles"):
                    if key in p:
                        raise SpecError(f"{path}: policy[{i}] ({p['name']}): a policy with runs_under has no {key} "
                                        "(it runs in C++ only, on another policy's scheduler)")
            if "view" in p and not (isinstance(p["view"], str) and
                                    (pathlib.Path(path).parent.parent.parent / "verif" / "waves" / p["view"]).is_file()):
                raise SpecError(f"{path}: policy[{i}].view: {p.get('view')!r} is not a file in verif/waves/")
            for flag in ("sm_sharing", "observes", "profiles", "golden_only", "sm_types"):
                if not isinstance(p.get(flag, False), bool):
                    raise SpecError(f"{path}: policy[{i}].{flag}: expected true or false")
            if derived:
                for key in ("takes", "sm_types", "regression_config", "regression_mix"):
                    if key in p:
                        raise SpecError(f"{path}: policy[{i}] ({p['name']}): a policy with runs_under has no {key}")
            takes = p.get("takes", [])
            if not (isinstance(takes, list) and all(x in SCHED_OPTIONS_TAKEN for x in takes)):
                raise SpecError(f"{path}: policy[{i}].takes: expected a list of {', '.join(sorted(SCHED_OPTIONS_TAKEN))}")
            if "regression_config" in p and not (p.get("sm_types") and isinstance(p["regression_config"], str)
                                                 and (pathlib.Path(path).parent.parent.parent / "sim_top" / "configs" /
                                                      (p["regression_config"] + ".json")).is_file()):
                raise SpecError(f"{path}: policy[{i}].regression_config: the preset (sim_top/configs/<name>.json) an "
                                "sm_types policy's regression runs on when the case's config has no big SMs")
            if p.get("sm_types") and "regression_config" not in p:
                raise SpecError(f"{path}: policy[{i}]: sm_types needs regression_config (a preset with big SMs)")
            mix = p.get("regression_mix", {})
            if not (isinstance(mix, dict) and all(k in REGRESSION_MIX_FIELDS and isinstance(v, int) and v > 0
                                                  for k, v in mix.items())):
                raise SpecError(f"{path}: policy[{i}].regression_mix: expected positive integers for "
                                f"{', '.join(REGRESSION_MIX_FIELDS)}")
            for n in [p["name"]] + list(p.get("aliases", [])):
                if n in names:
                    raise SpecError(f"{path}: policy[{i}]: name or alias {n!r} used twice")
                names.add(n)
        rtl_names = {p["name"] for p in policies}
        for i, p in enumerate(all_policies):
            if "runs_under" in p and p["runs_under"] not in rtl_names:
                raise SpecError(f"{path}: policy[{i}] ({p['name']}).runs_under: {p['runs_under']!r} is not a policy "
                                "with an RTL module")
        self.policies = policies
        self.derived_policies = [p for p in all_policies if "runs_under" in p]
        pol_width = clog2(len(policies))
        self.enums["policy_e"] = dict(cpp="Policy", width=pol_width, doc="the policy registry (gsim --policy)",
                                      members=[[p["member"], i, p.get("doc", "")] for i, p in enumerate(policies)])
        for name, e in raw.get("enums", {}).items():
            members = e.get("members", [])
            width = evaluate(e.get("width"), self.env, f"{path}: enums.{name}.width")
            for m in members:
                if m[1] >= (1 << width):
                    raise SpecError(f"{path}: enums.{name}: {m[0]} = {m[1]} does not fit {width} bits")
            self.enums[name] = dict(cpp=e["cpp"], width=width, members=members, doc=e.get("doc", ""))
        self.params.append(["NumPolicies", len(policies), False, "policies in the registry (policy_e members)", None])

        self.records = {}
        for name, r in raw.get("records", {}).items():
            fields = []
            sv_only = bool(r.get("sv_only", False))
            cpp_only = bool(r.get("cpp_only", False))
            if sv_only and cpp_only:
                raise SpecError(f"{path}: records.{name}: sv_only and cpp_only exclude each other")
            for f in r.get("fields", []):
                fname, ftype = f[0], f[1]
                fdoc = f[2] if len(f) > 2 else ""
                vec = re.match(r"^logic\[(.+)\]$", ftype)
                if (vec or ftype in self.records) and not sv_only:
                    raise SpecError(f"{path}: records.{name}.{fname}: {ftype} fields need sv_only = true "
                                    "(the C++ twin of such a record is written as a class of views)")
                if vec:
                    w = evaluate(vec.group(1), self.env, f"{path}: records.{name}.{fname}")
                    fields.append(dict(name=fname, type=f"logic [{vec.group(1)}-1:0]", width=w, kind="vec", doc=fdoc))
                elif ftype in self.records:
                    fields.append(dict(name=fname, type=ftype, width=self.records[ftype]["width"], kind="rec", doc=fdoc))
                elif ftype == "logic":
                    fields.append(dict(name=fname, type="logic", width=1, kind="bool", doc=fdoc))
                elif ftype in self.types:
                    t = self.types[ftype]
                    if t["width"] > 64:
                        raise SpecError(f"{path}: records.{name}.{fname}: {ftype} is {t['width']} bits; "
                                        "record fields hold at most 64")
                    kind = "kernel" if t["kernel"] else ("signed" if t["signed"] else "uint")
                    fields.append(dict(name=fname, type=ftype, width=t["width"], kind=kind, cpp=t["cpp"], doc=fdoc))
                elif ftype in self.enums:
                    e = self.enums[ftype]
                    fields.append(dict(name=fname, type=ftype, width=e["width"], kind="enum", cpp=e["cpp"], doc=fdoc))
                else:
                    raise SpecError(f"{path}: records.{name}.{fname}: unknown type {ftype!r}")
            width = sum(f["width"] for f in fields)
            port = r.get("port")
            if port is not None:
                port = self._check_port(name, port, fields, sv_only)
            self.records[name] = dict(cpp=r.get("cpp", ""), width_param=r["width_param"], fields=fields, width=width,
                                      doc=r.get("doc", ""), sv_only=sv_only, cpp_only=cpp_only, port=port)
            self.env[r["width_param"]] = width

        # policy registers: each module's `state` record (one per module), PolicyStateW
        module_state = {}
        for i, p in enumerate(self.policies):
            st = p.get("state")
            if st is not None and (not isinstance(st, str) or st not in self.records or self.records[st]["cpp_only"]):
                raise SpecError(f"{path}: policy[{i}].state: {st!r} is not a record of gs_pkg")
            if p["module"] in module_state and module_state[p["module"]] != st:
                raise SpecError(f"{path}: policy[{i}].state: module {p['module']} has state "
                                f"{module_state[p['module']]!r} in another entry")
            module_state[p["module"]] = st
        self.module_state = module_state
        # profiles: a module property (its ports), so every entry of a module says the same
        module_profiles = {}
        for i, p in enumerate(self.policies):
            pr = p.get("profiles", False)
            if p["module"] in module_profiles and module_profiles[p["module"]] != pr:
                raise SpecError(f"{path}: policy[{i}].profiles: module {p['module']} says "
                                f"{str(module_profiles[p['module']]).lower()} in another entry")
            module_profiles[p["module"]] = pr
        self.module_profiles = module_profiles
        if any(module_profiles.values()):
            for rec in ("prof_ctl_t", "prof_rd_t"):
                if rec not in self.records:
                    raise SpecError(f"{path}: policies that profile need records.{rec}")
        self._parse_settings(all_policies)
        self._parse_reports()
        state_width = max([self.records[st]["width"] for st in module_state.values() if st] + [1])
        self.env["PolicyStateW"] = state_width
        self.params.append(["PolicyStateW", state_width, False,
                            "policy_state: the widest policy register record (see the registry's `state`)", None])

    REPORT_TYPES = ("int", "real", "text", "flag", "ints", "kernel", "choice")
    # a policy twin's fixed-size record (cmodel/sched/policy_record.hpp) holds this many
    REPORT_EDGE_FIELDS, REPORT_EDGE_COLUMNS = 4, 6

    def _parse_reports(self):
        """The [[report]] entries: the kinds of record a policy reports (docs/cli.md, "Policy
        reports"), each with its fields and tables."""
        path = self.path
        self.reports = []
        seen = set()

        def field(f, where):
            if not (isinstance(f, dict) and isinstance(f.get("name"), str) and re.match(r"^[a-z][a-z0-9_]*$", f["name"])):
                raise SpecError(f"{path}: {where}: expected {{ name = \"lower_case\", type = ..., doc = ... }}")
            t = f.get("type")
            if t not in self.REPORT_TYPES and t not in self.enums:
                raise SpecError(f"{path}: {where}.{f['name']}.type: {t!r} is none of {', '.join(self.REPORT_TYPES)} "
                                "and no enum of the spec")
            names = []
            if t == "choice":
                names = f.get("choices")
                if not (isinstance(names, list) and names and all(isinstance(x, str) for x in names)):
                    raise SpecError(f"{path}: {where}.{f['name']}: a choice needs `choices`, a list of names")
            elif t in self.enums:
                e = self.enums[t]
                prefix = common_prefix([m[0] for m in e["members"]])
                by_value = {m[1]: m[0][len(prefix):].lower() for m in e["members"]}
                names = [by_value.get(v, "?") for v in range(max(by_value) + 1)]
            elif "choices" in f:
                raise SpecError(f"{path}: {where}.{f['name']}: `choices` is for type \"choice\"")
            return dict(name=f["name"], type="name" if names else t, names=names, doc=f.get("doc", ""))

        for i, r in enumerate(self.raw.get("report", [])):
            where = f"report[{i}]"
            for key in ("name", "json", "doc"):
                if not isinstance(r.get(key), str) or not r[key]:
                    raise SpecError(f"{path}: {where}.{key} missing")
            where = f"report[{i}] ({r['name']})"
            if r["name"] in seen or r["json"] in seen:
                raise SpecError(f"{path}: {where}: name or json key used twice")
            seen.update((r["name"], r["json"]))
            per_edge = r.get("per_edge", False)
            if not isinstance(per_edge, bool):
                raise SpecError(f"{path}: {where}.per_edge: expected true or false")
            fields = [field(f, f"{where}.fields") for f in r.get("fields", [])]
            tables = []
            for t in r.get("table", []):
                if not isinstance(t.get("name"), str):
                    raise SpecError(f"{path}: {where}.table: name missing")
                cols = [field(c, f"{where}.table.{t['name']}.columns") for c in t.get("columns", [])]
                if not cols:
                    raise SpecError(f"{path}: {where}.table.{t['name']}: no columns")
                tables.append(dict(name=t["name"], doc=t.get("doc", ""), columns=cols))
            names = [f["name"] for f in fields] + [t["name"] for t in tables]
            if len(set(names)) != len(names):
                raise SpecError(f"{path}: {where}: a field or table name is used twice")
            if per_edge:
                if (len(tables) != 1 or tables[0]["name"] != "kernels" or tables[0]["columns"][0]["type"] != "kernel"
                        or any(c["type"] not in ("int", "name") for c in tables[0]["columns"][1:])
                        or any(f["type"] not in ("int", "name") for f in fields)):
                    raise SpecError(f"{path}: {where}: a per_edge record has int or named fields and one table "
                                    "\"kernels\" whose first column is the kernel, then int or named columns")
                if len(fields) > self.REPORT_EDGE_FIELDS or len(tables[0]["columns"]) > self.REPORT_EDGE_COLUMNS:
                    raise SpecError(f"{path}: {where}: a per_edge record holds at most {self.REPORT_EDGE_FIELDS} "
                                    f"fields and {self.REPORT_EDGE_COLUMNS} columns (gs::PolicyRecord)")
                cols = [c["name"] for c in tables[0]["columns"]]
                if set(cols) & {f["name"] for f in fields} or len(set(cols)) != len(cols):
                    raise SpecError(f"{path}: {where}: a per_edge record's fields and columns need distinct names")
            self.reports.append(dict(name=r["name"], json=r["json"], doc=r["doc"], per_edge=per_edge,
                                     fields=fields, tables=tables))

    def reports_cpp(self):
        """gs::spec's report kinds (rtl/spec/gs_spec.toml [[report]]): the descriptors the
        formatters of cmodel/metrics/policy_report.hpp follow, and for each per_edge kind the
        field and column indices a policy twin fills its PolicyRecord by."""
        def cstr(x):
            return '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"'
        types = {"int": "kInt", "real": "kReal", "text": "kText", "flag": "kFlag", "ints": "kInts", "kernel": "kKernel",
                 "name": "kName"}
        o = ["", "/// A report field's type (rtl/spec/gs_spec.toml, [[report]]): kName is an int value shown by",
             "/// name (a `choice`, or a spec enum's member in lower case without its prefix).",
             "enum class ReportType : uint8_t { kInt, kReal, kText, kFlag, kInts, kKernel, kName };",
             "struct ReportFieldInfo {",
             "  const char* name; ReportType type; const char* doc;",
             "  const char* const* names; uint32_t num_names;  // kName: the name of value 0, 1, ...",
             "};",
             "struct ReportTableInfo { const char* name; const char* doc; const ReportFieldInfo* columns; uint32_t num_columns; };",
             "struct ReportKindInfo {",
             "  const char* name; const char* json; const char* doc;",
             "  bool per_edge;  // made by a policy twin at clock edges (PolicyRecord); else once per run",
             "  const ReportFieldInfo* fields; uint32_t num_fields;",
             "  const ReportTableInfo* tables; uint32_t num_tables;",
             "};",
             f"inline constexpr uint32_t kReportEdgeFields = {self.REPORT_EDGE_FIELDS}u;   // PolicyRecord's capacity",
             f"inline constexpr uint32_t kReportEdgeColumns = {self.REPORT_EDGE_COLUMNS}u;"]
        o.append("enum class ReportKind : uint8_t {")
        for r in self.reports:
            o.append(f"  k{pascal(r['name'])},  // {r['doc']}")
        o.append("};")
        o.append("namespace report_layout {")

        def infos(var, fs):
            for j, f in enumerate(fs):
                if f["names"]:
                    o.append(f"inline constexpr const char* {var}_n{j}[] = {{{', '.join(cstr(x) for x in f['names'])}}};")
            o.append(f"inline constexpr ReportFieldInfo {var}[] = {{")
            for j, f in enumerate(fs):
                nm = f"{var}_n{j}, {len(f['names'])}u" if f["names"] else "nullptr, 0u"
                o.append(f"    {{{cstr(f['name'])}, ReportType::{types[f['type']]}, {cstr(f['doc'])}, {nm}}},")
            o.append("};")

        for r in self.reports:
            base = r["name"]
            if r["fields"]:
                infos(f"{base}_fields", r["fields"])
            for t in r["tables"]:
                infos(f"{base}_{t['name']}", t["columns"])
            if r["tables"]:
                o.append(f"inline constexpr ReportTableInfo {base}_tables[] = {{")
                for t in r["tables"]:
                    o.append(f"    {{{cstr(t['name'])}, {cstr(t['doc'])}, {base}_{t['name']}, {len(t['columns'])}u}},")
                o.append("};")
        o.append("}  // namespace report_layout")
        o.append("/// Every report kind, in ReportKind order.")
        o.append("inline constexpr ReportKindInfo kReportKinds[] = {")
        for r in self.reports:
            base = f"report_layout::{r['name']}"
            fl = f"{base}_fields, {len(r['fields'])}u" if r["fields"] else "nullptr, 0u"
            tl = f"{base}_tables, {len(r['tables'])}u" if r["tables"] else "nullptr, 0u"
            o.append(f"    {{{cstr(r['name'])}, {cstr(r['json'])}, {cstr(r['doc'])}, "
                     f"{'true' if r['per_edge'] else 'false'}, {fl}, {tl}}},")
        o.append("};")
        o.append("inline const ReportKindInfo& report_kind(ReportKind k) { return kReportKinds[static_cast<uint32_t>(k)]; }")
        o.append("/// Per per_edge kind, the indices of its fields and of its kernels table's columns (the")
        o.append("/// kernel column is 0): PolicyRecord::set(Kind::kField, v), set(slot, Kind::kColumn, v).")
        for r in (r for r in self.reports if r["per_edge"]):
            o.append(f"struct {pascal(r['name'])}Report {{")
            o.append(f"  static constexpr ReportKind kKind = ReportKind::k{pascal(r['name'])};")
            for j, f in enumerate(r["fields"]):
                o.append(f"  static constexpr uint32_t k{pascal(f['name'])} = {j};")
                for v, n in enumerate(f["names"]):
                    o.append(f"  static constexpr int64_t k{pascal(f['name'])}{pascal(n)} = {v};")
            for j, c in enumerate(r["tables"][0]["columns"][1:], start=1):
                o.append(f"  static constexpr uint32_t k{pascal(c['name'])} = {j};")
            o.append("};")
        return o

    def report_doc_rows(self):
        """docs/cli.md's rows for every report kind (gen_spec.py --doc)."""
        out = ["| record (`--json` key) | field | type | meaning |", "|---|---|---|---|"]
        for r in self.reports:
            made = "a list, one per clock edge that made one" if r["per_edge"] else "one per run"
            out.append(f"| `{r['name']}` (`\"{r['json']}\"`: {made}) | | | {r['doc']} |")

            def ty(f):
                return "name: " + ", ".join(f["names"]) if f["names"] else f["type"]
            if r["per_edge"]:
                out.append("| | `cycle` | int | the cycle whose clock edge made it |")
            for f in r["fields"]:
                out.append(f"| | `{f['name']}` | {ty(f)} | {f['doc']} |")
            for t in r["tables"]:
                out.append(f"| | `{t['name']}` | list | {t['doc'] or 'one row each'} |")
                for c in t["columns"]:
                    out.append(f"| | `{t['name']}[].{c['name']}` | {ty(c)} | {c['doc']} |")
        return out

    def _parse_settings(self, all_policies):
        """The settings sections of the registry (`settings` and [[policy.setting]], see the
        spec): one per module, each a packed record <section>_cfg_t, and policy_settings_t of
        all of them (gs_top's cfg_settings_i)."""
        path = self.path
        self.sections = []
        self.module_section = {}
        for i, p in enumerate(all_policies):
            where = f"{path}: policy[{i}] ({p.get('name')})"
            if "settings" not in p:
                if "setting" in p:
                    raise SpecError(f"{where}: [[policy.setting]] entries need the entry's `settings` (the section name)")
                continue
            if "runs_under" in p:
                raise SpecError(f"{where}.settings: an analysis policy has no settings of its own (it runs under "
                                f"{p['runs_under']!r}, with that policy's settings)")
            sec = p["settings"]
            if not isinstance(sec, str) or not re.match(r"^[a-z][a-z0-9_]*$", sec):
                raise SpecError(f"{where}.settings: expected a lower-case identifier (the config object's name)")
            if p["module"] in self.module_section:
                raise SpecError(f"{where}.settings: module {p['module']} has section "
                                f"{self.module_section[p['module']]!r} in another entry (one section per module)")
            if any(x["name"] == sec for x in self.sections):
                raise SpecError(f"{where}.settings: section {sec!r} used by another module")
            rows = p.get("setting", [])
            if not rows:
                raise SpecError(f"{where}: settings = {sec!r} declares no [[policy.setting]]")
            settings = []
            for j, st in enumerate(rows):
                settings.append(self._parse_setting(st, f"{where}.setting[{j}]", sec, settings))
            self.module_section[p["module"]] = sec
            self.sections.append(dict(name=sec, module=p["module"], policy=p["name"], settings=settings,
                                      record=f"{sec}_cfg_t", cpp=pascal(sec) + "Settings",
                                      rtl=[x for x in settings if x["kind"] != "string"]))
        # a module built from other policies' modules (a combined policy) reads their sections:
        # `settings_of`; gs_policies hands it every section (policy_settings_t), it hands each on
        self.module_settings_of = {}
        known = [s["name"] for s in self.sections]
        for i, p in enumerate(all_policies):
            if "settings_of" not in p:
                continue
            where = f"{path}: policy[{i}] ({p.get('name')}).settings_of"
            of = p["settings_of"]
            if "runs_under" in p or "settings" in p:
                raise SpecError(f"{where}: for a scheduler policy without settings of its own (it reads the "
                                "sections of the modules it is built from)")
            if not (isinstance(of, list) and of and all(x in known for x in of) and len(set(of)) == len(of)):
                raise SpecError(f"{where}: expected a list of settings sections ({', '.join(known)})")
            if self.module_settings_of.get(p["module"], of) != of:
                raise SpecError(f"{where}: module {p['module']} reads other sections in another entry")
            self.module_settings_of[p["module"]] = of
        self.base_sm = [(sec["name"], x["name"]) for sec in self.sections for x in sec["settings"] if x["base_sm"]]
        if len(self.base_sm) > 1:
            raise SpecError(f"{path}: base_sm on {len(self.base_sm)} settings; one names the conventional GPU")
        # the records: one per section with RTL settings, and their concatenation
        top = []
        for sec in self.sections:
            if not sec["rtl"]:
                continue
            fields = [dict(name=x["name"], type=x["sv"], width=x["width"], kind="vec", doc=x["doc"]) for x in sec["rtl"]]
            width = sum(f["width"] for f in fields)
            wparam = pascal(sec["name"]) + "CfgW"
            self.records[sec["record"]] = dict(cpp="", width_param=wparam, fields=fields, width=width,
                                               doc=f"{sec['module']}'s settings (config object {sec['name']!r})",
                                               sv_only=True, cpp_only=False, port=None)
            self.env[wparam] = width
            top.append(dict(name=sec["name"], type=sec["record"], width=width, kind="rec", doc=""))
        if not top:
            top.append(dict(name="none", type="logic", width=1, kind="bool", doc="no policy has settings"))
        width = sum(f["width"] for f in top)
        self.records["policy_settings_t"] = dict(cpp="", width_param="PolicySettingsW", fields=top, width=width,
                                                 doc="every policy module's settings, section by section (gs_top's "
                                                     "cfg_settings_i; gs_policies hands each module its section)",
                                                 sv_only=True, cpp_only=False, port=None)
        self.env["PolicySettingsW"] = width

    def _parse_setting(self, st, where, sec, earlier):
        name = st.get("name")
        if not isinstance(name, str) or not re.match(r"^[a-z][a-z0-9_]*$", name):
            raise SpecError(f"{where}.name: expected a lower-case identifier")
        if any(x["name"] == name for x in earlier):
            raise SpecError(f"{where}: setting {name!r} declared twice in section {sec!r}")
        known = {"name", "type", "frac", "default", "range", "range_reason", "unit", "doc", "bench", "regression",
                 "window", "base_sm"}
        for k in st:
            if k not in known:
                raise SpecError(f"{where}: unknown key {k!r} (known: {', '.join(sorted(known))})")
        ty = st.get("type")
        doc = st.get("doc", "")
        if not isinstance(doc, str) or not doc:
            raise SpecError(f"{where}.doc: a setting needs its doc (docs/config_schema.md shows it)")
        out = dict(name=name, section=sec, doc=doc, unit=st.get("unit", ""), frac=0, window=None, frac_param="",
                   base_sm=st.get("base_sm", False))
        if not isinstance(out["base_sm"], bool) or (out["base_sm"] and ty != "string"):
            raise SpecError(f"{where}.base_sm: true on a string setting (the conventional GPU config's name)")
        if ty == "string":
            for k in ("frac", "range", "bench", "regression", "window"):
                if k in st:
                    raise SpecError(f"{where}.{k}: a string setting has no {k}")
            if not isinstance(st.get("default", ""), str):
                raise SpecError(f"{where}.default: expected a string")
            out.update(kind="string", width=0, sv="", default=st.get("default", ""), min=0, max=0, reason="",
                       bench=None, regression=None)
            return out
        vec = re.match(r"^logic\[(.+)\]$", ty or "")
        if vec:
            width = evaluate(vec.group(1), self.env, f"{where}.type")
            sv = f"logic [{vec.group(1)}-1:0]"
        elif ty in self.types:
            width = self.types[ty]["width"]
            sv = ty
        else:
            raise SpecError(f"{where}.type: {ty!r} is not a spec type, logic[W] or string")
        if width > 32:
            raise SpecError(f"{where}.type: {width} bits; a setting holds at most 32")
        top = (1 << width) - 1
        rec = f"{sec}_cfg_t.{name}"
        if "frac" in st:
            frac = evaluate(st["frac"], self.env, f"{where}.frac")
            if not 0 < frac < width:
                raise SpecError(f"{where}.frac: {frac} fraction bits of {width}")
            if "range" in st:
                raise SpecError(f"{where}.range: a fixed-point setting takes any value its bits hold")
            d = st.get("default")
            if not isinstance(d, (int, float)):
                raise SpecError(f"{where}.default: expected a number")
            raw = round(d * (1 << frac))
            lo, hi = 0, top
            reason = f"{rec} is UQ{width - frac}.{frac} ({st['frac']} = {frac})"
            out.update(kind="fixed", frac=frac, frac_param=st["frac"])
        else:
            raw = st.get("default")
            if not isinstance(raw, int) or isinstance(raw, bool):
                raise SpecError(f"{where}.default: expected an integer")
            rng = st.get("range", [0, top])
            if not (isinstance(rng, list) and len(rng) == 2):
                raise SpecError(f"{where}.range: expected [min, max]")
            lo = evaluate(rng[0], self.env, f"{where}.range") if isinstance(rng[0], str) else rng[0]
            hi = evaluate(rng[1], self.env, f"{where}.range") if isinstance(rng[1], str) else rng[1]
            if not (isinstance(lo, int) and isinstance(hi, int) and 0 <= lo <= hi):
                raise SpecError(f"{where}.range: expected 0 <= min <= max")
            if hi > top:
                raise SpecError(f"{where}.range: max {hi} does not fit the setting's {width} bits")
            reason = st.get("range_reason", f"{rec} is {width} bits")
            out.update(kind="uint")
        if not lo <= raw <= hi:
            raise SpecError(f"{where}.default: {st.get('default')} outside the range {lo}..{hi}")
        bench = st.get("bench", [raw, raw])
        if not (isinstance(bench, list) and len(bench) == 2 and all(isinstance(b, int) for b in bench)
                and lo <= bench[0] <= bench[1] <= hi):
            raise SpecError(f"{where}.bench: expected [lo, hi] inside {lo}..{hi}")
        reg = st.get("regression")
        if reg is not None and not (isinstance(reg, int) and lo <= reg <= hi):
            raise SpecError(f"{where}.regression: expected an integer in {lo}..{hi}")
        win = st.get("window")
        if win is not None:
            if not (isinstance(win, list) and len(win) in (2, 3) and all(isinstance(w, str) for w in win)
                    and (len(win) == 2 or win[2] == "all_sms")):
                raise SpecError(f"{where}.window: expected [param, holder] or [param, holder, \"all_sms\"]")
            win = dict(param=win[0], bits=evaluate(win[0], self.env, f"{where}.window"), holder=win[1],
                       all_sms=len(win) == 3)
        out.update(width=width, sv=sv, default=raw, min=lo, max=hi, reason=reason, bench=bench, regression=reg,
                   window=win)
        return out

    def _check_port(self, name, port, fields, sv_only):
        """Validates a record's `port` table (see the records section of the spec)."""
        where = f"{self.path}: records.{name}.port"
        if sv_only:
            raise SpecError(f"{where}: a port record needs its C++ struct (not sv_only)")
        prefix, direction, valid = port.get("prefix"), port.get("dir"), port.get("valid")
        if not isinstance(prefix, str) or not re.match(r"^[a-z][a-z0-9_]*$", prefix):
            raise SpecError(f"{where}.prefix: expected a lower-case identifier")
        if direction not in ("in", "out"):
            raise SpecError(f"{where}.dir: expected \"in\" or \"out\"")
        if valid not in ("field", "type", "separate"):
            raise SpecError(f"{where}.valid: expected \"field\", \"type\" or \"separate\"")
        if valid == "field" and (not fields or fields[0]["name"] != "valid" or fields[0]["kind"] != "bool"):
            raise SpecError(f"{where}.valid = \"field\": the first field must be `valid` (logic)")
        if valid == "type" and (not fields or fields[0]["kind"] != "enum"):
            raise SpecError(f"{where}.valid = \"type\": the first field must be an enum")
        if valid == "separate" and not isinstance(port.get("cpp_port"), str):
            raise SpecError(f"{where}.cpp_port: valid = \"separate\" needs the name of the C++ port struct")
        if direction == "out" and valid != "field":
            raise SpecError(f"{where}: an output group carries its own `valid` field (valid = \"field\")")
        for f in fields:
            if f["width"] > 32:
                raise SpecError(f"{where}: field {f['name']} is {f['width']} bits; port fields hold at most 32")
        suffix = "_i" if direction == "in" else "_o"
        return dict(prefix=prefix, dir=direction, valid=valid, cpp_port=port.get("cpp_port", ""), suffix=suffix)

    def leaf_fields(self, name, prefix="", base=0):
        """(dotted name, lsb, width) of every leaf field of a record, MSB first."""
        out = []
        r = self.records[name]
        at = base + r["width"]
        for f in r["fields"]:
            at -= f["width"]
            if f["kind"] == "rec":
                out.extend(self.leaf_fields(f["type"], prefix + f["name"] + ".", at))
            else:
                out.append((prefix + f["name"], at, f["width"]))
        return out

    def state_pack_cpp(self):
        """Packers of the SystemVerilog-only records (a module's registers, state_o) for the golden
        twins: pack_<record>(st, lsb, q, units...) puts q's fields, named as the record's, at their
        bits; a field whose record ends in _state_t is a sub-unit's, packed by that unit's twin
        (unit.state(st, lsb)). The twin's state() is then one call; a field the twin names
        differently or holds in another shape does not compile."""
        o = []
        o.append("/// A twin's register into a record field of W bits at `lsb`: an integer, bool or enum as")
        o.append("/// is; a std::array as W / N bits per element, element 0 lowest; a generated C++ record")
        o.append("/// (WfRes, ...) by its pack(), MSB first. `st` has put(lsb, width, bits) (golden PolicyState).")
        o.append("template <class T> struct IsStdArray : std::false_type {};")
        o.append("template <class T, std::size_t N> struct IsStdArray<std::array<T, N>> : std::true_type {};")
        o.append("template <uint32_t W, class St, class T>")
        o.append("void put_field(St& st, uint32_t lsb, const T& v) {")
        o.append("  if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {")
        o.append("    static_assert(W <= 64, \"a scalar register field holds at most 64 bits\");")
        o.append("    st.put(lsb, W, static_cast<uint64_t>(v));")
        o.append("  } else if constexpr (IsStdArray<T>::value) {")
        o.append("    constexpr uint32_t N = uint32_t(std::tuple_size_v<T>);")
        o.append("    static_assert(W % N == 0, \"an array field's width is a multiple of its element count\");")
        o.append("    for (uint32_t i = 0; i < N; ++i) put_field<W / N>(st, lsb + i * (W / N), v[i]);")
        o.append("  } else {")
        o.append("    static_assert(T::kWidth == W, \"a record field is the generated record of its width\");")
        o.append("    uint32_t at = lsb + W;")
        o.append("    pack(v, [&](uint64_t bits, unsigned w) { at -= w; st.put(at, w, bits); });")
        o.append("  }")
        o.append("}")
        o.append("/// A sub-unit's record of W bits at `lsb`: its twin's state(st, lsb); a twin that states its")
        o.append("/// record's width (kStateW, e.g. a parameterized gs_seq_mul) is checked against W.")
        o.append("template <class U, class = void> struct HasStateW : std::false_type {};")
        o.append("template <class U> struct HasStateW<U, std::void_t<decltype(U::kStateW)>> : std::true_type {};")
        o.append("template <uint32_t W, class St, class U>")
        o.append("void put_unit(St& st, uint32_t lsb, const U& unit) {")
        o.append("  if constexpr (HasStateW<U>::value) static_assert(U::kStateW == W, \"the unit's record is its twin's width\");")
        o.append("  unit.state(st, lsb);")
        o.append("}")
        o.append("/// pack_<record>(st, lsb, q, units...): a module's registers q (fields named as the record's)")
        o.append("/// at `lsb` in the record's layout; each sub-unit's record (a field of type *_state_t) from")
        o.append("/// that unit's twin, unit.state(st, lsb), the units passed in field order.")
        for name, r in self.records.items():
            if not r["sv_only"]:
                continue
            units = [f["name"] for f in r["fields"] if f["kind"] == "rec" and f["type"].endswith("_state_t")]
            tparams = "".join(f", class U_{u}" for u in units)
            params = "".join(f", const U_{u}& {u}" for u in units)
            o.append(f"template <class St, class Q{tparams}>")
            o.append(f"void pack_{name}(St& st, uint32_t lsb, const Q& q{params}) {{")
            if len(units) == len(r["fields"]):
                o.append("  (void)q;")
            at = r["width"]
            for f in r["fields"]:
                at -= f["width"]
                n = f["name"]
                if n in units:
                    o.append(f"  put_unit<{f['width']}u>(st, lsb + {at}u, {n});")
                elif f["kind"] == "rec" and self.records[f["type"]]["sv_only"]:
                    sub = self.records[f["type"]]
                    if any(g["kind"] == "rec" and g["type"].endswith("_state_t") for g in sub["fields"]):
                        raise SpecError(f"records.{name}.{n}: a nested record holds a sub-unit's state; "
                                        "give the sub-unit's record a field of the module's own record")
                    o.append(f"  pack_{f['type']}(st, lsb + {at}u, q.{n});")
                else:
                    o.append(f"  put_field<{f['width']}u>(st, lsb + {at}u, q.{n});")
            o.append("}")
        return o

    def settings_cpp(self):
        """The policies' settings in C++ (namespace gs::spec): a record per section, PolicySettings,
        the table of every setting, the config loader, the RTL packing and the bench's draws."""
        def cstr(t):
            return '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'
        o = [""]
        o.append("// ---------------------------------------------------------------- policy settings")
        o.append("// A policy module's settings section (the registry's `settings` and [[policy.setting]]):")
        o.append("// the config object of that name, gs_pkg::<section>_cfg_t on the module's set_i port.")
        for sec in self.sections:
            o.append(f"/// {sec['module']}'s settings: config object \"{sec['name']}\" (gs_pkg::{sec['record']}).")
            o.append(f"struct {sec['cpp']} {{")
            for x in sec["settings"]:
                if x["kind"] == "string":
                    o.append(f"  std::string {x['name']} = {cstr(x['default'])};")
                else:
                    note = " (raw UQ, " + str(x["frac"]) + " fraction bits)" if x["kind"] == "fixed" else ""
                    o.append(f"  uint32_t {x['name']} = {x['default']}u;  // {x['unit'] or 'value'}{note}")
            o.append("};")
        o.append("/// Every settings section: GpuConfig::settings, PolicyCfg::settings, the RTL's cfg_settings_i.")
        o.append("struct PolicySettings {")
        for sec in self.sections:
            o.append(f"  {sec['cpp']} {sec['name']};")
        o.append("};")
        o.append("/// One setting (docs/config_schema.md's rows; --set policy.<policy>.<setting>). kind: \"uint\",")
        o.append("/// \"fixed\" (raw = value x 2**frac) or \"string\"; min, max and def raw; window_bits: a sample")
        o.append("/// window whose instructions (window x warp schedulers: of one SM, or with window_all_sms of")
        o.append("/// every SM) must fit that many bits of window_holder.")
        o.append("struct SettingInfo {")
        o.append("  const char* section; const char* name; const char* kind; uint32_t width; uint32_t frac;")
        o.append("  uint32_t min, max, def; const char* def_text; const char* unit; const char* doc; const char* reason;")
        o.append("  uint32_t window_bits; const char* window_param; const char* window_holder; bool window_all_sms;")
        o.append("};")
        rows = [x for sec in self.sections for x in sec["settings"]]
        o.append("inline constexpr SettingInfo kSettings[] = {")
        for x in rows:
            w = x["window"] or dict(bits=0, param="", holder="", all_sms=False)
            d = 0 if x["kind"] == "string" else x["default"]
            o.append(f"    {{{cstr(x['section'])}, {cstr(x['name'])}, {cstr(x['kind'])}, {x['width']}u, {x['frac']}u, "
                     f"{x['min']}u, {x['max']}u, {d}u, {cstr(self._default_text(x))}, {cstr(x['unit'])}, {cstr(x['doc'])}, "
                     f"{cstr(x['reason'])}, {w['bits']}u, {cstr(w['param'])}, {cstr(w['holder'])}, "
                     f"{'true' if w['all_sms'] else 'false'}}},")
        if not rows:
            o.append('    {"", "", "", 0u, 0u, 0u, 0u, 0u, "", "", "", "", 0u, "", "", false},')
        o.append("};")
        o.append(f"inline constexpr uint32_t kSettingCount = {len(rows)}u;")
        o.append("/// A numeric setting's raw value by its index in kSettings (0 for a string setting).")
        o.append("inline uint32_t setting_value(const PolicySettings& s, uint32_t index) {")
        o.append("  switch (index) {")
        for i, x in enumerate(rows):
            if x["kind"] != "string":
                o.append(f"    case {i}: return s.{x['section']}.{x['name']};")
        o.append("    default: return 0;")
        o.append("  }")
        o.append("}")
        o.append("/// The loader of every section: section(name, f) calls f(reader) with the reader of the")
        o.append("/// config's object `name` when the config has one (gpu_config.cpp: an ObjectReader of that")
        o.append("/// object, which then rejects unknown keys); the reader checks each range and names the field.")
        o.append("template <class Section>")
        o.append("void read_policy_settings(Section&& section, PolicySettings& s) {")
        for sec in self.sections:
            o.append(f"  section({cstr(sec['name'])}, [&](auto& r) {{")
            for x in sec["settings"]:
                ref = f"s.{sec['name']}.{x['name']}"
                if x["kind"] == "string":
                    o.append(f"    r.str({cstr(x['name'])}, {ref});")
                elif x["kind"] == "fixed":
                    o.append(f"    r.fixed({cstr(x['name'])}, {ref}, {x['frac']}u, {x['max']}u, {cstr(x['reason'])});")
                else:
                    o.append(f"    r.u32({cstr(x['name'])}, {ref}, {x['min']}u, {x['max']}u, {cstr(x['reason'])});")
            o.append("  });")
        o.append("  (void)s;")
        o.append("}")
        o.append("/// A section's RTL settings as gs_pkg::<section>_cfg_t bits, MSB first: put(bits, width).")
        o.append("/// section \"\" packs policy_settings_t (every section, gs_top's cfg_settings_i).")
        o.append("template <class Put>")
        o.append("void pack_settings(const PolicySettings& s, const char* section, Put&& put) {")
        o.append("  const std::string want = section;")
        for sec in self.sections:
            if not sec["rtl"]:
                continue
            o.append(f"  if (want.empty() || want == {cstr(sec['name'])}) {{")
            for x in sec["rtl"]:
                o.append(f"    put(uint64_t(s.{sec['name']}.{x['name']}), {x['width']}u);")
            o.append("  }")
        if not any(sec["rtl"] for sec in self.sections):
            o.append("  if (want.empty()) put(0u, 1u);")
        o.append("  (void)s;")
        o.append("}")
        o.append("/// The policy bench's settings: each RTL setting drawn from its `bench` range; below(n)")
        o.append("/// returns 0..n-1 and is called only for a range of more than one value.")
        o.append("template <class Below>")
        o.append("PolicySettings bench_settings(Below&& below) {")
        o.append("  PolicySettings s;")
        for sec in self.sections:
            for x in sec["rtl"]:
                lo, hi = x["bench"]
                ref = f"s.{sec['name']}.{x['name']}"
                o.append(f"  {ref} = {lo}u" + (f" + uint32_t(below({hi - lo + 1}u));" if hi > lo else ";"))
        o.append("  (void)below;")
        o.append("  return s;")
        o.append("}")
        o.append("/// The settings the random-mix lockstep regression runs with (`regression` in the registry).")
        o.append("inline void apply_regression_settings(PolicySettings& s) {")
        for sec in self.sections:
            for x in sec["rtl"]:
                if x["regression"] is not None:
                    o.append(f"  s.{sec['name']}.{x['name']} = {x['regression']}u;")
        o.append("  (void)s;")
        o.append("}")
        o.append("/// The setting that names the conventional GPU whose one SM type is GpuConfig::base_sm (the")
        o.append("/// registry's base_sm; empty names when no setting is one) and its value.")
        if self.base_sm:
            sec, name = self.base_sm[0]
            o.append(f'inline constexpr const char* kBaseSmSection = "{sec}";')
            o.append(f'inline constexpr const char* kBaseSmSetting = "{name}";')
            o.append(f"inline const std::string& base_sm_config(const PolicySettings& s) {{ return s.{sec}.{name}; }}")
        else:
            o.append('inline constexpr const char* kBaseSmSection = "";')
            o.append('inline constexpr const char* kBaseSmSetting = "";')
            o.append("inline const std::string& base_sm_config(const PolicySettings&) {")
            o.append("  static const std::string none;")
            o.append("  return none;")
            o.append("}")
        return o

    @staticmethod
    def _default_text(x):
        if x["kind"] == "string":
            return '"' + x["default"] + '"'
        if x["kind"] == "fixed":
            return ("%g" % (x["default"] / (1 << x["frac"])))
        return str(x["default"])

    def config_schema_rows(self):
        """The rows of docs/config_schema.md for every setting (gen_spec.py --doc)."""
        def rng(x):
            if x["kind"] == "string":
                return ""
            if x["kind"] == "fixed":
                return f"; 0 <= x < {1 << (x['width'] - x['frac'])}, rounded to the nearest 1/{1 << x['frac']}"
            hi = x["max"]
            hi_t = f"2^{hi.bit_length() - 1}" if hi > 1024 and hi & (hi - 1) == 0 else str(hi)
            return f"; {x['min']}..{hi_t}"
        out = ["| key | type | default | meaning / validation |", "|---|---|---|---|"]
        for sec in self.sections:
            pols = [p["name"] for p in self.policies if p["module"] == sec["module"]]
            out.append(f"| `{sec['name']}` | object | see below | the settings of {', '.join('`' + n + '`' for n in pols)} "
                       f"(docs/rtl/{sec['module']}.md) |")
            for x in sec["settings"]:
                ty = {"string": "string", "fixed": "number", "uint": "int"}[x["kind"]]
                unit = f" [{x['unit']}]" if x["unit"] else ""
                win = ""
                if x["window"]:
                    of = "every SM's warp schedulers" if x["window"]["all_sms"] else "warp schedulers"
                    win = (f"; window x {of} must fit {x['window']['holder']} "
                           f"({x['window']['param']} = {x['window']['bits']} bits)")
                out.append(f"| `{sec['name']}.{x['name']}` | {ty} | {self._default_text(x)} | "
                           f"{x['doc']}{unit}{rng(x)}{win} |")
        return out

    # ------------------------------------------------------------------ SystemVerilog
    def sv(self):
        o = []
        o.append("// GENERATED by rtl/spec/gen_spec.py from rtl/spec/gs_spec.toml -- do not edit; change the spec.")
        o.append("//")
        o.append("// gs_pkg: parameters, enums and packed records shared by every scheduler block.")
        o.append("// Yosys 0.23 notes: reference items qualified (gs_pkg::x), no `import`. Yosys 0.23 silently")
        o.append("// drops the dimension of a packed array of a typedef or struct, so every table is a flat")
        o.append("// vector and entry i is `tbl[i*W +: W]`, W being the record's width parameter below.")
        o.append("// A package is a library: each block uses a part of it, so unused items are not lint errors.")
        o.append("/* verilator lint_off UNUSEDPARAM */")
        o.append("package gs_pkg;")
        o.append("")
        o.append("  // ---------------------------------------------------------------- parameters")
        for name, value, public, doc, expr in self.params:
            pub = " /*verilator public*/" if public else ""
            note = doc + (f" [{expr}]" if expr else "")
            o.append(f"  localparam int {name}{pub} = {value};" + (f"  // {note}" if note else ""))
        o.append("")
        o.append("  // ---------------------------------------------------------------- scalar field types")
        for name, t in self.types.items():
            o.append(f"  typedef logic [{t['wexpr']}-1:0] {name};" + (f"  // {t['doc']}" if t["doc"] else ""))
        o.append("")
        o.append("  // ---------------------------------------------------------------- enums")
        for name, e in self.enums.items():
            w = e["width"]
            rng = f" [{w - 1}:0]" if w > 1 else ""
            if e["doc"]:
                o.append(f"  // {e['doc']}")
            o.append(f"  typedef enum logic{rng} {{")
            rows = []
            for m in e["members"]:
                rows.append(f"    {m[0]} = {w}'d{m[1]}" + (f"   // {m[2]}" if len(m) > 2 and m[2] else ""))
            for i, r in enumerate(rows):
                if i < len(rows) - 1:
                    if "   //" in r:
                        code, com = r.split("   //", 1)
                        rows[i] = code + ",   //" + com
                    else:
                        rows[i] = r + ","
            o.extend(rows)
            o.append(f"  }} {name};")
            o.append("")
        o.append("  // ---------------------------------------------------------------- records")
        for name, r in self.records.items():
            if r["cpp_only"]:
                continue
            o.append(f"  // {r['doc']} ({r['width']} bits = {r['width_param']})")
            o.append("  typedef struct packed {")
            for f in r["fields"]:
                o.append(f"    {f['type']} {f['name']};" + (f"  // {f['doc']}" if f["doc"] else ""))
            o.append(f"  }} {name};")
            o.append(f"  localparam int {r['width_param']} = {r['width']};")
            o.append("")
        o.append("endpackage")
        o.append("/* verilator lint_on UNUSEDPARAM */")
        o.append("")
        o.append("// Lockstep mutant switches (docs/rtl/mutations.md): `GS_MUTANT(mut_<x>, \"GS_MUT_<X>\") in a")
        o.append("// block declares the bit mut_<x>, read from the plusarg +GS_MUT_<X> in a model built with GS_MUTANTS")
        o.append("// (Vgs_top_mutants) and a localparam 0 otherwise, so synthesis and Vgs_top never carry the bug.")
        o.append("`ifdef GS_MUTANTS")
        o.append("`define GS_MUTANT(flag, plusarg) bit flag; initial flag = $test$plusargs(plusarg);")
        o.append("`else")
        o.append("`define GS_MUTANT(flag, plusarg) localparam bit flag = 1'b0;")
        o.append("`endif")
        return "\n".join(o) + "\n"

    # ------------------------------------------------------------------ C++
    def cpp(self):
        o = []
        o.append("// GENERATED by rtl/spec/gen_spec.py from rtl/spec/gs_spec.toml -- do not edit; change the spec.")
        o.append("//")
        o.append("// The scheduler's parameters, enums, records and policy registry for C++: the same values")
        o.append("// and bit layouts as the SystemVerilog package gs_pkg generated from the same spec.")
        o.append("#pragma once")
        o.append("#include <array>")
        o.append("#include <cstdint>")
        o.append("#include <ostream>")
        o.append("#include <sstream>")
        o.append("#include <string>")
        o.append("#include <type_traits>")
        o.append("")
        o.append("namespace gs {")
        o.append("")
        o.append("using KernelId = uint16_t;    // index of the kernel in the mix (assigned at launch)")
        o.append("using SmId = uint16_t;")
        o.append("using CtaId = uint32_t;")
        o.append("constexpr KernelId kNoKernel = 0xFFFF;")
        o.append("")
        o.append("namespace spec {")
        for name, value, public, doc, expr in self.params:
            note = doc + (f" [{expr}]" if expr else "")
            o.append(f"inline constexpr uint32_t {name} = {value}u;" + (f"  // {note}" if note else ""))
        o.append("")
        o.append("/// The params this build overrode (gen_spec.py --set, e.g. cmake -DGS_MAX_KERNELS=16), space-separated;")
        o.append("/// empty for the spec's own values.")
        o.append(f'inline constexpr const char* kSpecOverrides = "{" ".join(self.overrides)}";')
        o.append("struct ParamEntry { const char* name; uint32_t value; bool verilator_public; };")
        o.append("/// Every parameter and derived width, in spec order.")
        o.append("inline constexpr ParamEntry kParams[] = {")
        for name, value, public, _, _ in self.params:
            o.append(f'    {{"{name}", {value}u, {"true" if public else "false"}}},')
        o.append("};")
        o.append("struct EnumMember { const char* member; uint32_t value; };")
        for name, e in self.enums.items():
            o.append(f"/// gs_pkg::{name}")
            o.append(f"inline constexpr EnumMember k{e['cpp']}Members[] = {{")
            for m in e["members"]:
                o.append(f'    {{"{m[0]}", {m[1]}u}},')
            o.append("};")
        o.append("/// Record widths (bits), as the gs_pkg localparams of the same names.")
        for name, r in self.records.items():
            o.append(f"inline constexpr uint32_t {r['width_param']} = {r['width']}u;  // {name}")
        o.append("")
        o.append("/// Bit layout of every record: <record>::<field>_lsb / _width (first field = MSB), for")
        o.append("/// benches and tools that address fields of the wide contract records on a Verilated port.")
        o.append("/// A field of a record: its name (nested records' fields as \"outer.inner\"), LSB and width.")
        o.append("struct FieldInfo { const char* name; uint32_t lsb; uint32_t width; };")
        o.append("namespace layout {")
        for name, r in self.records.items():
            o.append(f"namespace {name} {{")
            at = r["width"]
            for f in r["fields"]:
                at -= f["width"]
                o.append(f"inline constexpr uint32_t {f['name']}_lsb = {at}u, {f['name']}_width = {f['width']}u;")
            o.append("/// Every leaf field, MSB first.")
            o.append("inline constexpr FieldInfo kFields[] = {")
            for fname, lsb, width in self.leaf_fields(name):
                o.append(f'    {{"{fname}", {lsb}u, {width}u}},')
            o.append("};")
            o.append(f"}}  // namespace {name}")
        o.append("}  // namespace layout")
        o.append("")
        o.extend(self.state_pack_cpp())
        o.append("/// The policy registry: gsim names, aliases, RTL module, in gs_pkg::policy_e order.")
        o.append("/// state: the module's register record (\"\" when it has none) and its leaf fields.")
        o.append("/// sm_sharing: the policy honours policy_cfg_t.sm_exclusive (gsim --sm-sharing exclusive).")
        o.append("/// observes: the policy reads the observation channel (it needs an observation epoch).")
        o.append("/// A registry entry's regression_mix: MixGenOptions bounds of its random-mix regression (0: keep).")
        o.append("struct RegressionMix {")
        o.append("  " + "; ".join(f"uint32_t {f}" for f in REGRESSION_MIX_FIELDS) + ";")
        o.append("  bool any() const { return " + " || ".join(f"{f} != 0" for f in REGRESSION_MIX_FIELDS) + "; }")
        o.append("};")
        o.append("struct PolicyInfo {")
        o.append("  const char* name; const char* aliases; const char* member; const char* module; const char* doc;")
        o.append("  const char* state; const FieldInfo* state_fields; uint32_t state_field_count;")
        o.append("  bool sm_sharing;")
        o.append("  bool observes;")
        o.append("  const char* view;   // its GTKWave view in verif/waves/ (the entry's `view`, else dispatch.gtkw)")
        o.append("  const char* settings;   // its module's settings section (kSettings), \"\" when it has none")
        o.append("  const char* settings_of;   // the sections of other modules it reads (a combined policy), comma-separated")
        o.append("  const char* takes;   // the golden-only SchedOptions it honours, comma-separated (policy_takes())")
        o.append("  bool sm_types;   // maps kernels by SM type: needs big SMs and the base SM (the registry's sm_types)")
        o.append("  const char* regression_config;   // sm_types: the regression's preset with big SMs")
        o.append("  RegressionMix regression_mix;   // the random-mix regression's mix bounds (0: the default)")
        o.append("};")
        o.append("inline constexpr PolicyInfo kPolicies[] = {")
        for p in self.policies:
            aliases = ",".join(p.get("aliases", []))
            doc = p.get("doc", "").replace('"', '\\"')
            st = p.get("state")
            fields = (f"layout::{st}::kFields, uint32_t(sizeof(layout::{st}::kFields) / sizeof(FieldInfo))"
                      if st else "nullptr, 0u")
            sharing = "true" if p.get("sm_sharing", False) else "false"
            observes = "true" if p.get("observes", False) else "false"
            view = p.get("view", "dispatch.gtkw")
            sec = self.module_section.get(p["module"], "")
            of = ",".join(self.module_settings_of.get(p["module"], []))
            mix = p.get("regression_mix", {})
            mix = "{" + ", ".join(f"{mix.get(f, 0)}u" for f in REGRESSION_MIX_FIELDS) + "}"
            o.append(f'    {{"{p["name"]}", "{aliases}", "{p["member"]}", "{p["module"]}", "{doc}", "{st or ""}", {fields}, '
                     f'{sharing}, {observes}, "{view}", "{sec}", "{of}", "{",".join(p.get("takes", []))}", '
                     f'{"true" if p.get("sm_types", False) else "false"}, "{p.get("regression_config", "")}", {mix}}},')
        o.append("};")
        o.append("/// The default policy (gsim's --policy) and the one alone runs use: the registry's first entry.")
        o.append(f'inline constexpr const char* kDefaultPolicyName = "{self.policies[0]["name"]}";')
        o.append("/// Whether `p` reads settings section `section`: its module's own, or one of its settings_of.")
        o.append("inline bool policy_reads_section(const PolicyInfo& p, const std::string& section) {")
        o.append("  const std::string list = std::string(\",\") + p.settings + \",\" + p.settings_of + \",\";")
        o.append("  return !section.empty() && list.find(\",\" + section + \",\") != std::string::npos;")
        o.append("}")
        o.append("/// Whether `p` honours the golden-only scheduler option `option` (the entry's `takes`).")
        o.append("inline bool policy_takes(const PolicyInfo& p, const std::string& option) {")
        o.append("  const std::string list = std::string(\",\") + p.takes + \",\";")
        o.append("  return list.find(\",\" + option + \",\") != std::string::npos;")
        o.append("}")
        o.append("")
        o.append("/// The C++-only analysis policies of the registry (entries with runs_under): an oracle, a")
        o.append("/// baseline or a static mapping built from runs of the registry policy `runs_under`; no")
        o.append("/// policy_e member, no RTL module. golden_only: the shared run needs the golden scheduler")
        o.append("/// (it sets something gs_top has no port for); otherwise any scheduler runs it.")
        o.append("struct DerivedPolicyInfo {")
        o.append("  const char* name; const char* aliases; const char* runs_under; const char* doc;")
        o.append("  bool golden_only;")
        o.append("  bool sm_sharing;")
        o.append("};")
        o.append("inline constexpr DerivedPolicyInfo kDerivedPolicies[] = {")
        for p in self.derived_policies:
            aliases = ",".join(p.get("aliases", []))
            doc = p.get("doc", "").replace('"', '\\"')
            o.append(f'    {{"{p["name"]}", "{aliases}", "{p["runs_under"]}", "{doc}", '
                     f'{"true" if p.get("golden_only", False) else "false"}, '
                     f'{"true" if p.get("sm_sharing", False) else "false"}}},')
        o.append("};")
        o.extend(self.settings_cpp())
        o.extend(self.reports_cpp())
        o.append("}  // namespace spec")
        o.append("")
        # enums
        for name, e in self.enums.items():
            prefix = common_prefix([m[0] for m in e["members"]])
            utype = "uint8_t" if e["width"] <= 8 else "uint32_t"
            o.append(f"/// gs_pkg::{name}" + (f": {e['doc']}" if e["doc"] else ""))
            o.append(f"enum class {e['cpp']} : {utype} {{")
            for m in e["members"]:
                o.append(f"  {camel(m[0], prefix)} = {m[1]}," + (f"  // {m[2]}" if len(m) > 2 and m[2] else ""))
            o.append("};")
            o.append(f"inline const char* to_string({e['cpp']} v) {{")
            o.append("  switch (v) {")
            for m in e["members"]:
                o.append(f"    case {e['cpp']}::{camel(m[0], prefix)}: return \"{m[0]}\";")
            o.append("  }")
            o.append('  return "?";')
            o.append("}")
            o.append("")
        o.append("namespace spec {")
        o.append("/// The default policy's policy_e member (kDefaultPolicyName's).")
        o.append(f"inline constexpr Policy kDefaultPolicy = Policy::{camel(self.policies[0]['member'], common_prefix([p['member'] for p in self.policies]))};")
        o.append("}  // namespace spec")
        o.append("")
        # field values as the per-field visitors (for_each_field) hand them out, and their text
        o.append("/// A kernel-id field as for_each_field() passes it: KernelId and SmId share a C++ type,")
        o.append("/// the wrapper keeps \"none\" (kNoKernel) apart when the value is printed.")
        o.append("struct KernelField {")
        o.append("  KernelId id;")
        o.append("  bool operator==(KernelField o) const { return id == o.id; }")
        o.append("  bool operator!=(KernelField o) const { return id != o.id; }")
        o.append("};")
        o.append("/// Text of one field value (lockstep reports): numbers in decimal, enums by member name.")
        o.append("inline std::string field_str(KernelField v) { return v.id == kNoKernel ? std::string(\"none\") : std::to_string(v.id); }")
        for name, e in self.enums.items():
            o.append(f"inline std::string field_str({e['cpp']} v) {{ return to_string(v); }}")
        o.append("template <class T>")
        o.append("std::string field_str(T v) { return std::to_string(+v); }")
        o.append("")
        # records
        o.append("/// Bit access used by pack()/unpack(): put(value, width) / get(width), fields MSB first.")
        for name, r in self.records.items():
            if r["sv_only"]:
                continue
            cpp = r["cpp"]
            o.append(f"/// gs_pkg::{name}: {r['doc']}")
            o.append(f"struct {cpp} {{")
            o.append(f"  static constexpr uint32_t kWidth = {r['width']}u;")
            for f in r["fields"]:
                if f["kind"] == "bool":
                    decl, init = "bool", "false"
                elif f["kind"] == "kernel":
                    decl, init = f["cpp"], "kNoKernel"
                elif f["kind"] == "enum":
                    e = self.enums[f["type"]]
                    prefix = common_prefix([m[0] for m in e["members"]])
                    decl, init = f["cpp"], f"{f['cpp']}::{camel(e['members'][0][0], prefix)}"
                else:
                    decl, init = f["cpp"], "0"
                o.append(f"  {decl} {f['name']} = {init};" + (f"  // {f['doc']}" if f["doc"] else ""))
            o.append("};")
            eq = " && ".join(f"a.{f['name']} == b.{f['name']}" for f in r["fields"]) or "true"
            o.append(f"inline bool operator==(const {cpp}& a, const {cpp}& b) {{ return {eq}; }}")
            o.append(f"inline bool operator!=(const {cpp}& a, const {cpp}& b) {{ return !(a == b); }}")
            # pack
            o.append(f"/// Fields of a {cpp} as RTL bits, MSB first: put(uint64_t bits, unsigned width).")
            o.append("template <class Put>")
            o.append(f"void pack(const {cpp}& r, Put&& put) {{")
            for f in r["fields"]:
                w = f["width"]
                if f["kind"] == "kernel":
                    o.append(f"  put(r.{f['name']} == kNoKernel ? {(1 << w) - 1}ull : uint64_t(r.{f['name']}), {w}u);")
                elif f["kind"] == "signed":
                    o.append(f"  put(uint64_t(int64_t(r.{f['name']})) & {(1 << w) - 1}ull, {w}u);")
                else:
                    o.append(f"  put(uint64_t(r.{f['name']}), {w}u);")
            o.append("}")
            o.append(f"/// A {cpp} from RTL bits, MSB first: get(unsigned width) -> uint64_t.")
            o.append("template <class Get>")
            o.append(f"{cpp} unpack_{cpp}(Get&& get) {{")
            o.append(f"  {cpp} r;")
            for f in r["fields"]:
                w = f["width"]
                if f["kind"] == "bool":
                    o.append(f"  r.{f['name']} = get({w}u) != 0;")
                elif f["kind"] == "kernel":
                    o.append(f"  {{ const uint64_t v = get({w}u); r.{f['name']} = v == {(1 << w) - 1}ull ? kNoKernel : {f['cpp']}(v); }}")
                elif f["kind"] == "signed":
                    o.append(f"  {{ const uint64_t v = get({w}u); r.{f['name']} = {f['cpp']}(v >= {1 << (w - 1)}ull ? int64_t(v) - {1 << w}ll : int64_t(v)); }}")
                else:
                    o.append(f"  r.{f['name']} = {f['cpp']}(get({w}u));")
            o.append("  return r;")
            o.append("}")
            o.append(f"/// Overload for generic code: unpack(static_cast<const {cpp}*>(nullptr), get).")
            o.append("template <class Get>")
            o.append(f"{cpp} unpack(const {cpp}*, Get&& get) {{ return unpack_{cpp}(get); }}")
            # format
            o.append(f"inline std::ostream& operator<<(std::ostream& os, const {cpp}& r) {{")
            parts = []
            for i, f in enumerate(r["fields"]):
                sep = "" if i == 0 else " "
                if f["kind"] == "kernel":
                    parts.append(f'os << "{sep}{f["name"]}="; if (r.{f["name"]} == kNoKernel) os << "none"; else os << r.{f["name"]};')
                elif f["kind"] == "enum":
                    parts.append(f'os << "{sep}{f["name"]}=" << to_string(r.{f["name"]});')
                else:
                    parts.append(f'os << "{sep}{f["name"]}=" << +r.{f["name"]};')
            o.append('  os << "{";')
            for p in parts:
                o.append("  " + p)
            o.append('  return os << "}";')
            o.append("}")
            o.append(f"inline std::string record_str(const {cpp}& r) {{ std::ostringstream os; os << r; return os.str(); }}")
            # per-field visitor over two records (lockstep: name the first differing field)
            o.append(f"/// The fields of two {cpp} records in spec order: f(const char* name, x, y), x and y the")
            o.append("/// two values (kernel ids as KernelField); stops at the first f that returns false.")
            o.append("template <class F>")
            o.append(f"bool for_each_field(const {cpp}& a, const {cpp}& b, F&& f) {{")
            calls = []
            for f in r["fields"]:
                n = f["name"]
                if f["kind"] == "kernel":
                    calls.append(f'f("{n}", KernelField{{a.{n}}}, KernelField{{b.{n}}})')
                else:
                    calls.append(f'f("{n}", a.{n}, b.{n})')
            o.append("  return " + ("\n         && ".join(calls) if calls else "true") + ";")
            o.append("}")
            port = r["port"]
            if port and port["valid"] == "separate":
                pc = port["cpp_port"]
                o.append(f"/// {cpp} as it crosses gs_top's port: the record and its own valid port ({port['prefix']}_valid_i).")
                o.append(f"struct {pc} : {cpp} {{")
                o.append("  bool valid = false;")
                o.append(f"  const {cpp}& record() const {{ return *this; }}")
                o.append("};")
                o.append(f"inline bool operator==(const {pc}& a, const {pc}& b) {{ return a.valid == b.valid && a.record() == b.record(); }}")
                o.append(f"inline bool operator!=(const {pc}& a, const {pc}& b) {{ return !(a == b); }}")
            o.append("")
        o.append("}  // namespace gs")
        o.append("")
        o.append("/// X-macro over the parameters exported from the Verilated model (spec: public = true).")
        o.append("#define GS_SPEC_PUBLIC_PARAMS(X) " + " ".join(f"X({p[0]})" for p in self.params if p[2]))
        return "\n".join(o) + "\n"


def policies_sv(spec):
    """gs_policies: every policy module of the registry behind one policy contract, muxed by
    the selected policy. PolicySet (one bit per policy_e member) leaves modules out of a build."""
    mods = {}
    for i, p in enumerate(spec.policies):
        mods.setdefault(p["module"], []).append((i, p["member"]))
    o = []
    o.append("// GENERATED by rtl/spec/gen_spec.py from the [[policy]] registry of rtl/spec/gs_spec.toml -- do not edit.")
    o.append("//")
    o.append("// gs_policies: every policy module behind the one policy contract (docs/adding-a-policy.md).")
    o.append("// One instance per module; a module is built when PolicySet holds one of its policies, and")
    o.append("// enabled (en_i) when policy_i is one of them. out_o is the selected policy's policy_out_t")
    o.append("// (all zeros for a policy left out of the build: nothing is dispatched). Purely structural.")
    o.append("module gs_policies #(")
    o.append("  parameter gs_pkg::policy_set_t PolicySet = {gs_pkg::NumPolicies{1'b1}}   // all (Yosys 0.23 reads '1 as 1 here)")
    o.append(") (")
    o.append("  input  logic                  clk_i,")
    o.append("  input  logic                  rst_ni,")
    o.append("  input  gs_pkg::policy_e       policy_i,")
    o.append("  input  gs_pkg::policy_cfg_t   cfg_i,")
    o.append("  // each module with settings gets its section; a build without some modules reads fewer")
    o.append("  /* verilator lint_off UNUSEDSIGNAL */")
    o.append("  input  gs_pkg::policy_settings_t set_i,")
    o.append("  /* verilator lint_on UNUSEDSIGNAL */")
    o.append("  input  gs_pkg::policy_view_t  view_i,")
    o.append("  input  gs_pkg::policy_event_t event_i,")
    o.append("  input  logic                  accept_i,")
    o.append("  output gs_pkg::policy_out_t   out_o,")
    o.append("  // the selected module's registers (its `state` record, zero-extended; 0 for a module")
    o.append("  // without registers): read by the lockstep state check only, removed by synthesis")
    o.append("  output logic [gs_pkg::PolicyStateW-1:0] state_o")
    o.append(");")
    prof_mods = [m for m in mods if spec.module_profiles.get(m)]
    if prof_mods:
        built = " || ".join(f"PolicySet[{i}]" for m in prof_mods for i, _ in mods[m])
        o.append("")
        o.append("  // The profiling counters: one set for every module that profiles (`profiles` in the")
        o.append("  // registry), read and controlled by the selected one; the others' prof_o is ignored.")
        o.append("  gs_pkg::prof_ctl_t prof_ctl;")
        o.append("  gs_pkg::prof_rd_t prof_rd;")
        o.append(f"  if ({built}) begin : g_prof")
        o.append("    gs_prof_counters u_prof (")
        o.append("      .clk_i, .rst_ni, .clear_i(prof_ctl.clear), .run_i(prof_ctl.run), .obs_i(event_i.obs),")
        o.append("      .obs_hit_i(event_i.obs_hit), .obs_slot_i(event_i.obs_slot), .tag_i(prof_ctl.tag),")
        o.append("      .tag_sm_i(prof_ctl.tag_sm), .tag_slot_i(prof_ctl.tag_slot), .rd_sm_i(prof_ctl.rd_sm),")
        o.append("      .rd_slot_i(prof_ctl.rd_slot), .rd_insts_o(prof_rd.insts), .rd_stall_o(prof_rd.stall),")
        o.append("      .acc_insts_o(prof_rd.acc), .cycles_o(prof_rd.cycles), .sat_o(prof_rd.sat)")
        o.append("    );")
        o.append("  end else begin : g_no_prof")
        o.append("    assign prof_rd = '0;")
        o.append("  end")
    for mod, members in mods.items():
        short = mod[len("gs_policy_"):] if mod.startswith("gs_policy_") else mod
        built = " || ".join(f"PolicySet[{i}]" for i, _ in members)
        en = " || ".join(f"policy_i == gs_pkg::{m}" for _, m in members)
        st = spec.module_state.get(mod)
        o.append("")
        o.append(f"  // {mod}: {', '.join(m for _, m in members)}" + (f" (registers: {st})" if st else ""))
        prof = spec.module_profiles.get(mod)
        o.append(f"  gs_pkg::policy_out_t out_{short};")
        if st:
            o.append(f"  gs_pkg::{st} state_{short};")
        if prof:
            o.append(f"  gs_pkg::prof_ctl_t prof_{short};")
        o.append(f"  if ({built}) begin : g_{short}")
        o.append(f"    {mod} u_policy (")
        o.append(f"      .clk_i, .rst_ni, .en_i({en}), .policy_i, .cfg_i, .view_i, .event_i, .accept_i,")
        sec = spec.module_section.get(mod)
        sets = f", .set_i(set_i.{sec})" if sec else ", .set_i(set_i)" if mod in spec.module_settings_of else ""
        o.append(f"      .out_o(out_{short})" + sets
                 + (f", .state_o(state_{short})" if st else "")
                 + (f", .prof_o(prof_{short}), .prof_i(prof_rd)" if prof else ""))
        o.append("    );")
        o.append(f"  end else begin : g_no_{short}")
        o.append(f"    assign out_{short} = '0;")
        if st:
            o.append(f"    assign state_{short} = '0;")
        if prof:
            o.append(f"    assign prof_{short} = '0;")
        o.append("  end")
    o.append("")
    o.append("  always_comb begin")
    o.append("    out_o = '0;")
    o.append("    state_o = '0;")
    o.append("    unique case (policy_i)")
    for mod, members in mods.items():
        short = mod[len("gs_policy_"):] if mod.startswith("gs_policy_") else mod
        items = ", ".join(f"gs_pkg::{m}" for _, m in members)
        if spec.module_state.get(mod):
            o.append(f"      {items}: begin")
            o.append(f"        out_o = out_{short};")
            o.append(f"        state_o = gs_pkg::PolicyStateW'(state_{short});")
            o.append("      end")
        else:
            o.append(f"      {items}: out_o = out_{short};")
    o.append("      default: out_o = '0;")
    o.append("    endcase")
    o.append("  end")
    if prof_mods:
        # a block of its own: out_o depends on prof_rd, which depends on prof_ctl
        o.append("")
        o.append("  always_comb begin")
        o.append("    prof_ctl = '0;")
        o.append("    unique case (policy_i)")
        for mod in prof_mods:
            short = mod[len("gs_policy_"):] if mod.startswith("gs_policy_") else mod
            items = ", ".join(f"gs_pkg::{m}" for _, m in mods[mod])
            o.append(f"      {items}: prof_ctl = prof_{short};")
        o.append("      default: prof_ctl = '0;")
        o.append("    endcase")
        o.append("  end")
    o.append("endmodule")
    return "\n".join(o) + "\n"


def unique_in_order(values):
    """The distinct values, first occurrence first (modules of the registry, strategy makers)."""
    return list(dict.fromkeys(values))


def twin_class(module):
    """gs_policy_left_over -> PolicyLeftOver (the golden twin's class, by convention)."""
    return "".join(w[:1].upper() + w[1:] for w in module[len("gs_"):].split("_"))


def policy_twins_hpp(spec):
    """The golden registry: the twin of each policy's module, header <module>.hpp."""
    modules = unique_in_order(p["module"] for p in spec.policies)
    o = []
    o.append("// GENERATED by rtl/spec/gen_spec.py from the [[policy]] registry of rtl/spec/gs_spec.toml -- do not edit.")
    o.append("//")
    o.append("// The golden policy registry: for each policy, a fresh twin of the module that implements it")
    o.append("// (cmodel/sched/golden/<module>.hpp, class Policy<Name>), as gs_policies instantiates the module.")
    o.append("#pragma once")
    o.append("#include <memory>")
    o.append("")
    for m in modules:
        o.append(f'#include "sched/golden/{m}.hpp"')
    o.append("")
    o.append("namespace gs::golden {")
    o.append("")
    o.append("inline std::unique_ptr<PolicyTwin> make_policy_twin(Policy p) {")
    o.append("  switch (p) {")
    prefix = common_prefix([q["member"] for q in spec.policies])
    for q in spec.policies:
        o.append(f"    case Policy::{camel(q['member'], prefix)}: return std::make_unique<{twin_class(q['module'])}>();")
    o.append("  }")
    o.append("  return nullptr;")
    o.append("}")
    o.append("")
    o.append("}  // namespace gs::golden")
    return "\n".join(o) + "\n"


def policy_cmake(spec):
    modules = unique_in_order(p["module"] for p in spec.policies)
    prof = [m for m in modules if spec.module_profiles.get(m)]
    sets = "".join(
        f"set(GS_POLICY_SET_{m} \"{len(spec.policies)}'d{sum(1 << i for i, p in enumerate(spec.policies) if p['module'] == m)}\")\n"
        for m in prof)
    return ("# GENERATED by rtl/spec/gen_spec.py from rtl/spec/gs_spec.toml -- do not edit.\n"
            "# The policy modules of the registry (verif/rtl/benches verilates one bench model each)\n"
            "# and the policies' gsim names (verif/cosim runs one h100 lockstep test each).\n"
            f"set(GS_POLICY_MODULES {' '.join(modules)})\n"
            f"set(GS_POLICY_NAMES {' '.join(p['name'] for p in spec.policies)})\n"
            "# The modules that read the shared profiling counters (`profiles`): their bench model is\n"
            "# gs_policies built with only that module's policies (GS_POLICY_SET_<module>, a PolicySet).\n"
            f"set(GS_POLICY_PROF_MODULES {' '.join(prof)})\n" + sets +
            "# The policies of those modules (verif/cosim checks each one's first decision at 132 SMs).\n"
            f"set(GS_POLICY_PROF_NAMES {' '.join(p['name'] for p in spec.policies if p['module'] in prof)})\n")


def policy_benches_cpp(spec):
    """One random block bench per policy of the registry, through the policy contract
    (verif/rtl/benches/policy_bench.hpp)."""
    prefix = common_prefix([q["member"] for q in spec.policies])
    o = []
    o.append("// GENERATED by rtl/spec/gen_spec.py from the [[policy]] registry of rtl/spec/gs_spec.toml -- do not edit.")
    o.append("//")
    o.append("// Every policy of the registry, Verilated alone (Vbench_<module>), against its golden twin")
    o.append("// through the policy contract: random tables, events and acceptances (policy_bench.hpp).")
    o.append("#include <catch2/catch.hpp>")
    o.append("")
    mods = unique_in_order(p["module"] for p in spec.policies)
    for m in mods:
        o.append(f'#include "Vbench_{m}.h"')
    o.append('#include "policy_bench.hpp"')
    o.append("")
    for p in spec.policies:
        o.append(f'TEST_CASE("{p["module"]} as {p["name"]}: random tables against its golden twin", "[rtl][bench][policy]") {{')
        # policies with sm_sharing run shared and exclusive (policy_cfg_t.sm_exclusive)
        sharing = "{false, true}" if p.get("sm_sharing", False) else "{false}"
        o.append(f"  for (bool excl : {sharing})")
        o.append("  for (uint32_t sms : {1u, 5u, gs::spec::MaxSms}) {")
        o.append(f"    gs::bench::PolicyBench<Vbench_{p['module']}> b(gs::Policy::{camel(p['member'], prefix)}, 17 + sms, sms, excl);")
        o.append("    b.run(4000);")
        o.append("    WARN(\"" + p["name"] + " on \" << sms << \" SMs\" << (excl ? \" (SMs exclusive)\" : \"\") << \": \" << b.requests()")
        o.append("         << \" preemption requests, \" << b.owner_writes() << \" owner writes, \" << b.quota_writes()")
        o.append("         << \" quota writes, \" << b.state_compares() << \" register states compared\");")
        o.append("  }")
        o.append("}")
        o.append("")
    return "\n".join(o)


def port_hpp(spec):
    """gs_top_port.hpp: drive/sample of gs_top's port groups (records with a `port` table)."""
    groups = [(name, r) for name, r in spec.records.items() if r["port"]]
    o = []
    o.append("// GENERATED by rtl/spec/gen_spec.py from rtl/spec/gs_spec.toml -- do not edit; change the spec.")
    o.append("//")
    o.append("// gs_top's decision port, group by group (the records with a `port` table in the spec): drive")
    o.append("// a Verilated gs_top's input ports from SchedInputs and sample its output ports into")
    o.append("// SchedOutputs. Templated on the Verilated class (every variant of gs_top has the same ports);")
    o.append("// used by GsTopDriver (sim_top/rtl_sched/gs_top_driver.hpp) and the mismatch waveform.")
    o.append("// Port <prefix>_<field>_<i|o> carries field <field> of SchedInputs/SchedOutputs::<prefix>;")
    o.append("// kernel ids cross as all ones = none, signed fields as two's complement of the port width.")
    o.append("#pragma once")
    o.append("#include <cstdint>")
    o.append("")
    o.append('#include "sched/scheduler_port.hpp"')
    o.append("")
    o.append("namespace gs::port {")
    o.append("")
    o.append("/// X(port, width) over every port of the groups, in spec order: the driver checks each width")
    o.append("/// against the Verilated model's (gs_rtl_ports.hpp) at compile time.")
    xs = []
    for name, r in groups:
        pt = r["port"]
        if pt["valid"] in ("separate", "type"):
            xs.append(f"X({pt['prefix']}_valid{pt['suffix']}, 1)")
        for f in r["fields"]:
            xs.append(f"X({pt['prefix']}_{f['name']}{pt['suffix']}, {f['width']})")
    o.append("#define GS_PORT_FIELDS(X) " + " ".join(xs))
    o.append("")

    def to_bits(f, expr):
        w = f["width"]
        mask = f"{(1 << w) - 1}ull"
        if f["kind"] == "bool":
            return f"({expr} ? 1u : 0u)"
        if f["kind"] == "kernel":
            return f"({expr} == kNoKernel ? {mask} : uint64_t({expr}) & {mask})"
        if f["kind"] == "signed":
            return f"(uint64_t(int64_t({expr})) & {mask})"
        return f"(uint64_t({expr}) & {mask})"

    def from_bits(f, expr):
        w = f["width"]
        if f["kind"] == "bool":
            return f"{expr} != 0"
        if f["kind"] == "kernel":
            return f"uint64_t({expr}) == {(1 << w) - 1}ull ? kNoKernel : {f['cpp']}({expr})"
        if f["kind"] == "enum":
            return f"static_cast<{f['cpp']}>({expr})"
        if f["kind"] == "signed":
            return f"{f['cpp']}(uint64_t({expr}) >= {1 << (w - 1)}ull ? int64_t({expr}) - {1 << w}ll : int64_t({expr}))"
        return f"{f['cpp']}({expr})"

    o.append("/// Writes every input group of `in` onto the model's input ports.")
    o.append("template <class M>")
    o.append("void drive_inputs(M& m, const SchedInputs& in) {")
    for name, r in groups:
        pt = r["port"]
        if pt["dir"] != "in":
            continue
        p, sfx = pt["prefix"], pt["suffix"]
        if pt["valid"] == "separate":
            o.append(f"  m.{p}_valid{sfx} = in.{p}.valid ? 1u : 0u;")
        elif pt["valid"] == "type":
            first = r["fields"][0]
            e = spec.enums[first["type"]]
            prefix = common_prefix([mm[0] for mm in e["members"]])
            o.append(f"  m.{p}_valid{sfx} = in.{p}.{first['name']} != {first['cpp']}::{camel(e['members'][0][0], prefix)} ? 1u : 0u;")
        for f in r["fields"]:
            expr = f"in.{p}.{f['name']}"
            bits = to_bits(f, f"uint32_t({expr})" if f["kind"] == "enum" else expr)
            o.append(f"  m.{p}_{f['name']}{sfx} = {bits};")
    o.append("}")
    o.append("")
    o.append("/// Whether drive_inputs(m, a) and drive_inputs(m, b) write the same port values (SchedInputs::cycle")
    o.append("/// is not a port).")
    o.append("inline bool same_port_inputs(const SchedInputs& a, const SchedInputs& b) {")
    conds = [f"a.{r['port']['prefix']} == b.{r['port']['prefix']}" for _, r in groups if r["port"]["dir"] == "in"]
    o.append("  return " + " && ".join(conds) + ";")
    o.append("}")
    o.append("")
    o.append("/// Reads every output group from the model's output ports into `o`; a record whose valid port")
    o.append("/// is low reads as the default record (its other ports hold don't-cares).")
    o.append("template <class M>")
    o.append("void sample_outputs(const M& m, SchedOutputs& o) {")
    for name, r in groups:
        pt = r["port"]
        if pt["dir"] != "out":
            continue
        p, sfx = pt["prefix"], pt["suffix"]
        o.append(f"  o.{p} = {r['cpp']}{{}};")
        o.append(f"  if (m.{p}_valid{sfx}) {{")
        for f in r["fields"]:
            port_expr = "m." + p + "_" + f["name"] + sfx
            o.append(f"    o.{p}.{f['name']} = {from_bits(f, port_expr)};")
        o.append("  }")
    o.append("}")
    o.append("")
    o.append("/// One field of an output group as a gs_top port (mismatch waveforms, reports).")
    o.append("struct OutputField {")
    o.append("  const char* port;")
    o.append("  unsigned width;")
    o.append("  enum Kind { kBit, kNum, kKernel, kEnum } kind;")
    o.append("  const char* enum_name;  // gs_pkg enum of a kEnum field, else nullptr")
    o.append("  uint64_t (*bits)(const SchedOutputs&);  // the field's value as the port's bits")
    o.append("};")
    o.append("inline constexpr OutputField kOutputFields[] = {")
    for name, r in groups:
        pt = r["port"]
        if pt["dir"] != "out":
            continue
        p, sfx = pt["prefix"], pt["suffix"]
        for f in r["fields"]:
            kind = {"bool": "kBit", "kernel": "kKernel", "enum": "kEnum"}.get(f["kind"], "kNum")
            en = f'"{f["type"]}"' if f["kind"] == "enum" else "nullptr"
            expr = f"o.{p}.{f['name']}"
            bits = to_bits(f, f"uint32_t({expr})" if f["kind"] == "enum" else expr)
            o.append(f'    {{"{p}_{f["name"]}{sfx}", {f["width"]}u, OutputField::{kind}, {en}, '
                     f"[](const SchedOutputs& o) -> uint64_t {{ return {bits}; }}}},")
    o.append("};")
    o.append("")
    o.append("}  // namespace gs::port")
    return "\n".join(o) + "\n"


def mix_strategies_hpp(spec):
    """The C++-only analysis policies (entries with runs_under): each entry's `strategy` names
    the maker make_mix_strategy_<strategy>() that its own file defines (cmodel/metrics/)."""
    o = []
    o.append("// GENERATED by rtl/spec/gen_spec.py from the [[policy]] registry of rtl/spec/gs_spec.toml -- do not edit.")
    o.append("//")
    o.append("// The analysis policies' strategies (registry entries with runs_under): the maker each entry")
    o.append("// names with `strategy`, defined in that policy's own file (contract: metrics/mix_strategy.hpp).")
    o.append("#pragma once")
    o.append("#include <memory>")
    o.append("#include <string>")
    o.append("")
    o.append("namespace gs {")
    o.append("")
    o.append("class MixStrategy;")
    makers = unique_in_order(p["strategy"] for p in spec.derived_policies)
    for m in makers:
        o.append(f"std::unique_ptr<MixStrategy> make_mix_strategy_{m}(const std::string& policy);")
    o.append("")
    o.append("/// A fresh strategy for analysis policy `policy` (its registry name), nullptr for any other name.")
    o.append("inline std::unique_ptr<MixStrategy> make_mix_strategy(const std::string& policy) {")
    for p in spec.derived_policies:
        o.append(f'  if (policy == "{p["name"]}") return make_mix_strategy_{p["strategy"]}(policy);')
    o.append("  return nullptr;")
    o.append("}")
    o.append("")
    o.append("}  // namespace gs")
    return "\n".join(o) + "\n"


def write_if_changed(path, text):
    path = pathlib.Path(path)
    if path.exists() and path.read_text() == text:
        return
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


# Generated rows of markdown tables: (what, begin line, end line, the Spec method that makes them).
DOC_BLOCKS = [
    ("policy-settings", "<!-- policy settings: generated by rtl/spec/gen_spec.py --doc from the registry; do not edit -->",
     "<!-- end of policy settings -->", "config_schema_rows"),
    ("policy-report", "<!-- policy reports: generated by rtl/spec/gen_spec.py --doc from the [[report]] entries; do not edit -->",
     "<!-- end of policy reports -->", "report_doc_rows"),
]


def sync_doc(spec, path, write):
    """Each generated block the markdown file holds (DOC_BLOCKS: docs/config_schema.md the
    policy settings, docs/cli.md the report records) is the spec's."""
    try:
        text = path.read_text()
    except OSError as e:
        print(f"gen_spec.py: --doc {path}: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    found = False
    for what, begin, end, rows in DOC_BLOCKS:
        if text.count(begin) == 0 and text.count(end) == 0:
            continue
        if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
            print(f"gen_spec.py: --doc {path}: expected one line {begin!r} and, after it, one {end!r}", file=sys.stderr)
            return 2
        found = True
        head, rest = text.split(begin, 1)
        body, tail = rest.split(end, 1)
        want = "\n" + "\n".join(getattr(spec, rows)()) + "\n"
        if body == want:
            continue
        if not write:
            print(f"gen_spec.py: {path}: the {what} rows differ from {spec.path}; rerun "
                  f"python3 rtl/spec/gen_spec.py --spec {spec.path} --doc {path} --write-doc", file=sys.stderr)
            return 1
        text = head + begin + want + end + tail
        path.write_text(text)
    if not found:
        print(f"gen_spec.py: --doc {path}: holds no generated block (" +
              ", ".join(repr(b[1]) for b in DOC_BLOCKS) + ")", file=sys.stderr)
        return 2
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", required=True, help="the spec (rtl/spec/gs_spec.toml)")
    ap.add_argument("--out", default="", help="output directory (gs_spec.hpp and the other C++/CMake files)")
    ap.add_argument("--sv-out", default="", help="directory of gs_pkg.sv and gs_policies.sv (default: --out)")
    ap.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE", help="override a [params] value")
    ap.add_argument("--doc", metavar="MD", help="docs/config_schema.md or docs/cli.md: check that its generated rows "
                    "(policy settings, report records) are the spec's (exit 1 when not), writing nothing else")
    ap.add_argument("--write-doc", action="store_true", help="with --doc: rewrite those rows instead")
    args = ap.parse_args()
    overrides = {}
    for s in args.set:
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)=([0-9]+)$", s)
        if not m or int(m.group(2)) <= 0:
            print(f"gen_spec.py: --set {s!r}: expected PARAM=<positive integer>", file=sys.stderr)
            return 2
        overrides[m.group(1)] = int(m.group(2))
    try:
        spec = Spec(args.spec, overrides)
    except SpecError as e:
        print(f"gen_spec.py: {e}", file=sys.stderr)
        return 2
    if args.doc:
        return sync_doc(spec, pathlib.Path(args.doc), args.write_doc)
    if not args.out:
        print("gen_spec.py: --out DIR is needed (or --doc)", file=sys.stderr)
        return 2
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sv_out = pathlib.Path(args.sv_out) if args.sv_out else out
    sv_out.mkdir(parents=True, exist_ok=True)
    write_if_changed(sv_out / "gs_pkg.sv", spec.sv())
    write_if_changed(out / "gs_spec.hpp", spec.cpp())
    write_if_changed(sv_out / "gs_policies.sv", policies_sv(spec))
    write_if_changed(out / "gs_top_port.hpp", port_hpp(spec))
    write_if_changed(out / "gs_policy_twins.hpp", policy_twins_hpp(spec))
    write_if_changed(out / "gs_mix_strategies.hpp", mix_strategies_hpp(spec))
    write_if_changed(out / "gs_policies.cmake", policy_cmake(spec))
    write_if_changed(out / "gs_policy_benches.cpp", policy_benches_cpp(spec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
