#!/usr/bin/env python3
"""Builds the fixtures of the external-buffer tests (Tests/Fixtures/external): a model whose
constants live in other files, named by `Model.external_buffer_groups` and sliced by
`Model.external_buffers` (LiteRT's external weights), the same model with its data inline, and
variants of the first with one field made wrong.

    pip install ai-edge-litert==2.3.0 numpy flatbuffers
    python3 Scripts/make_external_buffers.py

The model: out0 = FULLY_CONNECTED(x, W, b) + c and out1 = EMBEDDING_LOOKUP(ids, T), with W, b
and the int4 table T in group 0 (`weights.bin`) and c in group 1 (`extra/offsets.bin`). LiteRT
2.3's `Interpreter` does not read external buffers ("Input tensor 1 lacks data"); its
`CompiledModel` does (weight_loader/external_weight_loader_litert.cc), so the goldens come from
`CompiledModel.from_file` with the reference CPU kernels; the script checks that the inline
model gives the same outputs there, and within 1e-6 in the `Interpreter`'s reference kernels. It also runs
every variant through LiteRT and prints what LiteRT made of it.
"""
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST = os.path.join(ROOT, "Tests", "Fixtures", "external")
sys.path.insert(0, os.path.join(ROOT, "Scripts", "opzoo"))
import zoo  # noqa: E402
from int4 import pack_int4  # noqa: E402

S = zoo.S
B = S.BuiltinOperator
rs = np.random.RandomState(22)
W = rs.randn(4, 8).astype(np.float32)
BIAS = rs.randn(4).astype(np.float32)
C = rs.randn(4).astype(np.float32)
TABLE = rs.randint(-8, 8, size=(6, 8))
TABLE_SCALES = [float(s) for s in rs.rand(6) * 0.1 + 0.01]
X = rs.randn(2, 8).astype(np.float32)
IDS = np.array([5, 0, 3], np.int32)

# Where each constant lies in its group's file: offsets are multiples of 64, as LiteRT needs.
SLICES = {"w": (0, 64, W.tobytes()), "b": (0, 192, BIAS.tobytes()), "table": (0, 256, pack_int4(TABLE)),
          "c": (1, 0, C.tobytes())}
GROUPS = ["weights.bin", "extra/offsets.bin"]
# The absolute-path variant's group name: the runtime refuses any absolute name before it
# opens anything, so no real path is needed.
ABSOLUTE_PLACEHOLDER = "/" + "A" * 199


def group_files():
    files = {}
    for group, name in enumerate(GROUPS):
        end = max(offset + len(data) for g, offset, data in SLICES.values() if g == group)
        content = bytearray(b"\xee" * (end + 8))  # filler, so a wrong slice reads wrong values
        for g, offset, data in SLICES.values():
            if g == group:
                content[offset:offset + len(data)] = data
        files[name] = bytes(content)
    return files


def model(external=True, edit=None):
    """The model; `edit(m, tensors, entries)` changes the external form before it is written."""
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, [2, 8])
    ids = g.input("ids", np.int32, [3])
    quant = (TABLE_SCALES, [0] * 6, 0)
    if external:
        tensors = {"w": g.tensor("w", np.float32, [4, 8]), "b": g.tensor("b", np.float32, [4]),
                   "table": g.tensor("table", S.TensorType.INT4, [6, 8], quant=quant),
                   "c": g.tensor("c", np.float32, [4])}
        entries = {}
        for k, (name, t) in enumerate(tensors.items()):
            group, offset, data = SLICES[name]
            e = S.ExternalBufferT()
            e.id, e.group, e.offset, e.length, e.packing = 100 + k, group, offset, len(data), "unpacked"
            g.sg.tensors[t].externalBuffer = e.id
            entries[name] = e
        groups = []
        for name in GROUPS:
            grp = S.ExternalBufferGroupT()
            grp.name = name
            groups.append(grp)
        m.m.externalBufferGroups, m.m.externalBuffers = groups, list(entries.values())
        if edit:
            edit(m, {k: g.sg.tensors[t] for k, t in tensors.items()}, entries)
        w, b, table, c = tensors["w"], tensors["b"], tensors["table"], tensors["c"]
    else:
        w, b, c = g.const("w", W), g.const("b", BIAS), g.const("c", C)
        table = g.tensor("table", S.TensorType.INT4, [6, 8], data=pack_int4(TABLE), quant=quant)
    fc = g.tensor("fc", np.float32, [2, 4])
    g.op(B.FULLY_CONNECTED, [x, w, b], [fc], S.FullyConnectedOptionsT(), S.BuiltinOptions.FullyConnectedOptions)
    out0 = g.tensor("out0", np.float32, [2, 4])
    g.op(B.ADD, [fc, c], [out0], S.AddOptionsT(), S.BuiltinOptions.AddOptions)
    out1 = g.tensor("out1", np.float32, [3, 8])
    g.op(B.EMBEDDING_LOOKUP, [ids, table], [out1])
    g.output(out0, out1)
    return m.bytes()


def field(tensor=None, **changes):
    """An edit setting fields of the external buffer entry of `tensor` (default W's)."""
    def edit(m, tensors, entries):
        for k, v in changes.items():
            setattr(entries[tensor or "w"], k, v)
    return edit


def group_name(index, name):
    def edit(m, tensors, entries):
        m.m.externalBufferGroups[index].name = name
    return edit


