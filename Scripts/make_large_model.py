"""Builds the fixture of the large-model test (Tests/Fixtures/large): an EMBEDDING_LOOKUP over a
float32 table of 600,000 x 1,024 values (2.46 GB) whose data lies after the FlatBuffer,
addressed by `Buffer.offset` and `Buffer.size` as LiteRT writes models past 2 GB.

Only the FlatBuffer part is kept (`header.tflite`); the test writes the whole model as a sparse
file, the header then the rows it looks up (see `rows()` below), the rest a hole, and compares
with LiteRT's output on the same file (`out0.npy`, made here).
"""
import os
import tempfile

import flatbuffers
import numpy as np
from ai_edge_litert import interpreter as litert
from ai_edge_litert import schema_py_generated as S

ROWS, COLUMNS, DATA_OFFSET = 600_000, 1024, 1 << 16
IDS = [5, 299_999, 599_999]
HERE = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "large")


def rows():
    """The values the test writes for the looked-up rows: row r, column c holds r + c / 1024."""
    return {r: (r + np.arange(COLUMNS, dtype=np.float64) / COLUMNS).astype(np.float32) for r in IDS}


def header():
    m = S.ModelT()
    m.version, m.description = 3, "large-model fixture"
    code = S.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = S.BuiltinOperator.EMBEDDING_LOOKUP
    code.version = 1
    m.operatorCodes = [code]
    table = S.BufferT()
    table.offset, table.size = DATA_OFFSET, ROWS * COLUMNS * 4
    m.buffers = [S.BufferT(), table]
    g = S.SubGraphT()

    def tensor(name, dtype, shape, buffer=0):
        t = S.TensorT()
        t.name, t.type, t.shape, t.buffer = name, dtype, shape, buffer
        return t
    g.tensors = [tensor("ids", S.TensorType.INT32, [len(IDS)]), tensor("table", S.TensorType.FLOAT32, [ROWS, COLUMNS], 1),
                 tensor("rows", S.TensorType.FLOAT32, [len(IDS), COLUMNS])]
    op = S.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0, 1], [2]
    g.operators, g.inputs, g.outputs = [op], [0], [2]
    m.subgraphs = [g]
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    data = bytes(b.Output())
    assert len(data) <= DATA_OFFSET
    return data


def write_model(path, head):
    with open(path, "wb") as f:
        f.write(head)
        for r, values in rows().items():
            f.seek(DATA_OFFSET + r * COLUMNS * 4)
            f.write(values.tobytes())
        f.truncate(DATA_OFFSET + ROWS * COLUMNS * 4)


def main():
    os.makedirs(HERE, exist_ok=True)
    head = header()
    with open(os.path.join(HERE, "header.tflite"), "wb") as f:
        f.write(head)
    ids = np.array(IDS, np.int32)
    np.save(os.path.join(HERE, "in0.npy"), ids)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "large.tflite")
        write_model(path, head)
        it = litert.Interpreter(model_path=path, experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], ids)
        it.invoke()
        out = it.get_tensor(it.get_output_details()[0]["index"])
    np.save(os.path.join(HERE, "out0.npy"), out)
    print("file size", DATA_OFFSET + ROWS * COLUMNS * 4, "output", out.shape, out[:, :3])


if __name__ == "__main__":
    main()
