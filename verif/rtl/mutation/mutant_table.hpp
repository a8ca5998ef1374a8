// gsched mutation check: the lockstep mutants, by name (a generated .cpp fills the list).
//
// verif/rtl/CMakeLists.txt collects every `GS_MUTANT(mut_<x>, "GS_MUT_<X>") switch in the RTL
// (docs/rtl/mutations.md describes them) into mutant_list.cpp. The model that carries them is
// rtl::make_mutant_gs_top (Vgs_top_mutants, built with GS_MUTANTS).
#pragma once
#include <string>
#include <vector>

namespace gs::mutation {

/// "GS_MUT_CTA_REISSUE", ... sorted.
const std::vector<std::string>& lockstep_mutants();

}  // namespace gs::mutation
