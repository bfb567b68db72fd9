#!/usr/bin/env bash
# Builds gobblet as it is shipped and checks it from its installed files:
#   1. configures with -DBUILD_TESTING=OFF and GoogleTest / Google Benchmark
#      hidden from CMake (only the run-time dependencies), for the default
#      tier (x86-64-v2) with the x86-64 baseline and x86-64-v3 (AVX2: the
#      net's evaluation twice as fast) shipped beside it
#      (GOBBLET_PACKAGE_TIERS, cmake/program_tiers.cmake), and builds;
#   2. cmake --install into a scratch prefix; builds examples/cpp against the
#      installed CMake package and runs its programs;
#   3. cpack -G DEB (gobblet without Open MPI, gobblet-mpi with it, and
#      libgobblet-dev); gobblet's Depends must name no MPI, and the recursive
#      dependency count of each is printed; lintian must report no error and no hardening-* tag
#      (the build has GOBBLET_HARDENING, Debian's flags); the packages are unpacked
#      (dpkg -x) into a scratch root, and the packaged gobblet (--version, a
#      UGI handshake and search, --http serving the page, SIGTERM) and
#      gobblet-tb (build + probe) run from there, through the tier launcher
#      and with GOBBLET_TIER=x86-64, and gobblet-tb under mpirun -np 2 runs
#      gobblet-mpi's build (and without it refuses, naming the package);
#      each tier's programs hold only their
#      tier's instructions; the examples build against the unpacked
#      libgobblet-dev too.
# The packages are left in build/package/ (README: installing).
# Usage: tools/package_check.sh   (installs what is missing first: tools/setup.sh package-deps,
# the build's and the packaging's tools only, none of the tests')
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir="$PWD"
build=build/package
scratch="$(mktemp -d "${TMPDIR:-/tmp}/gobblet-package.XXXXXX")"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
fail() { echo "package check: $*" >&2; exit 1; }
step() { echo "== package: $* ($SECONDS s in)" >&2; }

tools/setup.sh package-deps
step "configure without the test dependencies, build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON \
  -DGOBBLET_ARCH=x86-64-v2 "-DGOBBLET_PACKAGE_TIERS=x86-64;x86-64-v3" -DGOBBLET_HARDENING=ON \
  -DGOBBLET_MPI=OFF -DGOBBLET_PACKAGE_MPI=ON >&2
cmake --build "$build" -j "$(nproc)" >&2

# examples_against PREFIX: builds examples/cpp with find_package(gobblet) from
# PREFIX and runs its programs (perft of a known position, a tablebase probe).
examples_against() {
  local prefix="$1" out="$scratch/examples-$(basename "$1")"
  cmake -S examples/cpp -B "$out" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >&2
  cmake --build "$out" >&2
  local nodes
  nodes="$("$out/perft_count" gobblet startpos 4)"
  [ "$nodes" = 406560 ] || fail "perft_count gobblet startpos 4 printed '$nodes', not 406560"
  nodes="$("$out/perft_count" gobblers "[sL]2/1M1/3 2" 3)"
  [ "$nodes" = 16399 ] || fail "perft_count gobblers '[sL]2/1M1/3 2' 3 printed '$nodes', not 16399"
  "$out/probe_tablebase" "$scratch/tictactoe.gtb" > "$scratch/probe.txt"
  head -1 "$scratch/probe.txt" | grep -q ": draw$" || fail "probe_tablebase: $(head -1 "$scratch/probe.txt")"
  [ "$(grep -c '^  ' "$scratch/probe.txt")" = 9 ] || fail "probe_tablebase did not rank the 9 first moves"
  "$out/search_position" gobblet startpos 200 X@b2 > "$scratch/search.txt"
  grep -q '^depth 1 score ' "$scratch/search.txt" || fail "search_position printed no line: $(head -3 "$scratch/search.txt")"
  tail -1 "$scratch/search.txt" | grep -q '^bestmove [SMLX]' || fail "search_position: $(tail -1 "$scratch/search.txt")"
  # The same program built with pkg-config alone (gobblet-protocol.pc and what it requires).
  local pc_dir
  pc_dir="$(dirname "$(find "$prefix" -name gobblet-protocol.pc | head -1)")"
  [ -f "$pc_dir/gobblet-rules.pc" ] || fail "no pkg-config files under $prefix"
  # In Debian's multiarch folder (lib/x86_64-linux-gnu), and each file's flags without repeats.
  local triplet
  triplet="$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
  [ "$pc_dir" = "$prefix/lib/$triplet/pkgconfig" ] || fail "pkg-config files in $pc_dir, not $prefix/lib/$triplet/pkgconfig"
  local pc flags
  for pc in "$pc_dir"/gobblet-*.pc; do
    flags="$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags "$(basename "$pc" .pc)")"
    [ -z "$(tr ' ' '\n' <<<"$flags" | grep -v '^$' | sort | uniq -d)" ] ||
      fail "pkg-config --cflags $(basename "$pc" .pc) repeats a flag: $flags"
  done
  # shellcheck disable=SC2046
  g++ examples/cpp/search_position.cpp $(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs gobblet-protocol) \
    -o "$out/search_position_pc" >&2 || fail "examples/cpp/search_position.cpp does not build with pkg-config"
  "$out/search_position_pc" gobblers startpos 100 | tail -1 | grep -q '^bestmove ' ||
    fail "search_position built with pkg-config did not answer"
}

