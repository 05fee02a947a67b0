#!/usr/bin/env python3
"""Dump per-operator fixtures for the quantised kernel tests.

For each op-zoo model listed below, the corpus case inputs are run through
LiteRT (ai-edge-litert 2.3.0) with the resolver that made the case's golden
(the manifest's golden_resolver: BUILTIN_REF, the reference kernels, for most)
with every intermediate tensor preserved. For every operator of the model the
script writes its builtin name, its options (read from the flatbuffer) and,
for each input and output tensor, dtype, shape, quantisation parameters and
values. A kernel test can then run one operator alone on LiteRT's own inputs
and compare with LiteRT's own output.

Setup:  pip install ai-edge-litert==2.3.0 numpy tflite
Usage:  python3 Scripts/dump_quantized_kernel_fixtures.py [MODEL[:CASE][@OP,OP...][%MAX][#I,I...] ...]
        (no arguments: the list below). CASE defaults to "random"; @OPS keeps only
        those operator types (for the large networks), %MAX only operators whose
        tensors hold at most MAX elements in all, #I,I... only the operators at those
        positions of the graph.
Writes: Tests/Fixtures/kernels/<model>[__<case>].json, and the DENSIFY operators of
        face_detection_full_range_sparse (sparsity parameters read from the flatbuffer,
        stored values from its buffers, LiteRT's dense output) into
        Tests/Fixtures/kernels/face_detection_full_range_sparse__densify.json, and a slice of
        efficientnet_lite0's FULLY_CONNECTED (the full input, 24 of the 1000 weight rows with
        their biases and outputs, among them the two outputs where single and double rounding
        differ) into Tests/Fixtures/kernels/efficientnet_lite0__chelsea_fc_rows.json
"""
import json
import os
import sys

import numpy as np
import tflite
from ai_edge_litert.interpreter import Interpreter, OpResolverType

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "Fixtures", "corpus")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "kernels")

MODELS = sys.argv[1:] or [
    "zoo_conv2d_int8", "zoo_conv2d_16x8", "zoo_dwconv_int8", "zoo_fc_bmm_int8",
    "zoo_pool_int8", "zoo_softmax_int8", "zoo_softmax_beta_int8",
    "zoo_act_smooth_int8", "zoo_act_relu_int8", "zoo_add_sub_mul_bcast_int8",
    "zoo_reduce_int8", "zoo_resize_int8", "zoo_prelu_int8", "zoo_l2norm_int8",
    "zoo_tconv_int8", "zoo_minmax_sqdiff_int8", "zoo_gelu_exact_int8",
    "zoo_conv2d_int8_floatio", "zoo_reshape_transpose_int8", "zoo_pad_int8",
    "zoo_argminmax_int8", "zoo_math_unary_q_int8",
    "mobilenet_v2_int8@MEAN,SOFTMAX,ADD,FULLY_CONNECTED",
    "mobilenet_v2_uint8io@QUANTIZE%400000",
    "efficientnet_lite0:chelsea@AVERAGE_POOL_2D,SOFTMAX,FULLY_CONNECTED,QUANTIZE,ADD",
    "mobilenet_v2_dynamic:chelsea@CONV_2D,DEPTHWISE_CONV_2D%60000#23,48,49",
]

# Operators of the large networks whose tensors hold more elements than this are left out,
# to keep the fixtures small.
MAX_ELEMENTS = 70000

OPCODE_NAMES = {v: k for k, v in vars(tflite.BuiltinOperator).items() if not k.startswith("_")}
OPTION_NAMES = {v: k for k, v in vars(tflite.BuiltinOptions).items() if not k.startswith("_")}

with open(os.path.join(CORPUS, "manifest.json")) as f:
    RESOLVERS = {c["case"]: c.get("golden_resolver") or "BUILTIN_REF" for c in json.load(f)}


