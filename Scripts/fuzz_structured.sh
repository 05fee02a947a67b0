#!/usr/bin/env bash
# Long run of the structure-aware fuzzer (StructuredFuzzTests): the small corpus and peer
# models with their trusted fields rewritten (shapes, types, buffer and tensor indices,
# operands, opcodes, quantisation, options, small constants), each taken through load,
# allocate and invoke.
# Every variant must run or throw. A crash fails the run; the variant that crashed is left in
# $TFLITE_FUZZ_SAVE (default /tmp/fuzz-variant.tflite) for `tflite bench FILE --runs 1`.
#
# Usage: Scripts/fuzz_structured.sh [ITERATIONS] [SEED]
#   ITERATIONS  variants to try (default 100000)
#   SEED        generator seed (default: the suite's fixed seed)
#   TFLITE_FUZZ_TIMEOUT  seconds before the run counts as hung (default 3600)
set -euo pipefail
cd "$(dirname "$0")/.."

export TFLITE_FUZZ_ITERATIONS="${1:-100000}"
if [ $# -ge 2 ]; then export TFLITE_FUZZ_SEED="$2"; fi
export TFLITE_FUZZ_SAVE="${TFLITE_FUZZ_SAVE:-/tmp/fuzz-variant.tflite}"

swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path .build/tests
status=0
timeout "${TFLITE_FUZZ_TIMEOUT:-3600}" swift test -c release -Xswiftc -enable-testing --scratch-path .build/tests --skip-build \
    --filter StructuredFuzzTests/mutatedModelsRunOrThrow || status=$?
case "$status" in
    0) echo "fuzz_structured: $TFLITE_FUZZ_ITERATIONS variants, no crash, no hang" ;;
    124) echo "fuzz_structured: HANG: no result within ${TFLITE_FUZZ_TIMEOUT:-3600} s; variant in $TFLITE_FUZZ_SAVE" >&2 ;;
    *) echo "fuzz_structured: FAILED (status $status); the last variant is in $TFLITE_FUZZ_SAVE" >&2 ;;
esac
exit "$status"
