#!/usr/bin/env bash
# gsched quick start, part 2: install what is missing, build everything with the default preset
# and run every test except the long regressions (CTest label `long`); then build the C++ model
# and unit tests with ASan+UBSan (asan preset) and run them. Exits non-zero on any failure.
#
# Usage: ./scripts/test.sh
# Environment: GS_JOBS (parallel build/test jobs, default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=${GS_JOBS:-2}

./scripts/install_deps.sh

echo "== default preset: build and test (ctest -LE long)"
cmake --preset default
cmake --build --preset default -j "$jobs"
ctest --preset default -j "$jobs"

echo "== asan preset: unit tests, gsim hostile inputs and loader fuzzing under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake --preset asan
cmake --build --preset asan -j "$jobs" --target gs_unit_tests gsim gs_fuzz_loaders
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  ctest --preset asan -j "$jobs"
echo "== all tests passed"
