# gsched: helpers shared by the shell test scripts of verif/cli (sourced, never run).
#
# The sourcing script sets ERR (the file that holds the stderr of the command last run) before
# its first check. Every check prints one line; summary prints the counts and fails if any
# check failed, so a script ends with `summary`.
# shellcheck shell=bash

passed=0
failed=0
RC=0

# ok NAME: a check that passed.
ok() { passed=$((passed + 1)); echo "ok    $1"; }
# bad NAME [WHY]: a check that failed, with WHY and the start of the last stderr.
bad() {
  failed=$((failed + 1))
  echo "FAIL  $1"
  [ -n "${2:-}" ] && echo "      $2"
  echo "      stderr: $(head -c 800 "$ERR" 2>/dev/null | tr '\n' ' ')"
  return 0
}
# check NAME EXPR [WHY]: ok when the shell expression EXPR holds, else bad.
check() { if eval "$2"; then ok "$1"; else bad "$1" "${3:-}"; fi; }
# summary: "N passed, M failed"; false when a check failed.
summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# A gsim sweep's output directory (docs/sweep.md): result files, temporaries, CSV rows.
results() { find "$1/runs" -maxdepth 1 -name '*.json' ! -name '.*' | wc -l; }
temporaries() { find "$1/runs" -maxdepth 1 -name '.*' -type f | wc -l; }
csv_rows() { tail -n +2 "$1/results.csv" | wc -l; }