step "cmake --install into a scratch prefix; examples/cpp against it"
cmake --install "$build" --prefix "$scratch/prefix" >&2
for program in gobblet gobblet-tb gobblet-match gobblet-perft gobblet-bench gobblet-tune gobblet-strength gobblet-datagen \
  gobblet-prove gobblet-puzzles; do
  [ -x "$scratch/prefix/bin/$program" ] || fail "cmake --install put no bin/$program"
done
"$scratch/prefix/bin/gobblet-tb" build tictactoe --out "$scratch/tictactoe.gtb" >&2
examples_against "$scratch/prefix"
# Where Boost is not found, find_package(gobblet) still gives the libraries
# below the server, and asking for the server component fails saying why.
cmake -S examples/cpp -B "$scratch/examples-no-boost" -G Ninja -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON >&2 || fail "find_package(gobblet) failed where Boost is not found"
mkdir -p "$scratch/needs-server"
printf '%s\n' 'cmake_minimum_required(VERSION 3.22)' 'project(needs_server LANGUAGES CXX)' \
  'find_package(gobblet CONFIG REQUIRED COMPONENTS server)' > "$scratch/needs-server/CMakeLists.txt"
cmake -S "$scratch/needs-server" -B "$scratch/needs-server/with-boost" -DCMAKE_PREFIX_PATH="$scratch/prefix" >&2 ||
  fail "find_package(gobblet COMPONENTS server) failed with Boost installed"
if cmake -S "$scratch/needs-server" -B "$scratch/needs-server/no-boost" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON > "$scratch/needs-server.txt" 2>&1; then
  fail "find_package(gobblet COMPONENTS server) succeeded where Boost is not found"
fi
grep -q 'gobblet::server needs Boost' "$scratch/needs-server.txt" ||
  fail "find_package(gobblet COMPONENTS server) without Boost did not say why: $(cat "$scratch/needs-server.txt")"

