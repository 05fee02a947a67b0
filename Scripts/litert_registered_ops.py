#!/usr/bin/env python3
"""Lists the operators LiteRT's default op resolver registers, for the fixture
Tests/Fixtures/runtime/litert_ops.json that OperatorCoverageTests compares `tflite ops` with.

    pip install ai-edge-litert==2.3.0 numpy
    python3 Scripts/litert_registered_ops.py > Tests/Fixtures/runtime/litert_ops.json

LiteRT has no call that lists its resolver, so each builtin is probed: a one-node model with
that opcode (versions 1 to 4) is loaded with the builtin resolver and its tensors allocated; only the
resolver's own messages (below) mean the op is not registered. Custom ops are probed by code from
the list of custom kernels LiteRT's resolver is known to add.
"""
import json
import os
import subprocess
import sys
import tempfile

import flatbuffers
from ai_edge_litert import interpreter as litert
from ai_edge_litert import schema_py_generated as schema

# Custom codes whose kernels LiteRT's BuiltinOpResolver adds, and other well-known custom ops
# (probing a code that is not registered reports it missing, so the list may be generous).
CUSTOM_CANDIDATES = [
    "AudioSpectrogram", "Mfcc", "NumericVerify", "TFLite_Detection_PostProcess",
    "Convolution2DTransposeBias", "MaxPoolingWithArgmax2D", "MaxUnpooling2D",
    "odml.update_kv_cache", "odml.scaled_dot_product_attention",
]

# What LiteRT says of an opcode its resolver lacks: builtins fail when the interpreter is
# built, custom ops only when tensors are allocated (an unresolved custom op may still be
# claimed by a delegate).
MISSING = ("Didn't find op for builtin opcode", "Encountered unresolved custom op")


VERSIONS = range(1, 5)


def one_node_model(builtin=None, custom=None, version=1):
    m = schema.ModelT()
    m.version = 3
    code = schema.OperatorCodeT()
    if custom is None:
        code.builtinCode = builtin
        code.deprecatedBuiltinCode = min(builtin, 127)
    else:
        code.builtinCode = schema.BuiltinOperator.CUSTOM
        code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
        code.customCode = custom
    code.version = version
    m.operatorCodes = [code]
    m.buffers = [schema.BufferT()]
    sg = schema.SubGraphT()
    tensors = []
    for name in ("x", "y"):
        t = schema.TensorT()
        t.shape = [1, 4]
        t.type = schema.TensorType.FLOAT32
        t.buffer = 0
        t.name = name
        tensors.append(t)
    sg.tensors = tensors
    sg.inputs, sg.outputs = [0], [1]
    op = schema.OperatorT()
    op.opcodeIndex = 0
    op.inputs, op.outputs = [0], [1]
    sg.operators = [op]
    m.subgraphs = [sg]
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def load(path):
    """Run in a child process: prints the error LiteRT gives when building the interpreter
    and allocating its tensors."""
    try:
        litert.Interpreter(model_path=path,
                           experimental_op_resolver_type=litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES).allocate_tensors()
    except Exception as e:  # LiteRT raises RuntimeError/ValueError with the resolver's message
        print(e)


def registered(model_bytes):
    """Loads the model in a child process, since some of LiteRT's kernels crash on a node
    without its options; only the resolver's own messages mean the op is not registered."""
    with tempfile.NamedTemporaryFile(suffix=".tflite", delete=False) as f:
        f.write(model_bytes)
        path = f.name
    try:
        child = subprocess.run([sys.executable, __file__, "--load", path], capture_output=True, text=True)
        return not any(m in child.stdout + child.stderr for m in MISSING)
    finally:
        os.unlink(path)


def main():
    names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    # Some kernels are registered from a version above 1 only (BROADCAST_TO from 2).
    builtins = sorted(names[c] for c in names if c != schema.BuiltinOperator.CUSTOM
                      and any(registered(one_node_model(builtin=c, version=v)) for v in VERSIONS))
    customs = sorted(c for c in CUSTOM_CANDIDATES if registered(one_node_model(custom=c)))
    json.dump({"generated_with": "ai-edge-litert 2.3.0, BuiltinOpResolver (BUILTIN_WITHOUT_DEFAULT_DELEGATES)",
               "builtin": builtins, "custom": customs}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--load"]:
        load(sys.argv[2])
    else:
        main()
