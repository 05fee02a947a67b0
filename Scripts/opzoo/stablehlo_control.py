"""STABLEHLO_CASE (a branch subgraph chosen by an int32 index; an index out of range selects the
last branch) and STABLEHLO_COMPOSITE (its decomposition subgraph called with the node's
operands)."""
import numpy as np
from flatbuffers import flexbuffers
import zoo

S = zoo.S
OP = S.BuiltinOperator
NOT_IN_REF = "BUILTIN_REF lacks STABLEHLO_CASE; the default resolver runs LiteRT's only kernel for it"


def unary_branch(m, name, dtype, shape, op):
    """A branch of one operand: `op(x, x)`, or `x` itself when op is None."""
    g = m.graph(name)
    x = g.input("x", dtype, shape)
    if op is None:
        g.output(x)
        return
    y = g.tensor("y", dtype, shape)
    g.op(op, [x, x], [y])
    g.output(y)


def case(dtype, shape, branch_ops):
    m = zoo.Model()
    g = m.graph()
    index = g.input("index", np.int32, [])
    x = g.input("x", dtype, shape)
    y = g.tensor("y", dtype, shape)
    o = S.StablehloCaseOptionsT()
    o.branchSubgraphIndices = list(range(1, len(branch_ops) + 1))
    g.op(OP.STABLEHLO_CASE, [index, x], [y], o, 0x100 + S.BuiltinOptions2.StablehloCaseOptions)
    g.output(y)
    for k, op in enumerate(branch_ops):
        unary_branch(m, "branch%d" % k, dtype, shape, op)
    return m


def case_two_values(shape):
    """Branches taking (a, b) and returning two values: (a + b, a * b), then (b, a)."""
    m = zoo.Model()
    g = m.graph()
    index = g.input("index", np.int32, [1])
    a, b = g.input("a", np.float32, shape), g.input("b", np.float32, shape)
    y0, y1 = g.tensor("y0", np.float32, shape), g.tensor("y1", np.float32, shape)
    o = S.StablehloCaseOptionsT()
    o.branchSubgraphIndices = [2, 1]
    g.op(OP.STABLEHLO_CASE, [index, a, b], [y0, y1], o, 0x100 + S.BuiltinOptions2.StablehloCaseOptions)
    g.output(y0, y1)
    swap = m.graph("swap")
    p, q = swap.input("a", np.float32, shape), swap.input("b", np.float32, shape)
    swap.output(q, p)
    arith = m.graph("arith")
    p, q = arith.input("a", np.float32, shape), arith.input("b", np.float32, shape)
    s, t = arith.tensor("sum", np.float32, shape), arith.tensor("product", np.float32, shape)
    arith.op(OP.STABLEHLO_ADD, [p, q], [s])
    arith.op(OP.STABLEHLO_MULTIPLY, [p, q], [t])
    arith.output(s, t)
    return m


def composite(dtype, shape):
    """`x * y + x` as the decomposition of a composite, with its `x * y` also returned."""
    m = zoo.Model()
    g = m.graph()
    x, y = g.input("x", dtype, shape), g.input("y", dtype, shape)
    out, product = g.tensor("out", dtype, shape), g.tensor("product", dtype, shape)
    o = S.StableHLOCompositeOptionsT()
    o.name, o.decompositionSubgraphIndex, o.version = "odml.zoo_fma", 1, 1
    # LiteRT requires the attributes, a FlexBuffer map; they do not change the decomposition.
    o.compositeAttributes = list(flexbuffers.Dumps({"kind": "fma"}))
    g.op(OP.STABLEHLO_COMPOSITE, [x, y], [out, product], o, 0x100 + S.BuiltinOptions2.StableHLOCompositeOptions)
    g.output(out, product)
    d = m.graph("decomposition")
    p, q = d.input("x", dtype, shape), d.input("y", dtype, shape)
    t, r = d.tensor("t", dtype, shape), d.tensor("r", dtype, shape)
    d.op(OP.STABLEHLO_MULTIPLY, [p, q], [t])
    d.op(OP.STABLEHLO_ADD, [t, p], [r])
    d.output(r, t)
    return m


def cases():
    rs = np.random.RandomState(29)
    out = []
    x = rs.randn(2, 3).astype(np.float32)
    model = case(np.float32, [2, 3], [OP.STABLEHLO_ADD, OP.STABLEHLO_MULTIPLY, None])
    for index in [0, 1, 2, 7, -1]:
        tag = str(index) if index >= 0 else "negative"
        out.append(zoo.Case("opzoo_stablehlo_case_float32_index_%s" % tag, model, [np.array(index, np.int32), x],
                            resolver="BUILTIN", notes=NOT_IN_REF))
    xi = rs.randint(-50, 50, size=(4,)).astype(np.int32)
    out.append(zoo.Case("opzoo_stablehlo_case_int32", case(np.int32, [4], [OP.STABLEHLO_MAXIMUM, OP.STABLEHLO_ADD]),
                        [np.array(1, np.int32), xi], resolver="BUILTIN", notes=NOT_IN_REF))
    a, b = rs.randn(3).astype(np.float32), rs.randn(3).astype(np.float32)
    for index in [0, 1]:
        out.append(zoo.Case("opzoo_stablehlo_case_two_values_index_%d" % index, case_two_values([3]),
                            [np.array([index], np.int32), a, b], resolver="BUILTIN", notes=NOT_IN_REF))
    for dtype in [np.float32, np.int32]:
        v = [rs.randn(2, 2).astype(dtype) * 3 for _ in range(2)]
        out.append(zoo.Case("opzoo_stablehlo_composite_%s" % np.dtype(dtype).name, composite(dtype, [2, 2]), v))
    return out
