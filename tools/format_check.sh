#!/usr/bin/env bash
# Fails, listing them, when a C++ file of the repository is not formatted as
# .clang-format says (clang-format 14, Debian's clang-format package).
# Usage: tools/format_check.sh [--fix]   (--fix formats them in place)
set -euo pipefail
cd "$(dirname "$0")/.."
# Another major version lays some code out otherwise: the check would then
# fail on formatted files, so it refuses to run with one.
clang_format="$(command -v clang-format-14 || command -v clang-format || true)"
[ -n "$clang_format" ] || { echo "format check: clang-format is missing (tools/setup.sh installs it)" >&2; exit 1; }
version="$("$clang_format" --version)"
if ! [[ "$version" =~ version\ 14\. ]]; then
  echo "format check: the tree is formatted with clang-format 14, and $clang_format is: $version" >&2
  exit 1
fi
# search/eval_weights.h is data that gobblet-tune writes (tests/tools/tune_test.cpp
# holds the file to the tuner's own output), so its layout is the tuner's.
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v '^search/eval_weights\.h$')
if [ "${1:-}" = "--fix" ]; then
  "$clang_format" -i --style=file "${files[@]}"
  exit 0
fi
unformatted=()
for file in "${files[@]}"; do
  "$clang_format" --style=file --dry-run -Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done
if ((${#unformatted[@]})); then
  echo "format check: ${#unformatted[@]} file(s) not formatted as .clang-format says (tools/format_check.sh --fix):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "format check: ${#files[@]} files formatted" >&2
