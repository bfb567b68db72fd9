#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite:
#   0. The C++ files are formatted as .clang-format says (tools/format_check.sh).
#   1. Release build: every test (fast and slow labels).
#   1a. Without Boost (CMakePresets.json "no-boost"): the protocol library,
#      gobblet on stdin/stdout and the protocol's tests, which run there.
#   1b. The Python module (docs/python.md): `pip install --no-build-isolation .`
#      into a fresh venv, then its pytest suite against what was installed.
#   1c. The WebAssembly engine and the static site (docs/wasm.md): built
#      with Debian's emscripten, then played in headless Chromium from a
#      plain static server, with no gobblet process.
#   2. The shipped build (tools/package_check.sh): no test dependencies,
#      cmake --install + examples/cpp, the Debian packages (lintian, run
#      from their unpacked files).
#   3. ASan + UBSan build: the fast tests (but the scripts': -LE script).
#   4. ThreadSanitizer build: the tests labelled concurrency (TCP and
#      WebSocket servers, search threads, match runner processes).
#   (3 and 4 run beside the others: their builds from the start of step 1's
#   tests, at the lowest priority until those have passed, then at the
#   normal one; their tests once step 1's have passed, beside steps 1a-2,
#   whose builds, configures and packaging leave a core idle much of the
#   time.)
# Usage: tools/test.sh [--fast]   (--fast skips the slow label in step 1, and step 2)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"
# Tests at once: twice the cores. Most tests spend their time waiting (on
# servers, browsers, child processes and their deadlines): at one test per
# core the release tests kept about one core of two busy (ctest -j2: 17 min
# wall for 10.6 min of CPU); at -j4 the same tests took 7 min, all passing,
# beside other work on the machine. The sanitizer runs take one test more
# than the cores: their tests use the CPU (ASan makes each several times
# slower) and run beside the steps after the release tests, but at one a
# core they left a fifth of the machine idle once those steps had ended.
test_jobs=$((2 * jobs))
sanitizer_jobs=$((jobs + 1))
python=/usr/bin/python3  # Debian's, which sees the packages setup.sh installs
exclude=()
[ "${1:-}" = "--fast" ] && exclude=(-LE slow)
# A step's heading, with the time since the start (where the suite's time goes).
stage() { echo "== $1 ($((SECONDS / 60)) min $((SECONDS % 60)) s in)" >&2; }

tools/setup.sh deps
stage "format: .clang-format"
tools/format_check.sh

stage "release: build"
tools/setup.sh release
# Steps 3 and 4 run from here on beside the others, their output in a log
# shown at the end. Their builds run at the lowest priority: they take the
# CPU the release tests leave idle and yield it to them (from a warm ccache,
# as in a second run of the same tree, they are mostly cache hits and
# links). Their tests wait for the release tests to pass (a file says so),
# then run beside steps 1a-2. A process group of their own (set -m), so
# that an early exit stops their compilers and tests too; not a session of
# their own (setsid): the kernel's autogroups would then share the CPU
# between the sessions fairly, whatever the nice value.
# Once the release tests have passed (a file says so) a build still
# running is stopped and finished at the normal priority, beside steps
# 1a-2: beside other work of the machine at the normal priority, a build
# at the lowest one gets almost no CPU, and after new sources the
# sanitizer builds and their tests are the suite's longest chain.
sanitizer_log="$(mktemp)"
release_passed="$(mktemp -u)"
set -m
(
  stage "asan+ubsan, then tsan: build (at the lowest priority)"
  set -m  # (the build a process group of its own, which can be stopped alone)
  nice -n 19 bash -c 'tools/setup.sh asan && tools/setup.sh tsan' &
  build=$!
  set +m
  trap 'kill -- "-$build" 2>/dev/null; exit 1' TERM
  while kill -0 "$build" 2>/dev/null && [ ! -e "$release_passed" ]; do sleep 1; done
  if kill -0 "$build" 2>/dev/null; then
    stage "asan+ubsan, then tsan: the release tests have passed; the rest of the build at the normal priority"
    kill -- "-$build" 2>/dev/null || true
    wait "$build" || true
    tools/setup.sh asan && tools/setup.sh tsan || { echo "the sanitizer builds failed"; exit 1; }
  else
    wait "$build" || { echo "the sanitizer builds failed"; exit 1; }
  fi
  stage "asan+ubsan and tsan: built; waiting for the release tests to pass"
  while [ ! -e "$release_passed" ]; do sleep 1; done
  stage "asan+ubsan: fast tests"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/asan --output-on-failure -j "$sanitizer_jobs" -L fast -LE script
  stage "tsan: concurrency tests"
  TSAN_OPTIONS=halt_on_error=1:abort_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir build/tsan --output-on-failure -j "$sanitizer_jobs" -L concurrency
) >"$sanitizer_log" 2>&1 &
sanitizers=$!
set +m
stop_sanitizers() { kill -- "-$sanitizers" 2>/dev/null || true; }
trap 'stop_sanitizers; rm -f "$sanitizer_log" "$release_passed"' EXIT
stage "release: all tests"
ctest --test-dir build/release --output-on-failure -j "$test_jobs" "${exclude[@]}"
touch "$release_passed"