def duplicate_id(m, tensors, entries):
    entries["b"].id = entries["w"].id


def unknown_id(m, tensors, entries):
    tensors["w"].externalBuffer = 99


def variable(m, tensors, entries):
    tensors["b"].isVariable = True


def inline_too(m, tensors, entries):
    tensors["w"].buffer = m.buffer(W)


# name: (edit, what it tests). The "hostile-" ones must be refused at load.
VARIANTS = {
    "hostile-missing-file": (group_name(1, "absent.bin"), "group 1 names a file that does not exist"),
    "hostile-past-end": (field(offset=256), "W's slice runs past the end of weights.bin"),
    "hostile-overflow": (field(offset=(1 << 64) - 64), "offset + length overflows 64 bits"),
    "hostile-short": (field(length=64), "W's slice is shorter than W"),
    "hostile-bad-group": (field(group=7), "W's entry names group 7 of 2"),
    "hostile-unknown-id": (unknown_id, "W names external buffer id 99, which no entry has"),
    "hostile-duplicate-id": (duplicate_id, "two entries share an id"),
    "hostile-unaligned": (field(offset=96), "W's slice starts at 96, not a multiple of 64"),
    "hostile-nul-name": (group_name(0, "weights.bin\0.x"), "group 0's name holds a NUL"),
    "hostile-empty-name": (group_name(0, ""), "group 0's name is empty"),
    "hostile-variable": (variable, "a variable tensor with external data"),
    "hostile-inline-too": (inline_too, "W has both inline data and an external buffer"),
    "longer-slice": (field(length=160), "W's slice is longer than W (LiteRT reads its start)"),
    "parent-directory": (group_name(0, "../external/weights.bin"), "group 0 is reached through '..'"),
    "absolute-path": (group_name(0, ABSOLUTE_PLACEHOLDER), "group 0 by an absolute path (refused by the runtime)"),
}


def run_compiled(path, inputs):
    from ai_edge_litert.compiled_model import CompiledModel
    from ai_edge_litert.cpu_kernel_mode import CpuKernelMode
    from ai_edge_litert.options import Options
    options = Options.create()
    options.cpu_options.kernel_mode = CpuKernelMode.REFERENCE
    cm = CompiledModel.from_file(path, options=options)
    ins, outs = cm.create_input_buffers(0), cm.create_output_buffers(0)
    for buffer, a in zip(ins, inputs):
        buffer.write(a)
    cm.run_by_index(0, ins, outs)
    return [outs[0].read(8, np.float32).reshape(2, 4), outs[1].read(24, np.float32).reshape(3, 8)]


def litert_outcome(path):
    """What LiteRT's CompiledModel does with the model at `path`, in a child (it may abort)."""
    code = ("import sys, numpy as np; sys.path.insert(0, %r); import make_external_buffers as m\n"
            "o = m.run_compiled(%r, [m.X, m.IDS]); print('OK' if all(np.array_equal(a, b) for a, b in "
            "zip(o, [np.load(%r), np.load(%r)])) else 'DIFFERENT OUTPUTS')"
            % (os.path.dirname(os.path.abspath(__file__)), path, os.path.join(DEST, "out0.npy"), os.path.join(DEST, "out1.npy")))
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if child.returncode == 0:
        return child.stdout.strip()
    lines = [l.lstrip("└ ") for l in child.stderr.splitlines()
             if l.startswith("└ ") and "ERROR" not in l and "shared library" not in l or l.startswith("RuntimeError")]
    return "refused: " + (lines[-1] if lines else "exit status %d" % child.returncode)


def main():
    os.makedirs(os.path.join(DEST, "extra"), exist_ok=True)
    for name, content in group_files().items():
        with open(os.path.join(DEST, name), "wb") as f:
            f.write(content)
    with open(os.path.join(DEST, "model.tflite"), "wb") as f:
        f.write(model())
    inline = model(external=False)
    with open(os.path.join(DEST, "inline.tflite"), "wb") as f:
        f.write(inline)
    np.save(os.path.join(DEST, "in0.npy"), X)
    np.save(os.path.join(DEST, "in1.npy"), IDS)
    goldens = run_compiled(os.path.join(DEST, "model.tflite"), [X, IDS])
    for k, g in enumerate(goldens):
        np.save(os.path.join(DEST, "out%d.npy" % k), g)
    for g, i in zip(goldens, run_compiled(os.path.join(DEST, "inline.tflite"), [X, IDS])):
        assert np.array_equal(g, i), "LiteRT's outputs differ between the external and inline forms"
    # The Interpreter's reference FULLY_CONNECTED sums in another order than the CompiledModel's.
    differences = [float(np.max(np.abs(g - i))) for g, i in zip(goldens, zoo.run_litert(inline, [X, IDS]))]
    assert max(differences) < 1e-6, differences
    print("model.tflite: the outputs of inline.tflite; the Interpreter's differ by at most", differences)
    for name, (edit, what) in VARIANTS.items():
        path = os.path.join(DEST, name + ".tflite")
        with open(path, "wb") as f:
            f.write(model(edit=edit))
        outcome = "(not a real path)" if name == "absolute-path" else litert_outcome(path)
        print("%-22s %-55s LiteRT: %s" % (name, what, outcome))


if __name__ == "__main__":
    main()
