#!/usr/bin/env bash
# Sets up and builds gobblet if needed, then runs the engine on stdin/stdout
# (UGI/UCI). Any arguments are passed to the engine (e.g. --listen 127.0.0.1:4000).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh release
exec build/release/bin/gobblet "$@"
