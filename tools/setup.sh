#!/usr/bin/env bash
# Installs what gobblet needs from Debian's packages (only the missing ones)
# and builds it. Usage: tools/setup.sh [release|asan|tsan|deps]   (default: release;
# deps installs only).
# tsan builds only what the tests labelled "concurrency" need.
# Build output goes to stderr so that the engine's stdout stays clean.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-release}"

packages=(g++ cmake ninja-build libboost-dev libabsl-dev googletest libgtest-dev libbenchmark-dev libzstd-dev
          clang libclang-rt-14-dev chromium chromium-driver python3-selenium
          dpkg-dev lintian
          pybind11-dev python3-pybind11 python3-dev python3-pytest python3-venv python3-setuptools python3-pip)
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

[ "$kind" = deps ] && exit 0
jobs="$(nproc)"
case "$kind" in
  release) cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >&2 ;;
  asan) cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGOBBLET_SANITIZE=ON \
          -DGOBBLET_BENCHMARKS=OFF >&2 ;;
  tsan) cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGOBBLET_SANITIZE_THREAD=ON \
          -DGOBBLET_BENCHMARKS=OFF >&2 ;;
  *) echo "usage: tools/setup.sh [release|asan|tsan|deps]" >&2; exit 2 ;;
esac
targets=()
[ "$kind" = tsan ] && targets=(--target concurrency_tests)
cmake --build "build/$kind" -j "$jobs" "${targets[@]}" >&2
