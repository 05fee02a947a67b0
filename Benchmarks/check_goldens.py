#!/usr/bin/env python3
"""Checks a `tflite` binary against the corpus goldens through `tflite run`.

The conformance tests run a test build; this script checks the exact binary that is
benchmarked (with TFLITE_ISA set in the environment, a lower variant of its kernels)
on every corpus case whose model has only float32 outputs, or on the cases named
with --cases.

Usage: python3 Benchmarks/check_goldens.py .build/release/tflite [--cases PREFIX ...]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "Tests", "Fixtures", "corpus")


def within(actual, golden, tolerance):
    kind = tolerance["kind"]
    if actual.shape != golden.shape:
        return False, f"shape {actual.shape} != {golden.shape}"
    if kind == "float":
        diff = np.abs(actual.astype(np.float64) - golden.astype(np.float64))
        limit = tolerance["atol"] + tolerance["rtol"] * np.abs(golden.astype(np.float64))
        return bool(np.all(diff <= limit)), f"max abs diff {float(diff.max()) if diff.size else 0:.3g}"
    if kind == "quantized":
        diff = np.abs(actual.astype(np.int64) - golden.astype(np.int64))
        worst = int(diff.max()) if diff.size else 0
        return worst <= tolerance["max_abs_diff_units"], f"max diff {worst} units"
    return bool(np.array_equal(actual, golden)), "exact"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--cases", nargs="*", help="case name prefixes (default: cases of real float models)")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    manifest = json.load(open(os.path.join(CORPUS, "manifest.json")))
    if args.cases:
        cases = [c for c in manifest if any(c["case"].startswith(p) for p in args.cases)]
    else:
        cases = [c for c in manifest if not c["model"].startswith("models/zoo_")
                 and all(o["dtype"] == "float32" for o in c["outputs"]) and not c.get("signature")]
    failures = 0
    for case in cases:
        with tempfile.TemporaryDirectory() as out:
            command = [args.binary, "run", os.path.join(CORPUS, case["model"]), "--output-dir", out,
                       "--threads", str(args.threads)]
            for i in case["inputs"]:
                command += ["--input", os.path.join(CORPUS, i["file"])]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                print(f"SKIP {case['case']}: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
                continue
            verdicts = []
            ok = True
            for k, o in enumerate(case["outputs"]):
                good, detail = within(np.load(os.path.join(out, f"out{k}.npy")),
                                      np.load(os.path.join(CORPUS, o["file"])), o["tolerance"])
                ok &= good
                verdicts.append(detail)
            failures += not ok
            print(f"{'PASS' if ok else 'FAIL'} {case['case']}: {'; '.join(verdicts)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
