"""STABLEHLO_ADD, MULTIPLY, MAXIMUM, MINIMUM (every type LiteRT runs them on), AND (integers
and bool) and SHIFT_LEFT (int8, int16, int32): two operands of one shape, no broadcasting."""
import numpy as np
import zoo

S = zoo.S
OP = S.BuiltinOperator
ARITHMETIC = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]
INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
SHAPE = [2, 3]
NOT_IN_REF = "BUILTIN_REF lacks this op; the default resolver runs LiteRT's only kernel for it"


def binary(op, dtype, shape=SHAPE):
    m = zoo.Model()
    g = m.graph()
    a, b = g.input("a", dtype, shape), g.input("b", dtype, shape)
    y = g.tensor("y", dtype, shape)
    g.op(op, [a, b], [y])
    g.output(y)
    return m


def values(rs, dtype, shape=SHAPE):
    """Random operands spanning each type's range (integer sums and products wrap)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rs.rand(*shape) < 0.5
    if dtype.kind == "f":
        return (rs.randn(*shape) * 4).astype(dtype)
    info = np.iinfo(dtype)
    return rs.randint(info.min, int(info.max) + 1, size=shape, dtype=dtype)


def cases():
    rs = np.random.RandomState(11)
    out = []
    for name, op in [("add", OP.STABLEHLO_ADD), ("multiply", OP.STABLEHLO_MULTIPLY),
                     ("maximum", OP.STABLEHLO_MAXIMUM), ("minimum", OP.STABLEHLO_MINIMUM)]:
        for dtype in ARITHMETIC:
            out.append(zoo.Case("opzoo_stablehlo_%s_%s" % (name, np.dtype(dtype).name), binary(op, dtype),
                                [values(rs, dtype), values(rs, dtype)]))
        # std::max / std::min keep a NaN on the left and drop one on the right.
        nan = np.array([[np.nan, 1, np.nan], [-0.0, 0.0, 2]], np.float32)
        other = np.array([[1, np.nan, np.nan], [0.0, -0.0, -3]], np.float32)
        if name in ("maximum", "minimum"):
            out.append(zoo.Case("opzoo_stablehlo_%s_float32_nan" % name, binary(op, np.float32), [nan, other]))
    for dtype in INTEGERS + [np.bool_]:
        out.append(zoo.Case("opzoo_stablehlo_and_%s" % np.dtype(dtype).name, binary(OP.STABLEHLO_AND, dtype),
                            [values(rs, dtype), values(rs, dtype)], resolver="BUILTIN", notes=NOT_IN_REF))
    for dtype in [np.int8, np.int16, np.int32]:
        bits = np.dtype(dtype).itemsize * 8
        # Counts within 0..<bits (beyond, C++ leaves the shift undefined); int8 and int16
        # shift in int, so counts up to 31 are defined for them and give 0 past their width.
        limit = 32 if bits < 32 else bits
        counts = rs.randint(0, limit, size=SHAPE).astype(dtype)
        out.append(zoo.Case("opzoo_stablehlo_shift_left_%s" % np.dtype(dtype).name, binary(OP.STABLEHLO_SHIFT_LEFT, dtype),
                            [values(rs, dtype), counts], resolver="BUILTIN", notes=NOT_IN_REF))
    return out
