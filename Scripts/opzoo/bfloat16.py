"""BFLOAT16 where LiteRT 2.3 has kernels for it: CAST to and from float32, FLOOR, NEG,
LOGISTIC, TANH, MAXIMUM, MINIMUM, GREATER and LESS (its other comparisons refuse bfloat16),
and the ops that move elements (RESHAPE, TRANSPOSE, GATHER, CONCATENATION). LiteRT's Python API cannot take or return bfloat16 arrays,
so each model casts its float32 inputs to bfloat16 and its bfloat16 results back."""
import numpy as np
import zoo

S = zoo.S
B = S.BuiltinOperator
BF16 = S.TensorType.BFLOAT16
rs = np.random.RandomState(46)


def wrapped(shape, body, outputs_bf16=True):
    """A model: float32 inputs x (and y) -> CAST to bf16 -> `body(g, xs)` -> CAST back."""
    m = zoo.Model()
    g = m.graph()
    xs = []
    for name in ("x", "y"):
        x = g.input(name, np.float32, shape)
        xb = g.tensor(name + "_bf16", BF16, shape)
        g.op(B.CAST, [x], [xb])
        xs.append(xb)
    results = body(g, xs)
    for k, r in enumerate(results):
        if g.sg.tensors[r].type == BF16:
            f = g.tensor("out%d" % k, np.float32, list(g.sg.tensors[r].shape))
            g.op(B.CAST, [r], [f])
            g.output(f)
        else:
            g.output(r)
    return m


def unary(op):
    def body(g, xs):
        y = g.tensor("r", BF16, g.sg.tensors[xs[0]].shape)
        g.op(op, [xs[0]], [y])
        return [y]
    return body


def binary(op, out_type=BF16):
    def body(g, xs):
        y = g.tensor("r", out_type, g.sg.tensors[xs[0]].shape)
        g.op(op, xs, [y])
        return [y]
    return body


def movers(g, xs):
    x = xs[0]
    r = g.tensor("reshaped", BF16, [4, 6])
    g.op(B.RESHAPE, [x, g.const("shape", np.array([4, 6], np.int32))], [r])
    t = g.tensor("transposed", BF16, [6, 4])
    g.op(B.TRANSPOSE, [r, g.const("perm", np.array([1, 0], np.int32))], [t])
    gathered = g.tensor("gathered", BF16, [3, 4])
    o = S.GatherOptionsT()
    g.op(B.GATHER, [t, g.const("rows", np.array([5, 0, 2], np.int32))], [gathered], o, S.BuiltinOptions.GatherOptions)
    c = g.tensor("joined", BF16, [2, 24])
    o = S.ConcatenationOptionsT()
    o.axis = 0
    g.op(B.CONCATENATION, xs, [c], o, S.BuiltinOptions.ConcatenationOptions)
    return [gathered, c]


def cases():
    def x(*shape):
        # Values that round in bfloat16 (8 significant bits), with halfway cases and a NaN-free spread.
        return (rs.randn(*shape) * 3).astype(np.float32)
    a, b = x(2, 12), x(2, 12)
    b[0, :4] = a[0, :4]  # equal pairs for the comparisons
    out = [zoo.Case("opzoo_bf16_cast_round_trip", wrapped([2, 12], lambda g, xs: list(xs)), [a, b],
                    notes="float32 -> bfloat16 rounds to nearest even")]
    for name, op in (("floor", B.FLOOR), ("neg", B.NEG), ("logistic", B.LOGISTIC), ("tanh", B.TANH)):
        out.append(zoo.Case("opzoo_bf16_" + name, wrapped([2, 12], unary(op)), [a, b]))
    for name, op in (("maximum", B.MAXIMUM), ("minimum", B.MINIMUM)):
        out.append(zoo.Case("opzoo_bf16_" + name, wrapped([2, 12], binary(op)), [a, b]))
    for name, op in (("greater", B.GREATER), ("less", B.LESS)):
        out.append(zoo.Case("opzoo_bf16_" + name, wrapped([2, 12], binary(op, np.bool_)), [a, b]))
    out.append(zoo.Case("opzoo_bf16_data_movement", wrapped([2, 12], movers), [a, b]))
    return out
