#!/usr/bin/env python3
"""Times a model operator by operator in `tflite bench` and the reference engines.

Each operator of the main subgraph is cut out into a model of its own (the same file with
the operator list shortened to that one operator, its first input as the model input and
its first output as the model output; every other buffer is left in place), and the cut
models are timed in turn by every engine, repetition after repetition, like compare.py.
The table gives, per operator, the median over the repetitions of each process's median,
and the kernel `tflite inspect` names for it.

What the numbers are, and are not:
  - An operator whose second input is computed by the graph (an ADD of two activations, a
    detection post-processing step) has no model of its own: its row reads n/a.
  - Each engine has a fixed cost per invocation (OpenVINO's is several microseconds), which
    dominates the small operators; compare engines on the large ones.
  - The sum over operators is not the model's time: an engine may run the graph faster than
    its operators alone (caches, its own fusions). Use compare.py for whole models.
  - Operators our runtime fuses (an activation or residual ADD folded into a convolution)
    are timed unfused here.

Usage (from the package root, after `swift build -c release`):

    python3 Benchmarks/op_compare.py Tests/Fixtures/corpus/models/mobilenet_v2_int8.tflite \\
        --tflite .build/release/tflite --threads 1 --reps 2 [--ops 0:12] [--openvino]
"""

import argparse
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


class FlatBuffer:
    """The few FlatBuffers reads and in-place writes the cut needs (see the schema's Model,
    SubGraph and Operator tables)."""

    def __init__(self, data):
        self.b = bytearray(data)

    def u32(self, at):
        return struct.unpack_from("<I", self.b, at)[0]

    def i32(self, at):
        return struct.unpack_from("<i", self.b, at)[0]

    def field(self, table, index):
        """The position of field `index` of the table at `table`, or None when absent."""
        vtable = table - self.i32(table)
        size = struct.unpack_from("<H", self.b, vtable)[0]
        if 4 + 2 * index >= size:
            return None
        offset = struct.unpack_from("<H", self.b, vtable + 4 + 2 * index)[0]
        return table + offset if offset else None

    def target(self, at):
        """Where the offset stored at `at` points."""
        return at + self.u32(at)

    def vector(self, table, index):
        """(position of the length word, length) of the vector in field `index`."""
        at = self.target(self.field(table, index))
        return at, self.u32(at)

    def drop_field(self, table, index):
        vtable = table - self.i32(table)
        if 4 + 2 * index < struct.unpack_from("<H", self.b, vtable)[0]:
            struct.pack_into("<H", self.b, vtable + 4 + 2 * index, 0)


def operator_count(data):
    fb = FlatBuffer(data)
    subgraphs, _ = fb.vector(fb.u32(0), 2)
    _, count = fb.vector(fb.target(subgraphs + 4), 3)
    return count


def cut(data, first, end):
    """The model with only operators `first..<end` of subgraph 0; None when an operator has
    no first input or output."""
    fb = FlatBuffer(data)
    root = fb.u32(0)
    subgraphs, _ = fb.vector(root, 2)
    subgraph = fb.target(subgraphs + 4)
    operators, count = fb.vector(subgraph, 3)
    tables = [fb.target(operators + 4 + 4 * i) for i in range(count)]
    ins, n_in = fb.vector(tables[first], 1)
    outs, n_out = fb.vector(tables[end - 1], 2)
    if n_in == 0 or n_out == 0:
        return None
    source, sink = fb.i32(ins + 4), fb.i32(outs + 4)
    # Each element of the operators vector is an offset from its own position.
    for j, table in enumerate(tables[first:end]):
        struct.pack_into("<I", fb.b, operators + 4 + 4 * j, table - (operators + 4 + 4 * j))
    struct.pack_into("<I", fb.b, operators, end - first)
    for index, tensor in ((1, source), (2, sink)):
        at, _ = fb.vector(subgraph, index)
        struct.pack_into("<I", fb.b, at, 1)
        struct.pack_into("<i", fb.b, at + 4, tensor)
    fb.drop_field(root, 7)  # signature_defs name tensors the cut may have removed
    return bytes(fb.b)


def median_ms(command):
    result = subprocess.run(command, capture_output=True, text=True)
    found = re.findall(r"median_ms: ([\d.]+)", result.stdout)
    return float(found[-1]) if result.returncode == 0 and found else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("--tflite", default=os.path.join(HERE, "..", ".build", "release", "tflite"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--ops", default=None, help="a range FIRST:END of operator indices (default: all)")
    parser.add_argument("--openvino", action="store_true", help="also time OpenVINO (float32)")
    args = parser.parse_args()

    data = open(args.model, "rb").read()
    first, end = (map(int, args.ops.split(":")) if args.ops else (0, operator_count(data)))
    inspect = subprocess.run([args.tflite, "inspect", args.model], capture_output=True, text=True).stdout
    kernels = dict(re.findall(r"^\s+(\d+)\s+\S+\s+(\S+/\S+|\S+\.reference)$", inspect, re.M))
    ops = dict(re.findall(r"^\s+(\d+)\s+([A-Z][A-Z0-9_]+)\s+\S+$", inspect, re.M))

    common = ["--threads", str(args.threads), "--runs", str(args.runs), "--warmup", "10"]
    engine_bench = [sys.executable, os.path.join(HERE, "engine_bench.py")]
    engines = {"ours": lambda p: [args.tflite, "bench", p] + common,
               "xnnpack": lambda p: engine_bench + ["xnnpack", p] + common}
    if args.openvino:
        engines["openvino"] = lambda p: engine_bench + ["openvino", p] + common

    with tempfile.TemporaryDirectory() as directory:
        paths = {}
        for i in range(first, end):
            model = cut(data, i, i + 1)
            if model is not None:
                paths[i] = os.path.join(directory, f"op{i}.tflite")
                open(paths[i], "wb").write(model)
        times = {(i, e): [] for i in paths for e in engines}
        for _ in range(args.reps):
            for i, path in paths.items():
                for engine, command in engines.items():
                    ms = median_ms(command(path))
                    if ms is not None:
                        times[(i, engine)].append(ms)

    names = list(engines)
    print(f"{os.path.basename(args.model)}, {args.threads} thread(s), {args.reps} repetition(s); microseconds")
    print("| op | type | " + " | ".join(names) + " | ours / xnnpack | our kernel |")
    print("|---:|---|" + "---:|" * (len(names) + 1) + "---|")
    for i in range(first, end):
        medians = [statistics.median(times[(i, e)]) * 1000 if times.get((i, e)) else None for e in names]
        cells = [f"{m:.1f}" if m is not None else "n/a" for m in medians]
        ratio = f"{medians[0] / medians[1]:.2f}x" if medians[0] and medians[1] else "n/a"
        print(f"| {i} | {ops.get(str(i), '?')} | " + " | ".join(cells) + f" | {ratio} | {kernels.get(str(i), '')} |")


if __name__ == "__main__":
    main()
