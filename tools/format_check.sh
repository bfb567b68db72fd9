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
# One clang-format a batch of files, a batch per core at once (a clang-format
# a file, one after another, took half a minute); a batch that fails is
# then asked file by file, to name them.
check_batch() { "$clang_format" --style=file --dry-run -Werror "$@" >/dev/null 2>&1 && return 0
  for file in "$@"; do "$clang_format" --style=file --dry-run -Werror "$file" >/dev/null 2>&1 || echo "$file"; done; }
export -f check_batch
export clang_format
mapfile -t unformatted < <(printf '%s\0' "${files[@]}" | xargs -0 -n 25 -P "$(nproc)" bash -c 'check_batch "$@"' _)
if ((${#unformatted[@]})); then
  echo "format check: ${#unformatted[@]} file(s) not formatted as .clang-format says (tools/format_check.sh --fix):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "format check: ${#files[@]} files formatted" >&2
