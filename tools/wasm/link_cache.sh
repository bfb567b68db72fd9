#!/bin/sh
# The WebAssembly engine's links, kept (tools/wasm/CMakeLists.txt runs it
# as the engines' linker launcher):
#
#   link_cache.sh SOURCE_DIR BUILD_DIR LINKER WORDS...
#
# Each link runs Binaryen's optimiser over the whole program (about 30 s of
# the machine each), and ccache keeps compiles, not links. The key of a
# link: its words (SOURCE_DIR and BUILD_DIR written as fixed names, so
# that every clone of the same sources has the same key), the contents of
# every word that names a file (the objects and libraries, which ccache
# and llvm-ar make the same in every clone), and the linker's version (its
# system libraries). A key linked before copies that link's outputs, the
# -o FILE.js and its FILE.wasm, from the cache; any other key links, and a
# link that succeeds is kept. The cache is the user's
# (${XDG_CACHE_HOME:-$HOME/.cache}/gobblet/wasm-link), the last 8 links;
# where it cannot be written the link just runs.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 SOURCE_DIR BUILD_DIR LINKER WORDS..." >&2; exit 2; }
source_dir=$1 build_dir=$2
shift 2
out="" previous=""
for word in "$@"; do
  [ "$previous" = -o ] && out=$word
  previous=$word
done
cache=${XDG_CACHE_HOME:-$HOME/.cache}/gobblet/wasm-link
case "$out" in *.js) ;; *) exec "$@" ;; esac
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || exec "$@"
wasm=${out%.js}.wasm

key=$(
  for word in "$@"; do
    printf '%s\n' "$word" | sed "s|$build_dir|<build>|g; s|$source_dir|<source>|g"
    if [ -f "$word" ]; then sha256sum <"$word"; fi
  done
  "$1" --version 2>&1 | head -n 1
) || exit 1
key=$(printf '%s' "$key" | sha256sum | cut -c1-64)

if [ -f "$cache/$key/out.js" ] && [ -f "$cache/$key/out.wasm" ]; then
  cp "$cache/$key/out.js" "$out"
  cp "$cache/$key/out.wasm" "$wasm"
  touch "$cache/$key"  # (the most recently used are kept)
  exit 0
fi

"$@"
kept=$(mktemp -d "$cache/new.XXXXXX") || exit 0
if cp "$out" "$kept/out.js" && cp "$wasm" "$kept/out.wasm" && mv -T "$kept" "$cache/$key" 2>/dev/null; then :; else
  rm -rf "$kept"  # (another build kept the same link first, or the disk is full: nothing lost)
fi
# (one path a line, so that a cache folder with spaces in its path is safe)
# shellcheck disable=SC2012
ls -dt "$cache"/*/ 2>/dev/null | tail -n +9 | while IFS= read -r old; do rm -rf -- "$old"; done
exit 0
