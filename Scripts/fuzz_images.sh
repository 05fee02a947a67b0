#!/usr/bin/env bash
# Long mutation-fuzzing run of the image decoders (PNG, JPEG, PNM).
#
# Runs the fixed-seed fuzz suite (Tests/ImagingTests/FuzzTests.swift) in a release build with
# ITERATIONS mutated files per format (default 100000) plus as many random-byte inputs.
# Any crash or trap fails the test process; a hang is caught by the time limit.
#
# Usage: Scripts/fuzz_images.sh [ITERATIONS] [TIME_LIMIT_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
iterations="${1:-100000}"
limit="${2:-7200}"

# -enable-testing: other test targets use @testable imports, which release builds refuse otherwise.
flags=(-c release -Xswiftc -enable-testing --scratch-path .build/tests)
swift build "${flags[@]}" --build-tests
echo "fuzzing: ${iterations} mutated files per format, time limit ${limit}s"
start=$(date +%s)
set +e
IMAGING_FUZZ_ITERATIONS="$iterations" timeout "$limit" \
    swift test "${flags[@]}" --skip-build --filter 'ImagingTests.FuzzTests' 2>&1 | tee /tmp/fuzz_images.log
status=${PIPESTATUS[0]}
set -e
end=$(date +%s)
echo "exit status ${status} after $((end - start))s"
grep '^fuzz ' /tmp/fuzz_images.log || true
if [ "$status" -eq 124 ]; then echo "FAIL: time limit reached (possible hang)"; exit 1; fi
if [ "$status" -ne 0 ]; then echo "FAIL: crash or failed expectation"; exit 1; fi
echo "OK: no crash, no hang"
