#!/usr/bin/env bash
# Checks that a built `tflite` binary's int8 GEMM micro-kernel multiplies int16 pairs with one
# instruction per row (`pmaddwd`, or `vpdpwssd` with AVX-512 VNNI) instead of the two
# multiplies and two permutes LLVM falls back to when it does not recognise the pattern in
# `pairProducts` (Sources/Kernels/Quantization/Int8Lanes.swift). That fallback is still
# correct, so no test fails; the int8 convolutions just run about ten times slower. Run it
# after changing how the int8 kernels call `pairProducts`.
#
# Usage: Benchmarks/check_codegen.sh .build-native512/release/tflite
set -euo pipefail
binary=${1:?usage: check_codegen.sh TFLITE_BINARY}
command -v objdump >/dev/null || { echo "objdump not found (apt-get install binutils)"; exit 2; }
tile=$(objdump -d --no-show-raw-insn "$binary" | awk '/Int8GEMMO9blockSums.*>:$/,/^$/')
[ -n "$tile" ] || { echo "FAIL: no Int8GEMM.blockSums symbol in $binary"; exit 1; }
pairs=$(grep -cE '\b(v?pmaddwd|vpdpwssd)\b' <<<"$tile" || true)
multiplies=$(grep -cE '\bv?pmulld\b' <<<"$tile" || true)
if [ "$pairs" -gt 0 ] && [ "$multiplies" -eq 0 ]; then
    echo "PASS: Int8GEMM.blockSums has $pairs pair-product instructions"
else
    echo "FAIL: Int8GEMM.blockSums has $pairs pair-product instructions and $multiplies 32-bit multiplies"
    exit 1
fi
