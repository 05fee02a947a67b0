"""STABLEHLO_GATHER (start indices clamped into the operand; offset and batch axes interleaved;
index_vector_dim first, inner or implicit) and STABLEHLO_SCATTER (update computations: none,
add, multiply, maximum, minimum; repeated indices combine in order; targets outside the
operand are skipped)."""
import numpy as np
import zoo

S = zoo.S
OP = S.BuiltinOperator
TYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
         np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]


def gather(dtype, shape, index_dtype, index_shape, offset_dims, collapsed, start_map, ivd, slices, out_shape):
    m = zoo.Model()
    g = m.graph()
    x = g.input("operand", dtype, shape)
    i = g.input("start_indices", index_dtype, index_shape)
    y = g.tensor("y", dtype, out_shape)
    o = S.StablehloGatherOptionsT()
    o.offsetDims, o.collapsedSliceDims, o.startIndexMap, o.indexVectorDim, o.sliceSizes = offset_dims, collapsed, start_map, ivd, slices
    g.op(OP.STABLEHLO_GATHER, [x, i], [y], o, 0x100 + S.BuiltinOptions2.StablehloGatherOptions)
    g.output(y)
    return m


def scatter(dtype, shape, index_dtype, index_shape, updates_shape, window_dims, inserted, to_operand, ivd, body_op):
    m = zoo.Model()
    g = m.graph()
    x = g.input("operand", dtype, shape)
    i = g.input("scatter_indices", index_dtype, index_shape)
    u = g.input("updates", dtype, updates_shape)
    y = g.tensor("y", dtype, shape)
    o = S.StablehloScatterOptionsT()
    o.updateWindowDims, o.insertedWindowDims, o.scatterDimsToOperandDims = window_dims, inserted, to_operand
    o.indexVectorDim, o.updateComputationSubgraphIndex = ivd, 1
    g.op(OP.STABLEHLO_SCATTER, [x, i, u], [y], o, 0x100 + S.BuiltinOptions2.StablehloScatterOptions)
    g.output(y)
    b = m.graph("update_computation")
    lhs, rhs = b.input("operand_value", dtype, []), b.input("update_value", dtype, [])
    if body_op is None:
        b.output(rhs)
    else:
        r = b.tensor("result", dtype, [])
        b.op(body_op, [lhs, rhs], [r])
        b.output(r)
    return m


def values(rs, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rs.rand(*shape) < 0.5
    if dtype.kind == "f":
        return rs.randn(*shape).astype(dtype)
    lo = 0 if dtype.kind == "u" else -20
    return rs.randint(lo, 21, size=shape).astype(dtype)


def cases():
    rs = np.random.RandomState(19)
    out = []
    # Rows of a [5, 3] operand; -2 and 9 are clamped to the first and last row.
    rows = np.array([[3], [-2], [9], [1]], np.int32)
    for dtype in TYPES:
        out.append(zoo.Case("opzoo_stablehlo_gather_%s" % np.dtype(dtype).name,
                            gather(dtype, [5, 3], np.int32, [4, 1], [1], [0], [0], 1, [1, 3], [4, 3]),
                            [values(rs, dtype, [5, 3]), rows]))
    # Two index components into axes 0 and 2 of a [3, 4, 5] operand, the index vector in the
    # middle of the indices, offset axes interleaved with batch axes.
    idx = np.array([[[0, 1, 2], [1, 3, 0]], [[2, 0, 4], [0, 2, 1]]], np.int64)  # [2, 2, 3], index_vector_dim 1
    out.append(zoo.Case("opzoo_stablehlo_gather_float32_interleaved",
                        gather(np.float32, [3, 4, 5], np.int64, [2, 2, 3], [1, 3], [0], [0, 2], 1, [1, 2, 3], [2, 2, 3, 3]),
                        [values(rs, np.float32, [3, 4, 5]), idx]))
    # LiteRT 2.3.0 segfaults on this case in most runs (an implicit index vector dimension);
    # the stored golden is from a run that completed, and agrees with the op's definition.
    out.append(zoo.Case("opzoo_stablehlo_gather_int32_implicit_index_vector",
                        gather(np.int32, [6, 2], np.int32, [3], [1], [0], [0], 1, [1, 2], [3, 2]),
                        [values(rs, np.int32, [6, 2]), np.array([5, 0, 2], np.int32)]))
    out.append(zoo.Case("opzoo_stablehlo_gather_int8_index_vector_first",
                        gather(np.int8, [4, 4], np.int64, [2, 3], [1, 2], [], [0, 1], 0, [2, 2], [3, 2, 2]),
                        [values(rs, np.int8, [4, 4]), np.array([[0, 3, 1], [1, 2, -1]], np.int64)]))

    # Rows 3, 1, 3 again (combined in order), and 7 and -1 outside the operand (skipped).
    targets = np.array([[3], [1], [3], [7], [-1]], np.int32)
    for dtype in TYPES:
        out.append(zoo.Case("opzoo_stablehlo_scatter_add_%s" % np.dtype(dtype).name,
                            scatter(dtype, [5, 3], np.int32, [5, 1], [5, 3], [1], [0], [0], 1, OP.STABLEHLO_ADD),
                            [values(rs, dtype, [5, 3]), targets, values(rs, dtype, [5, 3])]))
    for tag, op in [("update", None), ("multiply", OP.STABLEHLO_MULTIPLY), ("maximum", OP.STABLEHLO_MAXIMUM),
                    ("minimum", OP.STABLEHLO_MINIMUM)]:
        for dtype in [np.float32, np.int32]:
            out.append(zoo.Case("opzoo_stablehlo_scatter_%s_%s" % (tag, np.dtype(dtype).name),
                                scatter(dtype, [5, 3], np.int64, [5, 1], [5, 3], [1], [0], [0], 1, op),
                                [values(rs, dtype, [5, 3]), targets.astype(np.int64), values(rs, dtype, [5, 3])]))
    # [2, 2] windows into a [4, 5, 3] operand at (axis 0, axis 1) starts, axis 0 inserted; the
    # start (1, 4) puts half of its window past axis 1's end, which is skipped element by element.
    starts = np.array([[0, 1], [2, 3], [1, 4]], np.int32)
    out.append(zoo.Case("opzoo_stablehlo_scatter_add_float32_windows",
                        scatter(np.float32, [4, 5, 3], np.int32, [3, 2], [3, 2, 2], [1, 2], [0], [0, 1], 1, OP.STABLEHLO_ADD),
                        [values(rs, np.float32, [4, 5, 3]), starts, values(rs, np.float32, [3, 2, 2])]))
    out.append(zoo.Case("opzoo_stablehlo_scatter_update_int16_implicit_index_vector",
                        scatter(np.int16, [6], np.int32, [4], [4], [], [0], [0], 1, None),
                        [values(rs, np.int16, [6]), np.array([5, 0, 2, 0], np.int32), values(rs, np.int16, [4])]))
    return out
