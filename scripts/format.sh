#!/usr/bin/env bash
# gsched: formats the C++ of the tree with the repository's .clang-format (docs/style.md), or
# checks it. The files: every tracked *.cpp, *.hpp and *.h under cmodel/, sim_top/, verif/ and
# constraints/ (git ls-files: build trees and generated sources are never tracked).
#
# Usage: ./scripts/format.sh            reformat those files in place
#        ./scripts/format.sh --check    change nothing; list the files that are not formatted
#                                       and exit 1 if there is any
# Environment: CLANG_FORMAT (default clang-format; the style is tuned to clang-format 14, and
# another major version may format some lines differently).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cf=${CLANG_FORMAT:-clang-format}
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
if ! command -v "$cf" >/dev/null; then
  echo "format.sh: $cf not found (scripts/install_deps.sh installs clang-format)" >&2
  exit 2
fi
major=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
[ "$major" = 14 ] || echo "format.sh: note: $cf is version $major, the style is tuned to 14" >&2

specs=()
for d in cmodel sim_top verif constraints; do
  for e in cpp hpp h; do specs+=("$d/*.$e"); done   # git pathspec: * spans folders
done
mapfile -t files < <(git ls-files -- "${specs[@]}")
if [ "$check" = 0 ]; then
  "$cf" -i --style=file "${files[@]}"
  echo "format.sh: formatted ${#files[@]} files"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$cf" --style=file --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  printf '%s\n' "${bad[@]}"
  echo "format.sh: ${#bad[@]} of ${#files[@]} files are not formatted (./scripts/format.sh formats them)" >&2
  exit 1
fi
echo "format.sh: ${#files[@]} files formatted"