step "cpack -G DEB, lintian"
(cd "$build" && rm -f ./*.deb && cpack -G DEB >&2)
debs=("$build"/gobblet_*.deb "$build"/gobblet-mpi_*.deb "$build"/libgobblet-dev_*.deb)
for deb in "${debs[@]}"; do [ -f "$deb" ] || fail "cpack made no $deb"; done
if command -v lintian >/dev/null; then
  lintian --info "${debs[@]}" > "$scratch/lintian.txt" 2>&1 || true
  grep -v '^I: ' "$scratch/lintian.txt" >&2 || true
  if grep -q '^E: ' "$scratch/lintian.txt"; then fail "lintian reports errors"; fi
  # Every warning but the one a package outside Debian cannot avoid (its
  # first changelog entry closes no "intent to package" bug).
  if grep '^W: ' "$scratch/lintian.txt" | grep -v ' initial-upload-closes-no-bugs ' >&2; then
    fail "lintian reports warnings (above)"
  fi
  # (informational tags, so shown only with --info; every binary had all three before)
  if grep ': hardening-' "$scratch/lintian.txt" >&2; then fail "lintian: binaries without Debian's hardening"; fi
else
  fail "lintian is missing (tools/setup.sh installs it)"
fi

step "gobblet needs no Open MPI: its recursive dependencies"
# The packages apt would install with it (Depends, recursively, without
# recommends), counted with apt-cache from the .deb's own Depends field.
recursive_dependencies() {
  local names
  names="$(dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | grep -v '^$')"
  # shellcheck disable=SC2086
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances $names | grep -v '^ ' | sed 's/^<\(.*\)>$/\1/' | sort -u | wc -l
}
gobblet_deb="$(ls "$build"/gobblet_*.deb)"
if dpkg-deb -f "$gobblet_deb" Depends | grep -qi 'mpi'; then
  fail "the gobblet package depends on MPI: $(dpkg-deb -f "$gobblet_deb" Depends)"
fi
echo "gobblet: $(recursive_dependencies "$gobblet_deb") packages with its dependencies;" \
  "gobblet-mpi: $(recursive_dependencies "$(ls "$build"/gobblet-mpi_*.deb)");" \
  "libgobblet-dev: $(recursive_dependencies "$(ls "$build"/libgobblet-dev_*.deb)") (apt-cache depends --recurse)" >&2

step "dpkg -x into a scratch root; the packaged programs run from there"
for deb in "${debs[@]}"; do dpkg -x "$deb" "$scratch/root"; done
python3 tests/tools/doc_links_check.py "$scratch/root/usr/share/doc/gobblet" >&2 ||
  fail "a link of the installed docs (/usr/share/doc/gobblet) is broken"
bin="$scratch/root/usr/bin"
for page in gobblet gobblet-tb gobblet-match; do
  [ -f "$scratch/root/usr/share/man/man6/$page.6.gz" ] || [ -f "$scratch/root/usr/share/man/man6/$page.6" ] ||
    fail "the package has no man page for $page"
done
libexec="$scratch/root/usr/libexec/gobblet"
python3 tests/portable/instruction_set_check.py --tier x86-64 "$libexec"/x86-64/* "$libexec"/mpi/* \
  "$libexec/gobblet-tier-launcher" >&2 || fail "the x86-64 and MPI programs hold instructions beyond x86-64"
for tier in x86-64-v2 x86-64-v3; do
  python3 tests/portable/instruction_set_check.py --tier $tier "$libexec/$tier"/* >&2 ||
    fail "the $tier programs hold instructions beyond $tier"
done
# The best tier shipped that this processor runs: each needs what the
# psABI lists for it (its /proc/cpuinfo flags and its CPUID: a kernel may
# leave out a flag the processor has).
best="$(python3 tests/portable/instruction_set_check.py --best-tier)"
release="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")"
[ -n "$release" ] || fail "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
# The programs' version: the release and the commit built (cmake/version.cmake), as this tree says now.
built="$(cmake -DSOURCE_DIR="$root_dir" -P cmake/version.cmake)"
[[ "$built" == "$release+"* ]] || fail "cmake/version.cmake says '$built', not a version of $release"
version="$("$bin/gobblet" --version)"
[ "$version" = "gobblet $built ($best)" ] || fail "gobblet --version through the launcher: '$version', not the $best build"
version="$(GOBBLET_TIER=x86-64 "$bin/gobblet-tb" --version)"
[ "$version" = "gobblet-tb $built (x86-64)" ] || fail "GOBBLET_TIER=x86-64 gobblet-tb --version: '$version'"
session_tiers=("" x86-64)
[ $best = x86-64 ] || session_tiers+=(x86-64-v2)
for tier in "${session_tiers[@]}"; do
  printf 'ugi\nisready\nposition startpos moves X@b2\ngo depth 4\nquit\n' | GOBBLET_TIER=$tier "$bin/gobblet" \
    > "$scratch/session.txt"
  grep -qF "id name Gobblet $built (${tier:-$best})" "$scratch/session.txt" ||
    fail "id name does not name the ${tier:-$best} build: $(grep '^id name' "$scratch/session.txt")"
  for line in ugiok readyok 'bestmove [SMLXa-d]'; do
    grep -q "^$line" "$scratch/session.txt" || fail "the packaged engine (${tier:-$best}) did not answer $line"
  done
done
"$bin/gobblet-tb" build tictactoe --out "$scratch/root-tictactoe.gtb" >&2
"$bin/gobblet-tb" probe "$scratch/root-tictactoe.gtb" "3/3/3 1" | grep -q draw || fail "gobblet-tb probe: no draw"

# Under mpirun, the launcher runs gobblet-mpi's build: the same file as one process.
mpirun=(mpirun -np 2 --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
"${mpirun[@]}" "$bin/gobblet-tb" build tictactoe --out "$scratch/mpi-tictactoe.gtb" >&2 ||
  fail "mpirun -np 2 gobblet-tb build (the gobblet-mpi package) failed"
cmp -s "$scratch/mpi-tictactoe.gtb" "$scratch/root-tictactoe.gtb" ||
  fail "mpirun -np 2 gobblet-tb build wrote another file than one process"
# Without gobblet-mpi, the gobblet package's own build refuses to run as one rank of several.
mv "$libexec/mpi" "$scratch/mpi-programs"
if "${mpirun[@]}" "$bin/gobblet-tb" build tictactoe --out "$scratch/no-mpi.gtb" > "$scratch/no-mpi.txt" 2>&1; then
  fail "gobblet-tb without gobblet-mpi ran under mpirun -np 2"
fi
grep -q 'gobblet-mpi' "$scratch/no-mpi.txt" || fail "gobblet-tb under mpirun without MPI did not name gobblet-mpi: $(cat "$scratch/no-mpi.txt")"
mv "$scratch/mpi-programs" "$libexec/mpi"

"$bin/gobblet" --http 127.0.0.1:0 2> "$scratch/http.txt" &
server_pid=$!
url=""
for _ in $(seq 100); do
  url="$(grep -o 'http://127.0.0.1:[0-9]*/' "$scratch/http.txt" || true)"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || fail "gobblet --http did not say where it serves: $(cat "$scratch/http.txt")"
python3 - "$url" <<'PY' || fail "the packaged gobblet --http did not serve the page"
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as reply:
    page = reply.read().decode()
sys.exit(0 if reply.status == 200 and "<html" in page.lower() else 1)
PY
kill -TERM "$server_pid"
wait "$server_pid" || fail "gobblet --http did not exit cleanly on SIGTERM"
server_pid=""

step "examples/cpp against the unpacked libgobblet-dev"
examples_against "$scratch/root/usr"
echo "package check: passed (${debs[*]})" >&2
