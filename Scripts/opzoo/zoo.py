"""Builds one-op (or few-op) `.tflite` models with LiteRT's own schema classes and runs them
through LiteRT's reference kernels, for the op-zoo cases in Tests/Fixtures/opzoo.

A family module (Scripts/opzoo/<family>.py) defines `cases()`, returning `Case` values; each
case's model is built with `Graph`, and its golden is whatever LiteRT 2.3.0 computes for the
case's inputs with `OpResolverType.BUILTIN_REF` (single thread), as in the corpus.
"""
import os
import struct
import subprocess
import sys
import tempfile

import flatbuffers
import numpy as np
from ai_edge_litert import interpreter as litert
from ai_edge_litert import schema_py_generated as schema

S = schema
TYPES = {
    np.float32: S.TensorType.FLOAT32, np.float16: S.TensorType.FLOAT16, np.int32: S.TensorType.INT32,
    np.uint8: S.TensorType.UINT8, np.int64: S.TensorType.INT64, np.bool_: S.TensorType.BOOL,
    np.int16: S.TensorType.INT16, np.int8: S.TensorType.INT8, np.float64: S.TensorType.FLOAT64,
    np.uint32: S.TensorType.UINT32, np.uint16: S.TensorType.UINT16, np.uint64: S.TensorType.UINT64,
}
STRING, RESOURCE = S.TensorType.STRING, S.TensorType.RESOURCE


def packed_strings(strings):
    """TFLite's string tensor layout: int32 count, count + 1 int32 offsets, the bytes."""
    head = 4 * (len(strings) + 2)
    offsets = [head]
    for s in strings:
        offsets.append(offsets[-1] + len(s))
    return struct.pack("<%di" % (len(strings) + 2), len(strings), *offsets) + b"".join(strings)


def tensor_type(dtype):
    if isinstance(dtype, int):
        return dtype
    return TYPES[np.dtype(dtype).type]


class Graph:
    """One subgraph under construction; `Model` gathers subgraphs, opcodes and buffers."""

    def __init__(self, model, name):
        self.model, self.sg = model, S.SubGraphT()
        self.sg.name = name
        self.sg.tensors, self.sg.operators, self.sg.inputs, self.sg.outputs = [], [], [], []

    def tensor(self, name, dtype, shape, data=None, quant=None, shape_signature=None, variable=False):
        """Adds a tensor; `data` (a numpy array or raw bytes) makes it constant. `quant` is
        (scale, zero_point), or (scales, zero_points, axis) per channel."""
        t = S.TensorT()
        t.name, t.type, t.shape = name, tensor_type(dtype), list(shape)
        if shape_signature is not None:
            t.shapeSignature = list(shape_signature)
        t.isVariable = variable
        t.buffer = 0 if data is None else self.model.buffer(data)
        if quant is not None:
            q = S.QuantizationParametersT()
            if len(quant) == 3:
                q.scale, q.zeroPoint, q.quantizedDimension = list(quant[0]), list(quant[1]), quant[2]
            else:
                q.scale, q.zeroPoint = [float(quant[0])], [int(quant[1])]
            t.quantization = q
        self.sg.tensors.append(t)
        return len(self.sg.tensors) - 1

    def input(self, name, dtype, shape, **kw):
        i = self.tensor(name, dtype, shape, **kw)
        self.sg.inputs.append(i)
        return i

    def strings(self, name, strings, shape=None):
        """A constant string tensor holding `strings` (bytes) in TFLite's packed layout."""
        return self.tensor(name, STRING, [len(strings)] if shape is None else shape, data=packed_strings(strings))

    def const(self, name, array, dtype=None, **kw):
        array = np.asarray(array, dtype=dtype)
        return self.tensor(name, array.dtype, array.shape, data=array, **kw)

    def op(self, code, inputs, outputs, options=None, options_type=0, custom=None, custom_options=None,
           version=1, intermediates=None):
        """Adds an operator; `code` is a BuiltinOperator value (or None with `custom`)."""
        o = S.OperatorT()
        o.opcodeIndex = self.model.opcode(code, custom, version)
        o.inputs, o.outputs = list(inputs), list(outputs)
        if intermediates:
            o.intermediates = list(intermediates)
        if options is not None:
            if options_type >= 0x100:  # BuiltinOptions2 union (StableHLO and later ops)
                o.builtinOptions2Type, o.builtinOptions2 = options_type - 0x100, options
            else:
                o.builtinOptionsType, o.builtinOptions = options_type, options
        if custom_options is not None:
            o.customOptions = list(custom_options)
        self.sg.operators.append(o)

    def output(self, *indices):
        self.sg.outputs.extend(indices)


