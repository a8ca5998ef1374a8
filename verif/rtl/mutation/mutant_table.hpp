// gsched mutation check: the table of Verilated mutants of gs_top (generated .cpp fills it).
//
// verif/rtl/CMakeLists.txt verilates gs_top once per `GS_MUT_<X>` define found in the RTL
// (docs/rtl/mutations.md describes them) with PREFIX Vgs_top_mut_<x>, and generates
// mutant_models.cpp defining mutant_table(): one entry per mutant, each a maker of an RtlModel
// (GsTopDriver over that Verilated class).
#pragma once
#include <string>
#include <vector>

#include "rtl_sched/rtl_model.hpp"

namespace gs::mutation {

struct Mutant {
  std::string define;       // "GS_MUT_PTBQ_DROP"
  rtl::RtlModelMaker make;  // the mutated gs_top
};

const std::vector<Mutant>& mutant_table();

}  // namespace gs::mutation
