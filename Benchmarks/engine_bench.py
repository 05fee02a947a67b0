#!/usr/bin/env python3
"""Times one model with one reference engine, in its own process.

Prints lines in the same form as `tflite bench` (`min_ms:`, `max_ms:`, and last
`median_ms:`) so that compare.py parses every engine the same way. The process
is started fresh for every measurement so its peak resident memory (read by
compare.py with /usr/bin/time) belongs to this one model and engine.

Engines:
  xnnpack   LiteRT 2.3.0 with its default delegate (XNNPACK)
  builtin   LiteRT 2.3.0 with its own builtin kernels
            (OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
  openvino  OpenVINO CPU plugin reading the .tflite file directly

Usage: engine_bench.py ENGINE MODEL --threads N --runs N --warmup N
"""

import argparse
import sys
import time

import numpy as np


def deterministic_inputs(specs, seed=1):
    """Inputs of the declared shapes: floats uniform in [-1, 1], integers uniform
    over the type's range (the same distributions `tflite bench` uses)."""
    rng = np.random.default_rng(seed)
    arrays = []
    for shape, dtype in specs:
        dtype = np.dtype(dtype)
        if dtype.kind == "f":
            arrays.append(rng.uniform(-1, 1, size=shape).astype(dtype))
        elif dtype == np.bool_:
            arrays.append(rng.integers(0, 2, size=shape).astype(np.bool_))
        elif dtype in (np.dtype(np.int8), np.dtype(np.uint8)):
            info = np.iinfo(dtype)
            arrays.append(rng.integers(info.min, info.max + 1, size=shape).astype(dtype))
        else:
            arrays.append(rng.integers(0, 4, size=shape).astype(dtype))
    return arrays


def litert_runner(model, threads, builtin):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    kwargs = {"model_path": model, "num_threads": threads}
    if builtin:
        kwargs["experimental_op_resolver_type"] = OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    interpreter = Interpreter(**kwargs)
    interpreter.allocate_tensors()
    details = interpreter.get_input_details()
    inputs = deterministic_inputs([(d["shape"], d["dtype"]) for d in details])
    for d, x in zip(details, inputs):
        interpreter.set_tensor(d["index"], x)
    return interpreter.invoke


def openvino_runner(model, threads):
    import openvino as ov

    core = ov.Core()
    # The CPU plugin computes in bfloat16 by default wherever the CPU has AVX512_BF16 or AMX;
    # the comparison is of float32 engines, so the precision is pinned.
    compiled = core.compile_model(
        core.read_model(model), "CPU",
        {"INFERENCE_NUM_THREADS": threads, "PERFORMANCE_HINT": "LATENCY",
         "INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    specs = []
    for port in compiled.inputs:
        specs.append((list(port.get_shape()), port.get_element_type().to_dtype()))
    for i, x in enumerate(deterministic_inputs(specs)):
        request.set_input_tensor(i, ov.Tensor(x))
    return request.infer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", choices=["xnnpack", "builtin", "openvino"])
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()

    try:
        if args.engine == "openvino":
            invoke = openvino_runner(args.model, args.threads)
        else:
            invoke = litert_runner(args.model, args.threads, args.engine == "builtin")
        for _ in range(args.warmup):
            invoke()
        times = []
        for _ in range(args.runs):
            start = time.perf_counter_ns()
            invoke()
            times.append((time.perf_counter_ns() - start) / 1e6)
    except Exception as error:  # the engine cannot run this model: say why, briefly
        # The last line of a multi-line engine error names the cause (e.g. the op it lacks).
        message = [line for line in str(error).strip().splitlines() if line.strip()]
        print(f"error: {message[-1][:200] if message else type(error).__name__}", file=sys.stderr)
        sys.exit(1)
    times.sort()
    print(f"min_ms: {times[0]:.4f}")
    print(f"max_ms: {times[-1]:.4f}")
    print(f"median_ms: {float(np.median(times)):.4f}")


if __name__ == "__main__":
    main()
