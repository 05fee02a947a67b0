"""STABLEHLO_REDUCE_WINDOW (window strides and dilations, base dilation, padding that may crop;
the reduction named by a one-operator body subgraph) and the TFLite REDUCE_WINDOW (window
shape, strides and dilations as constant int64 inputs, the reduction an enum)."""
import numpy as np
import zoo

S = zoo.S
OP = S.BuiltinOperator
TYPES = [np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]


def window_output(shape, window, strides, base, wdil, padding):
    out = []
    for d, n in enumerate(shape):
        n = n + max(n - 1, 0) * (base[d] - 1) + padding[2 * d] + padding[2 * d + 1]
        span = (window[d] - 1) * wdil[d] + 1
        out.append(0 if n < span else (n - span) // strides[d] + 1)
    return out


def body(m, dtype, op):
    """A region subgraph: two scalars in, `op` of them out."""
    g = m.graph("body")
    a, b = g.input("lhs", dtype, []), g.input("rhs", dtype, [])
    y = g.tensor("result", dtype, [])
    if op == OP.ADD:
        g.op(op, [a, b], [y], S.AddOptionsT(), S.BuiltinOptions.AddOptions)
    elif op == OP.MUL:
        g.op(op, [a, b], [y], S.MulOptionsT(), S.BuiltinOptions.MulOptions)
    else:
        g.op(op, [a, b], [y])
    g.output(y)


def hlo(dtype, shape, window, body_op, init, strides=None, base=None, wdil=None, padding=None):
    rank = len(shape)
    strides, base, wdil = strides or [1] * rank, base or [1] * rank, wdil or [1] * rank
    padding = padding or [0] * (2 * rank)
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", dtype, shape)
    v = g.const("init", np.array(init, dtype))
    y = g.tensor("y", dtype, window_output(shape, window, strides, base, wdil, padding))
    o = S.StablehloReduceWindowOptionsT()
    o.windowDimensions, o.windowStrides, o.baseDilations, o.windowDilations, o.padding = window, strides, base, wdil, padding
    o.bodySubgraphIndex = 1
    g.op(OP.STABLEHLO_REDUCE_WINDOW, [x, v], [y], o, 0x100 + S.BuiltinOptions2.StablehloReduceWindowOptions)
    g.output(y)
    body(m, dtype, body_op)
    return m


def tflite(dtype, shape, window, strides, wdil, function, init):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", dtype, shape)
    v = g.const("init", np.array(init, dtype))
    w, s, d = (g.const(n, np.array(a, np.int64)) for n, a in [("window", window), ("strides", strides), ("dilations", wdil)])
    y = g.tensor("y", dtype, window_output(shape, window, strides, [1] * len(shape), wdil, [0] * (2 * len(shape))))
    o = S.ReduceWindowOptionsT()
    o.reduceFunction = function
    g.op(OP.REDUCE_WINDOW, [x, v, w, s, d], [y], o, 0x100 + S.BuiltinOptions2.ReduceWindowOptions)
    g.output(y)
    return m


def values(rs, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rs.rand(*shape) < 0.3
    if dtype.kind == "f":
        return rs.randn(*shape).astype(dtype)
    lo = 0 if dtype.kind == "u" else -5
    return rs.randint(lo, 6, size=shape).astype(dtype)


def cases():
    rs = np.random.RandomState(17)
    out = []
    shape = [3, 4]
    # Each type under a sum (or a logical reduction for bool) and a maximum, with strides,
    # dilations and padding on.
    for dtype in TYPES:
        name = np.dtype(dtype).name
        first = (OP.LOGICAL_OR, False) if dtype == np.bool_ else (OP.STABLEHLO_ADD, 0)
        out.append(zoo.Case("opzoo_stablehlo_reduce_window_%s" % name,
                            hlo(dtype, shape, [2, 2], first[0], first[1], strides=[1, 2], padding=[1, 0, 0, 1]),
                            [values(rs, dtype, shape)]))
        low = False if dtype == np.bool_ else (-100 if np.dtype(dtype).kind != "u" else 0)
        out.append(zoo.Case("opzoo_stablehlo_reduce_window_max_%s" % name,
                            hlo(dtype, shape, [2, 3], OP.STABLEHLO_MAXIMUM, low, wdil=[1, 1], base=[2, 1]),
                            [values(rs, dtype, shape)]))
    # Every recognised body, TFLite's and StableHLO's operators.
    for tag, op, dtype, init in [("add", OP.ADD, np.float32, 0.5), ("mul", OP.MUL, np.float32, 1),
                                 ("multiply", OP.STABLEHLO_MULTIPLY, np.int32, 1), ("maximum", OP.MAXIMUM, np.float32, -9),
                                 ("minimum", OP.MINIMUM, np.int16, 50), ("stablehlo_minimum", OP.STABLEHLO_MINIMUM, np.float64, 9),
                                 ("logical_and", OP.LOGICAL_AND, np.bool_, True), ("and", OP.STABLEHLO_AND, np.bool_, True)]:
        # A model using STABLEHLO_AND only loads with the default resolver; the reduce-window
        # kernel is the same.
        extra = dict(resolver="BUILTIN", notes="BUILTIN_REF lacks STABLEHLO_AND, the body's operator") if op == OP.STABLEHLO_AND else {}
        out.append(zoo.Case("opzoo_stablehlo_reduce_window_body_%s" % tag,
                            hlo(dtype, [2, 3, 4], [1, 2, 2], op, init, strides=[1, 1, 2], wdil=[1, 1, 2]),
                            [values(rs, dtype, [2, 3, 4])], **extra))
    # Base dilation with crops and window dilation together.
    out.append(zoo.Case("opzoo_stablehlo_reduce_window_float32_dilated_cropped",
                        hlo(np.float32, [4, 5], [2, 2], OP.STABLEHLO_ADD, 0, strides=[1, 2], base=[2, 2], wdil=[2, 1],
                            padding=[-1, 2, 1, -2]),
                        [values(rs, np.float32, [4, 5])]))
    out.append(zoo.Case("opzoo_stablehlo_reduce_window_int64_rank1_window_too_large",
                        hlo(np.int64, [3], [5], OP.STABLEHLO_ADD, 0), [values(rs, np.int64, [3])]))
    fn = S.ReduceWindowFunction
    for dtype in TYPES:
        name = np.dtype(dtype).name
        f, init = (fn.ANY, False) if dtype == np.bool_ else (fn.ADD, 1)
        out.append(zoo.Case("opzoo_reduce_window_%s" % name, tflite(dtype, [3, 5], [2, 2], [1, 2], [1, 1], f, init),
                            [values(rs, dtype, [3, 5])]))
    for tag, f, dtype, init in [("mul", fn.MUL, np.float32, 1), ("minimum", fn.MINIMUM, np.int32, 9),
                                ("maximum", fn.MAXIMUM, np.float64, -9), ("all", fn.ALL, np.int8, 1)]:
        out.append(zoo.Case("opzoo_reduce_window_%s" % tag, tflite(dtype, [2, 4, 4], [1, 2, 2], [1, 1, 2], [1, 2, 1], f, init),
                            [values(rs, dtype, [2, 4, 4])]))
    return out
