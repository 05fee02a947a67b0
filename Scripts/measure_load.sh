#!/usr/bin/env bash
# Measures loading a model with the release `tflite` build: load time and resident memory
# before and after (VmRSS, and its private RssAnon and file-backed RssFile parts). A
# zero-copy load adds little RssAnon: the weights stay in the mapped file.
#
# Usage: Scripts/measure_load.sh [MODEL] [RUNS]
#   MODEL  default Models/efficientnet_lite0.tflite (5.4 MB)
#   RUNS   default 5 (separate processes, so every load is a first load)
set -euo pipefail
cd "$(dirname "$0")/.."

model="${1:-Models/efficientnet_lite0.tflite}"
runs="${2:-5}"
swift build -c release --product tflite
for _ in $(seq "$runs"); do
    .build/release/tflite inspect "$model" --stats | tail -n 2 | tr '\n' ' '
    echo
done
