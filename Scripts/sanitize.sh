#!/usr/bin/env bash
# The memory-safety suites under a sanitizer, each sanitizer in its own scratch path
# (.build/asan, .build/tsan) so the plain build is untouched. Run before every release.
#
#   address  AddressSanitizer over the LiteRT conformance cases, the hostile-model and
#            hostile-input suites, and the byte-level (ModelFuzzTests) and structure-aware
#            (StructuredFuzzTests) fuzzers with ITERATIONS variants each (default 3000; the
#            release check is 100000). Any report stops the run with a stack trace.
#   thread   ThreadSanitizer over several interpreters sharing one model on several threads
#            (SharedModelConcurrencyTests), the kernels' worker pool and the concurrent
#            downloads into one cache.
#
# Usage: Scripts/sanitize.sh address|thread [ITERATIONS] [SEED]
# The first build of each takes a few minutes; ASan runs the kernels about 3 times slower.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
case "$mode" in
    address)
        filter='ConformanceTests|HostileGraphTests|QuantizedHostileParametersTests|ExecutorGraphTests|InterpreterHostileInputTests|QuantizationValidationTests|InvocationLimitTests|FlatBufferHostileTests|ModelValidationTests|ModelFuzzTests|StructuredFuzzTests'
        export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=0}" ;;
    thread)
        filter='SharedModelConcurrencyTests|ThreadPoolTests|ModelConcurrencyTests|CacheLockTests'
        export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}" ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
esac
export TFLITE_FUZZ_ITERATIONS="${2:-3000}"
if [ $# -ge 3 ]; then export TFLITE_FUZZ_SEED="$3"; fi

scratch=".build/${mode:0:1}san"
flags=(-c release -Xswiftc -enable-testing --sanitize="$mode" --scratch-path "$scratch")
swift build "${flags[@]}" --build-tests
swift test "${flags[@]}" --skip-build --filter "$filter" 2>&1 | tee "$scratch/sanitize.log" \
    | grep -E 'Fuzz(Tests)?: |Test run with|✘|ERROR: (Address|Thread)Sanitizer|WARNING: ThreadSanitizer|SUMMARY' || true
if grep -qE 'ERROR: AddressSanitizer|WARNING: ThreadSanitizer|✘' "$scratch/sanitize.log" \
    || ! grep -q 'Test run with .* passed' "$scratch/sanitize.log"; then
    echo "sanitize.sh $mode: FAILED; the full log is $scratch/sanitize.log" >&2
    exit 1
fi
echo "sanitize.sh $mode: clean ($TFLITE_FUZZ_ITERATIONS fuzz variants per fuzzer)"