stage "no Boost: build"
tools/setup.sh no-boost
stage "no Boost: the protocol's tests"
# (Boost's headers may be installed: no file of that build may have read one.)
# (grep without -q reads it all: under pipefail an early exit would kill ninja and pass the check.)
if ninja -C build/no-boost -t deps | grep '/boost/' >/dev/null; then
  echo "the build without Boost read Boost headers:" >&2
  ninja -C build/no-boost -t deps | grep '/boost/' | head >&2
  exit 1
fi
ctest --preset no-boost -j "$test_jobs"

stage "python module: pip install into a fresh venv, then its pytest suite"
venv="$(mktemp -d)"
trap 'stop_sanitizers; rm -rf "$venv" "$sanitizer_log" "$release_passed"' EXIT
rm -rf build/lib.* build/temp.* build/bdist.* gobblet.egg-info  # a fresh build, as from a clone
"$python" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --no-build-isolation --no-index -q . >&2
(cd "$venv" && GOBBLET_BIN_DIR="$OLDPWD/build/release/bin" bin/python -m pytest -q -p no:cacheprovider \
  "$OLDPWD/python/tests" && bin/python -c 'import gobblet, sys; assert gobblet.__file__.startswith(sys.prefix), gobblet.__file__')

stage "wasm: build (the native profile, abseil and zstd, the engine)"
tools/setup.sh wasm
stage "wasm: the static site in headless Chromium (no gobblet process)"
site_status=0
"$python" tests/browser/static_site_test.py --site build/wasm/site --perft build/release/bin/gobblet-perft \
  --out build/wasm/browser || site_status=$?
# The game review on the static site (its other tests run against gobblet --http in ctest).
[ "$site_status" -ne 0 ] || "$python" tests/browser/board_review_test.py --bin build/release/bin/gobblet \
  --gobblet-tb build/release/bin/gobblet-tb --site build/wasm/site --out build/wasm/browser-review \
  -k static_site || site_status=$?
if [ "$site_status" -eq 77 ]; then stage "wasm: browser test skipped (see above)"
elif [ "$site_status" -ne 0 ]; then exit "$site_status"; fi

if [ "${1:-}" != "--fast" ]; then
  stage "package check"
  tools/package_check.sh
fi

stage "asan+ubsan and tsan (begun beside the steps above)"
sanitizer_status=0
wait "$sanitizers" || sanitizer_status=$?
if [ "$sanitizer_status" -ne 0 ]; then
  # (Their whole log but the lines of tests that passed: the stages, the
  # failures with their output, ctest's summaries.)
  grep -Ev '^ *Start +[0-9]+: |Test +#[0-9]+: .* Passed ' "$sanitizer_log" | tail -n 400 >&2
  echo "the sanitizer steps failed (their log above)" >&2
  exit 1
fi
grep -E '^== |tests passed|Total Test time' "$sanitizer_log" >&2
stage "all passed"
