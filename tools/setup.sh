#!/usr/bin/env bash
# Installs what gobblet needs from Debian's packages (only the missing ones)
# and builds it. Usage: tools/setup.sh [release|asan|tsan|no-boost|wasm|wasm-profile|deps|package-deps]
# (default: release; deps installs only, package-deps only what building
# and checking the Debian packages needs: tools/package_check.sh;
# wasm-profile makes the WebAssembly build's profile again). The
# kinds but wasm are the presets of CMakePresets.json: tsan builds only what
# the tests labelled "concurrency" need, no-boost only the protocol's tests,
# without Boost. Build output goes to stderr so that the engine's stdout
# stays clean.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-release}"

# What builds the programs and the Debian packages, and checks them
# (tools/package_check.sh: the examples, pkg-config, lintian, mpirun).
package_packages=(g++ cmake ninja-build libboost-dev libabsl-dev libzstd-dev ccache pkg-config python3
                  dpkg-dev lintian openmpi-bin libopenmpi-dev)
# What the tests add: GoogleTest and Google Benchmark, the sanitizers'
# clang run-time, the browser, the Python module, the WebAssembly build.
test_packages=(googletest libgtest-dev libbenchmark-dev clang libclang-rt-14-dev chromium chromium-driver
               python3-selenium clang-format
               pybind11-dev python3-pybind11 python3-dev python3-pytest python3-venv python3-setuptools python3-pip
               python3-numpy python3-torch emscripten nodejs node-typescript)
packages=("${package_packages[@]}")
[ "$kind" = package-deps ] || packages+=("${test_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi

case "$kind" in deps|package-deps) exit 0 ;; esac
jobs="$(nproc)"

# The sources of abseil and zstd for the WebAssembly build: Debian's, of
# the versions its packages ship (apt-get source), fetched once.
wasm_sources() {
  local dir=build/sources
  if ! ls -d "$dir"/abseil-*/CMakeLists.txt "$dir"/libzstd-*/lib/zstd.h >/dev/null 2>&1; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    if ! apt-cache showsrc abseil 2>/dev/null | grep -q '^Package:'; then
      . /etc/os-release
      echo "setup: adding a deb-src line for Debian $VERSION_CODENAME (/etc/apt/sources.list.d/gobblet-deb-src.sources)" >&2
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$VERSION_CODENAME" | $sudo tee /etc/apt/sources.list.d/gobblet-deb-src.sources >/dev/null
      $sudo apt-get update -qq >&2
    fi
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && apt-get source -qq abseil libzstd >&2 2>/dev/null)
  fi
  abseil_source="$(ls -d "$PWD/$dir"/abseil-*/ | head -1)"
  zstd_source="$(ls -d "$PWD/$dir"/libzstd-*/ | head -1)"
}

# The profile that the WebAssembly engine is optimised by (clang's
# profile-guided optimisation, docs/wasm.md "Profile-guided"): the native
# engine built by the clang that emscripten runs, instrumented, runs
# gobblet-bench; its counts tell the WebAssembly compile which branches are
# taken and what is hot. The counts are kept in the tree, as text
# (tools/wasm/bench.proftext), and made again only by hand (`tools/setup.sh
# wasm-profile`), so that a change of one source recompiles only its own
# WebAssembly objects: a new profile recompiles all of them (its checksum
# is in their flags). A function
# changed since the profile was made is compiled without counts (clang
# checks each function's hash), the others keep theirs.
wasm_clang_version() { emcc -v 2>&1 | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1; }

# Makes tools/wasm/bench.proftext from the sources as they are.
wasm_profile_make() {
  local dir=build/wasm-profile version flag
  version="$(wasm_clang_version)"
  flag="-fprofile-instr-generate=$PWD/$dir/bench.profraw"
  CC="clang-$version" CXX="clang++-$version" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DGOBBLET_BENCHMARKS=OFF -DCMAKE_CXX_FLAGS="$flag" \
    -DCMAKE_EXE_LINKER_FLAGS="$flag" -DGOBBLET_VERSION_DESCRIPTION=profile >&2
  cmake --build "$dir" -j "$jobs" --target gobblet-bench >&2
  rm -f "$dir"/bench.profraw
  LLVM_PROFILE_FILE="$PWD/$dir/bench.profraw" "$dir"/bin/gobblet-bench --quiet >&2
  "llvm-profdata-$version" merge --text -o tools/wasm/bench.proftext "$dir"/bench.profraw
  echo "setup: wrote tools/wasm/bench.proftext (commit it with the figures of docs/wasm.md)" >&2
}

# The committed profile in the compiler's indexed form, for the build
# (the same bytes from the same text: the objects' flags stay the same).
wasm_profile() {
  local version
  version="$(wasm_clang_version)"
  mkdir -p build/wasm-profile
  wasm_profile_file="$PWD/build/wasm-profile/bench.profdata"
  if ! "llvm-profdata-$version" merge -o "$wasm_profile_file.new" tools/wasm/bench.proftext; then
    echo "setup: llvm-profdata-$version cannot read tools/wasm/bench.proftext; make one with this clang: tools/setup.sh wasm-profile" >&2
    exit 1
  fi
  if cmp -s "$wasm_profile_file.new" "$wasm_profile_file"; then rm "$wasm_profile_file.new"
  else mv "$wasm_profile_file.new" "$wasm_profile_file"; fi
}

case "$kind" in
  # The build kinds are CMakePresets.json's.
  release|asan|tsan|no-boost) cmake --preset "$kind" >&2
                              cmake --build --preset "$kind" -j "$jobs" >&2 ;;
  wasm) wasm_sources
        wasm_profile
        # Debian's emscripten runs its JavaScript optimizer with the
        # system's node, which finds its modules (acorn) only here.
        export NODE_PATH=/usr/share/nodejs
        # The archives by emscripten's llvm-ar itself: emar, a Python
        # wrapper around it, took about 2 s of the machine a library (36).
        llvm_root="$(em-config LLVM_ROOT)"
        emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release \
          -DCMAKE_AR="$llvm_root/llvm-ar" -DCMAKE_RANLIB="$llvm_root/llvm-ranlib" \
          -DGOBBLET_ABSEIL_SOURCE="$abseil_source" -DGOBBLET_ZSTD_SOURCE="$zstd_source" \
          -DGOBBLET_WASM_PROFILE="$wasm_profile_file" >&2
        cmake --build build/wasm -j "$jobs" >&2 ;;
  wasm-profile) wasm_profile_make ;;
  *) echo "usage: tools/setup.sh [release|asan|tsan|no-boost|wasm|wasm-profile|deps|package-deps]" >&2; exit 2 ;;
esac