def options_dict(op):
    """Every scalar getter of the operator's builtin options table."""
    kind = op.BuiltinOptionsType()
    if kind == 0:
        return {}
    name = OPTION_NAMES[kind]
    cls = getattr(tflite, name)
    table = op.BuiltinOptions()
    opts = cls()
    opts.Init(table.Bytes, table.Pos)
    result = {}
    for attr in dir(cls):
        if attr.startswith("_") or attr in ("Init",) or attr.startswith("GetRootAs") or attr.endswith("BufferHasIdentifier"):
            continue
        if attr.endswith("Length") or attr.endswith("IsNone") or attr.endswith("AsNumpy"):
            continue
        try:
            value = getattr(opts, attr)()
        except TypeError:
            continue
        if isinstance(value, (int, float, bool)):
            result[attr] = value
    return result


def tensor_entry(interp, details, index):
    d = details[index]
    q = d["quantization_parameters"]
    value = interp.get_tensor(index)
    return {
        "index": int(index),
        "name": d["name"],
        "dtype": np.dtype(d["dtype"]).name,
        "shape": [int(x) for x in value.shape],
        "scales": [float(s) for s in q["scales"]],
        "zero_points": [int(z) for z in q["zero_points"]],
        "quantized_dimension": int(q["quantized_dimension"]),
        # Float tensors are stored as float32 bit patterns so they round-trip exactly.
        "data": (value.astype(np.float32).view(np.uint32) if value.dtype.kind == "f" else value).astype(np.int64).ravel().tolist(),
        "float_bits": value.dtype.kind == "f",
    }


def dump(spec, file_name=None):
    spec, _, positions = spec.partition("#")
    only = {int(i) for i in positions.split(",")} if positions else None
    spec, _, limit = spec.partition("%")
    max_elements = int(limit) if limit else MAX_ELEMENTS
    spec, _, op_filter = spec.partition("@")
    model, _, case = spec.partition(":")
    case = case or "random"
    wanted = set(op_filter.split(",")) if op_filter else None
    path = os.path.join(CORPUS, "models", model + ".tflite")
    case_name = model + "__" + case
    case_dir = os.path.join(CORPUS, "cases", case_name)
    # The golden of a few cases comes from another resolver (see the corpus README).
    resolver = RESOLVERS[case_name]
    interp = Interpreter(model_path=path, experimental_op_resolver_type=getattr(OpResolverType, resolver),
                         experimental_preserve_all_tensors=True)
    interp.allocate_tensors()
    for i, inp in enumerate(interp.get_input_details()):
        interp.set_tensor(inp["index"], np.load(os.path.join(case_dir, f"in{i}.npy")))
    interp.invoke()
    for i, out in enumerate(interp.get_output_details()):
        golden = np.load(os.path.join(case_dir, f"out{i}.npy"))
        if not np.array_equal(golden, interp.get_tensor(out["index"])):
            raise SystemExit(f"{model}: output {i} differs from the corpus golden")

    details = {d["index"]: d for d in interp.get_tensor_details()}
    with open(path, "rb") as f:
        fb = tflite.Model.GetRootAsModel(f.read(), 0)
    graph = fb.Subgraphs(0)
    ops = []
    for k in range(graph.OperatorsLength()):
        op = graph.Operators(k)
        code = fb.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        name = OPCODE_NAMES.get(builtin, str(builtin))
        if only is not None and k not in only:
            continue
        if wanted is not None:
            if name not in wanted:
                continue
            tensors = [t for t in list(op.InputsAsNumpy()) + list(op.OutputsAsNumpy()) if t >= 0]
            if sum(int(np.prod(details[t]["shape"])) for t in tensors) > max_elements:
                continue
        ops.append({
            "op": name,
            "version": code.Version(),
            "options": options_dict(op),
            "inputs": [tensor_entry(interp, details, t) if t >= 0 else None for t in op.InputsAsNumpy()],
            "outputs": [tensor_entry(interp, details, t) for t in op.OutputsAsNumpy()],
        })
    os.makedirs(OUT, exist_ok=True)
    file_name = file_name or (model if case == "random" else case_name)
    with open(os.path.join(OUT, file_name + ".json"), "w") as f:
        json.dump({"model": model, "case": case_name, "resolver": resolver, "ops": ops}, f, separators=(",", ":"))
    print(file_name, [o["op"] for o in ops])


