#!/usr/bin/env bash
# gsched quick start, part 1: install what is missing, build (default preset: C++ model + RTL),
# and run the main job -- the default two-kernel mix on the 16-SM Warped-Slicer GPU, under the
# lockstep scheduler when the RTL is built (golden otherwise) -- printing the metrics table.
#
# Usage: ./scripts/gsim-run.sh [extra gsim run options, e.g. --policy left-over --json out.json]
# Environment: GS_JOBS (parallel build jobs, default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install_deps.sh
cmake --preset default
cmake --build --preset default -j "${GS_JOBS:-2}" --target gsim
exec ./build/sim_top/gsim run --config warped-slicer --mix default "$@"