class Model:
    def __init__(self):
        self.m = S.ModelT()
        self.m.version, self.m.description = 3, "op zoo"
        self.m.operatorCodes, self.m.buffers, self.m.subgraphs = [], [S.BufferT()], []

    def graph(self, name="main"):
        g = Graph(self, name)
        self.m.subgraphs.append(g.sg)
        return g

    def buffer(self, data):
        b = S.BufferT()
        raw = data if isinstance(data, (bytes, bytearray)) else np.ascontiguousarray(data).tobytes()
        b.data = list(raw)
        self.m.buffers.append(b)
        return len(self.m.buffers) - 1

    def opcode(self, builtin, custom, version):
        code = S.OperatorCodeT()
        if custom is not None:
            code.builtinCode = code.deprecatedBuiltinCode = S.BuiltinOperator.CUSTOM
            code.customCode = custom
        else:
            code.builtinCode, code.deprecatedBuiltinCode = builtin, min(builtin, 127)
        code.version = version
        for i, c in enumerate(self.m.operatorCodes):
            if (c.builtinCode, c.customCode, c.version) == (code.builtinCode, code.customCode, code.version):
                return i
        self.m.operatorCodes.append(code)
        return len(self.m.operatorCodes) - 1

    def signature(self, key, inputs, outputs, subgraph=0):
        """A SignatureDef over tensors of subgraph `subgraph`: `inputs`/`outputs` map names to indices."""
        sd = S.SignatureDefT()
        sd.signatureKey, sd.subgraphIndex = key, subgraph
        def maps(d):
            out = []
            for name, idx in d.items():
                tm = S.TensorMapT()
                tm.name, tm.tensorIndex = name, idx
                out.append(tm)
            return out
        sd.inputs, sd.outputs = maps(inputs), maps(outputs)
        self.m.signatureDefs = (self.m.signatureDefs or []) + [sd]

    def bytes(self):
        b = flatbuffers.Builder(1024)
        b.Finish(self.m.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())


class Case:
    """A model and its inputs; `tolerance` is per output (None: exact for integers, the corpus's
    small-model float tolerance for floats). `invokes` > 1 runs the model that many times and
    keeps the last outputs (stateful ops). `genai` registers LiteRT's GenAI custom ops
    (`odml.update_kv_cache`, `odml.update_external_kv_cache`, `odml.scaled_dot_product_attention`)
    with the interpreter, as LiteRT's LLM runtime does. `golden_model`, when given, is a model
    LiteRT runs for the golden in place of `model` (where LiteRT's kernel for `model` is wrong)."""

    def __init__(self, name, model, inputs, tolerance=None, notes="", resolver="BUILTIN_REF", signature=None, genai=False,
                 golden_model=None):
        self.name, self.model, self.inputs = name, model, [np.asarray(a) for a in inputs]
        self.tolerance, self.notes, self.resolver, self.signature = tolerance, notes, resolver, signature
        self.genai, self.golden_model = genai, golden_model


def run_litert(model_bytes, inputs, resolver="BUILTIN_REF", signature=None, genai=False):
    """Outputs of LiteRT for `inputs`, in model (or signature) output order."""
    with tempfile.NamedTemporaryFile(suffix=".tflite", delete=False) as f:
        f.write(model_bytes)
        path = f.name
    try:
        kind = getattr(litert.OpResolverType, resolver)
        if genai:
            from ai_edge_litert import pywrap_genai_ops
            interp = litert.InterpreterWithCustomOps(custom_op_registerers=[pywrap_genai_ops.GenAIOpsRegisterer],
                                                     model_path=path, num_threads=1, experimental_op_resolver_type=kind)
        else:
            interp = litert.Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=kind)
        if signature is not None:
            runner = interp.get_signature_runner(signature)
            names = list(interp.get_signature_list()[signature]["inputs"])
            out = runner(**dict(zip(names, inputs)))
            return [out[k] for k in interp.get_signature_list()[signature]["outputs"]]
        details = interp.get_input_details()
        for d, a in zip(details, inputs):
            if list(d["shape"]) != list(a.shape):
                interp.resize_tensor_input(d["index"], a.shape, strict=False)
        interp.allocate_tensors()
        for d, a in zip(interp.get_input_details(), inputs):
            interp.set_tensor(d["index"], a)
        interp.invoke()
        return [interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()]
    finally:
        os.unlink(path)


def as_saved(array):
    """LiteRT returns string tensors as object arrays of bytes; .npy keeps them as fixed-width
    byte strings (NumPy `S`), which hold no pickled objects."""
    array = np.asarray(array)
    if array.dtype == object:
        assert not any(x.endswith(b"\0") for x in array.flat), "NumPy would drop a trailing NUL"
        return np.array(array.tolist(), dtype="S").reshape(array.shape) if array.size else np.zeros(array.shape, "S1")
    return array



def litert_error(model_bytes, inputs):
    """The error LiteRT raises for the model (in a child process, as some kernels crash), or None."""
    with tempfile.NamedTemporaryFile(suffix=".tflite", delete=False) as f:
        f.write(model_bytes)
        path = f.name
    np.savez(path + ".npz", *inputs)
    code = ("import numpy as np, sys\nsys.path.insert(0, %r)\nimport zoo\n"
            "a = np.load(%r)\nzoo.run_litert(open(%r, 'rb').read(), [a['arr_%%d' %% i] for i in range(len(a.files))])\n"
            % (os.path.dirname(__file__), path + ".npz", path))
    try:
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        return None if child.returncode == 0 else (child.stderr.strip().splitlines() or ["crashed"])[-1]
    finally:
        os.unlink(path)
        os.unlink(path + ".npz")