def vector_values(kind, table):
    """Values of a SparseIndexVector union (Int32Vector, Uint16Vector or Uint8Vector)."""
    if kind == 0 or table is None:
        return []
    cls = {1: tflite.Int32Vector, 2: tflite.Uint16Vector, 3: tflite.Uint8Vector}[kind]
    v = cls()
    v.Init(table.Bytes, table.Pos)
    return [int(x) for x in v.ValuesAsNumpy()]


def dump_densify(model, case, count):
    path = os.path.join(CORPUS, "models", model + ".tflite")
    case_name = model + "__" + case
    interp = Interpreter(model_path=path, experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                         experimental_preserve_all_tensors=True)
    interp.allocate_tensors()
    for i, inp in enumerate(interp.get_input_details()):
        interp.set_tensor(inp["index"], np.load(os.path.join(CORPUS, "cases", case_name, f"in{i}.npy")))
    interp.invoke()
    with open(path, "rb") as f:
        raw = f.read()
    fb = tflite.Model.GetRootAsModel(raw, 0)
    graph = fb.Subgraphs(0)
    ops = []
    for k in range(graph.OperatorsLength()):
        op = graph.Operators(k)
        code = fb.OperatorCodes(op.OpcodeIndex())
        if OPCODE_NAMES.get(max(code.BuiltinCode(), code.DeprecatedBuiltinCode())) != "DENSIFY":
            continue
        tensor = graph.Tensors(op.Inputs(0))
        sparsity = tensor.Sparsity()
        dims = []
        for d in range(sparsity.DimMetadataLength()):
            m = sparsity.DimMetadata(d)
            dims.append({"format": m.Format(), "dense_size": m.DenseSize(),
                         "segments": vector_values(m.ArraySegmentsType(), m.ArraySegments()),
                         "indices": vector_values(m.ArrayIndicesType(), m.ArrayIndices())})
        stored = fb.Buffers(tensor.Buffer()).DataAsNumpy().tobytes()
        dense = interp.get_tensor(op.Outputs(0))
        ops.append({
            "position": k,
            "shape": [int(x) for x in tensor.ShapeAsNumpy()],
            "traversal_order": [int(x) for x in sparsity.TraversalOrderAsNumpy()],
            "block_map": [int(x) for x in sparsity.BlockMapAsNumpy()] if sparsity.BlockMapLength() else [],
            "dims": dims,
            # float16 values as their bit patterns.
            "values": np.frombuffer(stored, dtype=np.uint16).astype(np.int64).tolist(),
            "dense": dense.astype(np.float16).view(np.uint16).astype(np.int64).ravel().tolist(),
        })
        if len(ops) == count:
            break
    with open(os.path.join(OUT, model + "__densify.json"), "w") as f:
        json.dump({"model": model, "case": case_name, "ops": ops}, f, separators=(",", ":"))
    print(model, "DENSIFY", len(ops))


for m in MODELS:
    dump(m)


def dump_fc_rows(model, case, rows):
    """One FULLY_CONNECTED operator restricted to some output channels (weight rows)."""
    spec = f"{model}:{case}@FULLY_CONNECTED%1000000000"
    case_name = model + "__" + case
    dump(spec, file_name=case_name + "_fc_full")
    full = os.path.join(OUT, case_name + "_fc_full.json")
    with open(full) as f:
        data = json.load(f)
    os.remove(full)
    op = data["ops"][0]
    weights, bias, output = op["inputs"][1], op["inputs"][2], op["outputs"][0]
    depth = weights["shape"][1]
    weights["data"] = [v for r in rows for v in weights["data"][r * depth:(r + 1) * depth]]
    weights["shape"] = [len(rows), depth]
    bias["data"] = [bias["data"][r] for r in rows]
    bias["shape"] = [len(rows)]
    output["data"] = [output["data"][r] for r in rows]
    output["shape"] = [1, len(rows)]
    data["rows"] = rows
    with open(os.path.join(OUT, case_name + "_fc_rows.json"), "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(case_name, "FULLY_CONNECTED rows", rows)


if len(sys.argv) == 1:
    dump_densify("face_detection_full_range_sparse", "astronaut", 8)
    dump_fc_rows("efficientnet_lite0", "chelsea", list(range(0, 1000, 50)) + [403, 558, 999, 1])
