#!/usr/bin/env bash
# Long byte-level fuzz run: mutated, truncated and spliced variants of the corpus models
# (ModelFuzzTests), each taken through load, allocate and invoke; every stage must run or throw.
# A crash fails the test process (the variant is left in $TFLITE_FUZZ_SAVE if set); a hang
# trips the timeout.
#
# Usage: Scripts/fuzz_models.sh [ITERATIONS] [SEED]
#   ITERATIONS  variants to try (default 100000)
#   SEED        generator seed (default: the suite's fixed seed)
#   TFLITE_FUZZ_TIMEOUT  seconds before the run counts as hung (default 1800)
set -euo pipefail
cd "$(dirname "$0")/.."

iterations="${1:-100000}"
export TFLITE_FUZZ_ITERATIONS="$iterations"
if [ $# -ge 2 ]; then export TFLITE_FUZZ_SEED="$2"; fi

# Testability is on so that test targets using @testable imports build in release too.
swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path .build/tests
status=0
timeout "${TFLITE_FUZZ_TIMEOUT:-1800}" swift test -c release -Xswiftc -enable-testing --scratch-path .build/tests --skip-build --filter ModelFuzzTests || status=$?
case "$status" in
    0) echo "fuzz_models: $iterations variants, no crash, no hang" ;;
    124) echo "fuzz_models: HANG: no result within ${TFLITE_FUZZ_TIMEOUT:-1800} s" >&2 ;;
    *) echo "fuzz_models: FAILED (status $status): a crash or a failed expectation, see above" >&2 ;;
esac
exit "$status"
