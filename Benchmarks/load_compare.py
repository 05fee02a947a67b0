#!/usr/bin/env python3
"""Compares the time to load and prepare a model: `tflite bench` (its `load_ms` plus
`prepare_ms`: read and validate the file, plan memory, pack weights, fold constants) against
LiteRT with its default XNNPACK delegate (`Interpreter(model_path, num_threads=1)` plus
`allocate_tensors()`, which creates the delegate's runtime and packs its weights).

Every measurement is a fresh process, timed inside the process, so neither side counts its
start-up (the dynamic linker, Python's imports): the first load of a model, as a tool or a
service starting sees it. The engines alternate on every model in every repetition; the
table gives the median over the repetitions, and beside it LiteRT's later loads of the same
model in the same process.

Usage (from the package root):

    python3 Benchmarks/load_compare.py --tflite .build/release/tflite --reps 7
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import CORPUS, DEFAULT_MODELS, cpu_name, load_average  # noqa: E402

# The first load of the process is what the table compares; the median of four more loads in
# the same process (warm caches, XNNPACK initialised) is printed beside it for reference.
LITERT = """
import statistics, sys, time
from ai_edge_litert.interpreter import Interpreter
times = []
for _ in range(5):
    start = time.perf_counter()
    interpreter = Interpreter(model_path=sys.argv[1], num_threads=1)
    interpreter.allocate_tensors()
    times.append((time.perf_counter() - start) * 1000)
    del interpreter
print(times[0], statistics.median(times[1:]))
"""


def ours(tflite, model):
    out = subprocess.run([tflite, "bench", model, "--runs", "1", "--warmup", "0", "--threads", "1"],
                         capture_output=True, text=True, timeout=300).stdout
    load = float(re.search(r"load_ms: ([\d.]+)", out).group(1))
    prepare = float(re.search(r"prepare_ms: ([\d.]+)", out).group(1))
    return load + prepare


def litert(model):
    out = subprocess.run([sys.executable, "-c", LITERT, model], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1])
    first, later = out.stdout.strip().splitlines()[-1].split()
    return float(first), float(later)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tflite", required=True, help="the tflite binary to measure")
    parser.add_argument("--reps", type=int, default=7, help="repetitions (fresh processes) per engine and model")
    parser.add_argument("--models", nargs="*", default=DEFAULT_MODELS, help="corpus model names")
    args = parser.parse_args()
    times = {m: {"ours": [], "litert": [], "litert_later": []} for m in args.models}
    before = load_average()
    for _ in range(args.reps):
        for m in args.models:
            path = os.path.join(CORPUS, m + ".tflite")
            times[m]["ours"].append(ours(args.tflite, path))
            first, later = litert(path)
            times[m]["litert"].append(first)
            times[m]["litert_later"].append(later)
    print(f"- CPU: {cpu_name()}")
    print(f"- {args.reps} repetitions, fresh processes, engines alternating; load average before {before}, after {load_average()}")
    print()
    print("| model | ours (ms) | LiteRT XNNPACK (ms) | ours / LiteRT | LiteRT, later loads in its process (ms) |")
    print("|---|---:|---:|---:|---:|")
    for m in args.models:
        a, b = statistics.median(times[m]["ours"]), statistics.median(times[m]["litert"])
        later = statistics.median(times[m]["litert_later"])
        print(f"| {m} | {a:.2f} | {b:.2f} | {a / b:.2f}x | {later:.2f} |")


if __name__ == "__main__":
    main()
