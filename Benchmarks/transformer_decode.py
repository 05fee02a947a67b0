#!/usr/bin/env python3
"""Decode tokens per second of the transformer models (Scripts/transformers) against LiteRT
2.3.0 on the same files, one thread, in one interleaved run.

A decode step is one invocation of the `decode` signature (one token, its position, the KV
cache). Ours: `tflite bench MODEL --signature decode --threads 1` (median over its runs, fresh
process). LiteRT: its Python interpreter with the default resolver (XNNPACK where it takes the
nodes), `num_threads=1`, the median over the same number of invocations of the decode signature
runner with fixed inputs. The engines take turns within each repetition; the table gives, per
model, the median over the repetitions of each side's median.

Usage (from the package root, after `swift build -c release --product tflite`):

    python3 Benchmarks/transformer_decode.py [--reps 5] [--runs 200] [MODEL.tflite ...]

Without models: the three fixture models in Tests/Fixtures/transformers/models. Larger ones:
`Scripts/transformers/make_models.py --bench DIR` (see that script).
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ours_ms(tool, model, runs):
    out = subprocess.run([tool, "bench", model, "--signature", "decode", "--threads", "1", "--runs", str(runs),
                          "--warmup", "10"], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"median_ms: ([0-9.]+)", out).group(1))


def litert_ms(model, runs):
    interpreter = Interpreter(model_path=model, num_threads=1)
    decode = interpreter.get_signature_runner("decode")
    inputs = {}
    for name, d in decode.get_input_details().items():
        inputs[name] = np.zeros(d["shape"], d["dtype"])
    inputs["tokens"][...] = 1
    inputs["input_pos"][...] = 3
    for _ in range(10):
        decode(**inputs)
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        decode(**inputs)
        times.append((time.perf_counter_ns() - start) / 1e6)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*")
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "tflite"))
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    models = args.models or sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "transformers", "models", "*.tflite")))
    results = {m: ([], []) for m in models}
    for _ in range(args.reps):
        for m in models:
            results[m][0].append(ours_ms(args.tool, m, args.runs))
            results[m][1].append(litert_ms(m, args.runs))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {args.reps} reps x {args.runs} decode steps, 1 thread")
    print(f"{'model':40} {'MB':>6} {'ours ms':>9} {'LiteRT ms':>10} {'ours tok/s':>11} {'LiteRT tok/s':>13} {'ours/LiteRT':>12}")
    for m, (ours, theirs) in results.items():
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"{os.path.basename(m):40} {os.path.getsize(m) / 1e6:6.1f} {a:9.3f} {b:10.3f} {1000 / a:11.0f} {1000 / b:13.0f} {a / b:12.2f}")


if __name__ == "__main__":
    main()
