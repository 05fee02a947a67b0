#!/usr/bin/env bash
# Checks that a built `tflite` binary's int8 GEMM micro-kernel multiplies int16 pairs with one
# instruction per row (`pmaddwd`, or `vpdpwssd` with AVX-512 VNNI) instead of the two
# multiplies and two permutes LLVM falls back to when it does not recognise the pattern in
# `pairProducts` (Sources/Kernels/PerISA/Quantization/Int8Lanes.swift). That fallback is still
# correct, so no test fails; the int8 convolutions just run about ten times slower. The
# kernels for gathered tiles (`blockPairSums` with AVX-512, `tileSums` for splatted rows in
# the portable build), the int8 depthwise kernel and the int8 FULLY_CONNECTED's dot products
# (`vectorPairProducts`) are checked the same way, and the AVX-512 float tiles for calls left in
# them. In the AVX-512 VNNI copy, whose int8 convolutions, depthwise and fully connected kernels
# multiply byte quads (`vpdpbusd`, from X86Intrinsics), those kernels are checked for that
# instruction instead. Run it after changing how the kernels call their helpers. Every
# instruction-set variant compiled into the binary (the modules Kernels, KernelsAVX2,
# KernelsAVX512, KernelsAVX512VNNI) is checked on its own copy.
#
# Usage: Benchmarks/check_codegen.sh .build/release/tflite
set -euo pipefail
binary=${1:?usage: check_codegen.sh TFLITE_BINARY}
command -v objdump >/dev/null || { echo "objdump not found (apt-get install binutils)"; exit 2; }
disassembly=$(objdump -d --no-show-raw-insn "$binary")
status=0
# check NAME SYMBOL_PATTERN: the function's pair-product and 32-bit multiply counts.
check() {
    local body pairs multiplies
    body=$(awk "/$2.*>:\$/,/^\$/" <<<"$disassembly")
    if [ -z "$body" ]; then echo "FAIL: no $1 symbol in $binary"; status=1; return; fi
    pairs=$(grep -cE '\b(v?pmaddwd|vpdpwssd)\b' <<<"$body" || true)
    multiplies=$(grep -cE '\bv?pmulld\b' <<<"$body" || true)
    # The fallback spends two 32-bit multiplies per pair product; a stray one elsewhere (LLVM
    # vectorising the AVX2 requantisation) is not it.
    if [ "$pairs" -gt 0 ] && [ "$multiplies" -lt "$pairs" ]; then
        echo "PASS: $1 has $pairs pair-product instructions"
    else
        echo "FAIL: $1 has $pairs pair-product instructions and $multiplies 32-bit multiplies"
        status=1
    fi
}
# check_quads NAME SYMBOL_PATTERN: the function multiplies byte quads and calls nothing.
check_quads() {
    local body quads calls
    body=$(awk "/$2.*>:\$/,/^\$/" <<<"$disassembly")
    if [ -z "$body" ]; then echo "FAIL: no $1 symbol in $binary"; status=1; return; fi
    quads=$(grep -cE '\bvpdpbusd\b' <<<"$body" || true)
    if [ "$quads" -gt 0 ]; then
        echo "PASS: $1 has $quads byte-quad instructions"
    else
        echo "FAIL: $1 has no byte-quad instruction"
        status=1
    fi
}
# The AVX-512 float tiles store their rows in straight-line code (`storeClamped`, or
# GEMM.storeRow for partial tiles and residuals): a call left
# in them (an out-of-line clamp, say) is another sign the inliner gave up. The calls they make
# on purpose, to their seven- and four-row tiles, are not counted.
# check_float NAME SYMBOL_PATTERN MULTIPLY_ADDS
check_float() {
    local body fmas calls
    body=$(awk "/$2.*>:\$/,/^\$/" <<<"$disassembly")
    if [ -z "$body" ]; then echo "FAIL: no $1 symbol in $binary"; status=1; return; fi
    fmas=$(grep -cE '\bvfmadd[0-9]+ps\b' <<<"$body" || true)
    calls=$(grep -E '\bcall\b' <<<"$body" | grep -vcE '__stack_chk_fail|ShortRows' || true)
    if [ "$fmas" -ge "$3" ] && [ "$calls" -eq 0 ]; then
        echo "PASS: $1 has $fmas fused multiply-adds and no calls"
    else
        echo "FAIL: $1 has $fmas fused multiply-adds (at least $3 expected) and $calls calls"
        status=1
    fi
}
for module in Kernels KernelsAVX2 KernelsAVX512 KernelsAVX512VNNI; do
    # Swift mangles a module name as its length and the name: s7Kernels, s11KernelsAVX2, ...
    m="s${#module}${module}"
    grep -q "${m}8Int8GEMMO9blockSums.*>:\$" <<<"$disassembly" || continue
    echo "== $module"
    check Int8GEMM.blockSums "${m}8Int8GEMMO9blockSums"
    # Gathered tiles have a kernel of their own: two blocks at once with AVX-512, splatted rows
    # in the baseline (AVX2 hands them to blockSums).
    if grep -q "${m}8Int8GEMMO13blockPairSums.*>:\$" <<<"$disassembly"; then check Int8GEMM.blockPairSums "${m}8Int8GEMMO13blockPairSums"; fi
    if [ "$module" = Kernels ]; then check Int8GEMM.tileSums "${m}8Int8GEMMO8tileSums"; fi
    if [ "$module" = KernelsAVX512VNNI ]; then
        check_quads Int8QuadGEMM.blockPairSums "${m}12Int8QuadGEMMO13blockPairSums"
        check_quads Int8QuadGEMM.blockSums "${m}12Int8QuadGEMMO9blockSums"
        check_quads 'the int8 and hybrid depthwise rows' "${m}13depthwiseRows"
        check_quads 'the int8 fully connected channels' "${m}.*fullyConnectedInt8Channels"
    else
        check 'the int8 and hybrid depthwise rows' "${m}13depthwiseRows"
        check 'the int8 fully connected channels' "${m}.*fullyConnectedInt8Channels"
    fi
    if [[ $module == KernelsAVX512* ]]; then
        check_float 'GEMM.tilePanels (2 panels)' "${m}4GEMMO10tilePanels_.*Two[A-Z]0O_s6SIMD16VySfGTt" 16
        check_float 'GEMM.tilePanels (3 panels)' "${m}4GEMMO10tilePanels_.*Three[A-Z]0O_s6SIMD16VySfGTt" 24
        # A last panel of at most 8 columns in half vectors: as many multiply-adds, half of them 256-bit.
        check_float 'GEMM.tilePanels (1.5 panels)' "${m}4GEMMO10tilePanels_.*Two[A-Z]0O_s5SIMD8VySfGTt" 16
        check_float 'GEMM.tilePanels (2.5 panels)' "${m}4GEMMO10tilePanels_.*Three[A-Z]0O_s5SIMD8VySfGTt" 24
        check_float 'GEMM.tilePanel (16 lanes)' "${m}4GEMMO9tilePanel.*s6SIMD16VySfG_Tt" 8
        check_float 'GEMM.tilePanel (8 lanes)' "${m}4GEMMO9tilePanel.*s5SIMD8VySfG_Tt" 8
    fi
done
exit $status
