#!/usr/bin/env bash
# Counts heap allocations per `Interpreter.invoke()` in the steady state, for each model and
# thread count, under valgrind: DHAT records every heap block with its call stack during
# `tflite bench MODEL --runs 1` with 1 and with 6 warm-up invocations; the blocks allocated
# while the interpreter runs its plan or on the thread pool's workers are counted, and the
# difference over 5 is what one invoke allocates after warm-up. (Counting the whole process
# would also count the tool printing its timings, whose allocations vary with the digits.)
# The design asks for 0 everywhere; `tflite bench --count-allocations` is the fast check.
#
# Usage: Scripts/count_allocations.sh [--binary PATH] [--threads "1 2"] [--expect-zero] [MODEL...]
#   --binary PATH   a built `tflite` with symbols (default: build the release CLI and use it)
#   --threads LIST  thread counts to measure (default "1 2")
#   --expect-zero   exit 1 if any model allocates in the steady state
#   MODEL...        default: the real models of the corpus and Models/efficientnet_lite0
# valgrind is installed with apt-get when missing; python3 reads DHAT's output. A cell takes
# seconds (valgrind runs the kernels about 50 times slower); the default table, minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=""
threads="1 2"
expect_zero=0
models=()
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --expect-zero) expect_zero=1; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) models+=("$1"); shift ;;
    esac
done
if [ ${#models[@]} -eq 0 ]; then
    corpus=Tests/Fixtures/corpus/models
    models=(
        "$corpus/mobilenet_v1_float.tflite"
        "$corpus/mobilenet_v2_float.tflite"
        "$corpus/mobilenet_v2_fp16.tflite"
        "$corpus/mobilenet_v2_dynamic.tflite"
        "$corpus/mobilenet_v2_int8.tflite"
        "$corpus/mobilenet_v2_uint8io.tflite"
        Models/efficientnet_lite0.tflite
        "$corpus/face_detection_short_range.tflite"
        "$corpus/face_detection_full_range_sparse.tflite"
        "$corpus/palm_detection_lite.tflite"
        "$corpus/hand_landmark_lite.tflite"
        "$corpus/selfie_segmentation.tflite"
        "$corpus/ssd_detector_float.tflite"
        "$corpus/ssd_detector_int8.tflite"
    )
fi

if ! command -v valgrind >/dev/null; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq && $sudo apt-get install -y -qq valgrind >/dev/null
fi
if [ -z "$binary" ]; then
    swift build -c release --product tflite >&2
    binary=.build/release/tflite
fi
# Allocations are attributed by symbol name, so the binary must keep its symbols.
if ! nm "$binary" 2>/dev/null | grep SubgraphExecutorC6invoke >/dev/null; then
    echo "error: $binary has no symbols (SubgraphExecutor.invoke not found)" >&2
    exit 2
fi

# The heap blocks allocated inside SubgraphExecutor.invoke() (which Interpreter.invoke() runs;
# the latter may be inlined into the tool) or on a pool worker thread during one bench run,
# from DHAT's per-stack totals; nothing when the run fails.
allocations() {
    local out
    out=$(mktemp)
    if valgrind --tool=dhat --num-callers=64 --dhat-out-file="$out" \
        "$binary" bench "$1" --runs 1 --warmup "$2" --threads "$3" >/dev/null 2>&1; then
        python3 - "$out" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
frames = profile["ftbl"]
inside = lambda f: "SubgraphExecutorC6invoke" in frames[f] or "_poolWorkerMain" in frames[f]
print(sum(pp["tbk"] for pp in profile["pps"] if any(inside(f) for f in pp["fs"])))
PY
    fi
    rm -f "$out"
}

printf '%-40s' "model"
for t in $threads; do printf '%12s' "$t thread$([ "$t" -gt 1 ] && echo s)"; done
echo
failed=0
for model in "${models[@]}"; do
    printf '%-40s' "$(basename "$model" .tflite)"
    for t in $threads; do
        one=$(allocations "$model" 1 "$t")
        six=$(allocations "$model" 6 "$t")
        if [ -z "$one" ] || [ -z "$six" ]; then
            printf '%12s' "error"; failed=1; continue
        fi
        per=$(awk -v a="$one" -v b="$six" 'BEGIN { d = (b - a) / 5; printf (d == int(d) ? "%d" : "%.1f"), d }')
        printf '%12s' "$per"
        [ "$per" != 0 ] && [ "$expect_zero" -eq 1 ] && failed=1
    done
    echo
done
exit "$failed"
