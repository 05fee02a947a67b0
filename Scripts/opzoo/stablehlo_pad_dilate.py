"""STABLEHLO_PAD (edge padding low and high, interior padding, negative edges that crop) and
DILATE (interior padding with a padding value; dilations constant or computed at run time)."""
import numpy as np
import zoo

S = zoo.S
OP = S.BuiltinOperator
TYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
         np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]


def pad(dtype, shape, low, high, interior, out_shape, value_input=False):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", dtype, shape)
    v = g.input("value", dtype, []) if value_input else g.const("value", np.array(7, dtype))
    y = g.tensor("y", dtype, out_shape)
    o = S.StablehloPadOptionsT()
    o.edgePaddingLow, o.edgePaddingHigh, o.interiorPadding = low, high, interior
    g.op(OP.STABLEHLO_PAD, [x, v], [y], o, 0x100 + S.BuiltinOptions2.StablehloPadOptions)
    g.output(y)
    return m


def dilate(dtype, shape, dilations, out_shape, dynamic=False):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", dtype, shape)
    d = g.input("dilations", np.int32, [len(shape)]) if dynamic else g.const("dilations", np.array(dilations, np.int32))
    v = g.const("value", np.array(5, dtype))
    y = g.tensor("y", dtype, out_shape)
    g.op(OP.DILATE, [x, d, v], [y], S.DilateOptionsT(), 0x100 + S.BuiltinOptions2.DilateOptions)
    g.output(y)
    return m


def values(rs, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rs.rand(*shape) < 0.5
    if dtype.kind == "f":
        return rs.randn(*shape).astype(dtype)
    info = np.iinfo(dtype)
    return rs.randint(max(info.min, -100), min(int(info.max), 100) + 1, size=shape).astype(dtype)


def padded(shape, low, high, interior):
    return [n + max(n - 1, 0) * i + lo + hi for n, lo, hi, i in zip(shape, low, high, interior)]


def cases():
    rs = np.random.RandomState(13)
    out = []
    # Every type: low, high and interior padding on a [2, 3] operand.
    for dtype in TYPES:
        shape, low, high, interior = [2, 3], [1, 0], [0, 2], [1, 1]
        out.append(zoo.Case("opzoo_stablehlo_pad_%s" % np.dtype(dtype).name,
                            pad(dtype, shape, low, high, interior, padded(shape, low, high, interior)),
                            [values(rs, dtype, shape)]))
    # Negative edges crop the interior-padded operand (here into the interior padding).
    for name, shape, low, high, interior in [
            ("crop", [3, 4], [-1, 0], [0, -2], [0, 0]),
            ("crop_interior", [2, 3], [1, -1], [1, -2], [0, 3]),
            ("crop_both_ends", [2, 5], [0, -2], [0, -3], [0, 1]),
            ("rank3", [2, 2, 3], [0, 1, -1], [1, 0, 1], [1, 0, 2]),
            ("rank1_empty", [3], [-2], [-1], [0])]:
        out.append(zoo.Case("opzoo_stablehlo_pad_float32_%s" % name,
                            pad(np.float32, shape, low, high, interior, padded(shape, low, high, interior)),
                            [values(rs, np.float32, shape)]))
    shape, low, high, interior = [2, 2], [1, 1], [1, 1], [1, 0]
    out.append(zoo.Case("opzoo_stablehlo_pad_int32_value_input",
                        pad(np.int32, shape, low, high, interior, padded(shape, low, high, interior), value_input=True),
                        [values(rs, np.int32, shape), np.array(-9, np.int32)]))
    for dtype in TYPES:
        shape, d = [2, 3], [2, 3]
        out.append(zoo.Case("opzoo_dilate_%s" % np.dtype(dtype).name,
                            dilate(dtype, shape, d, [(n - 1) * f + 1 for n, f in zip(shape, d)]),
                            [values(rs, dtype, shape)]))
    out.append(zoo.Case("opzoo_dilate_float32_rank4", dilate(np.float32, [1, 2, 2, 3], [1, 2, 1, 2], [1, 3, 2, 5]),
                        [values(rs, np.float32, [1, 2, 2, 3])]))
    out.append(zoo.Case("opzoo_dilate_int8_dynamic", dilate(np.int8, [2, 3], None, [1, 1], dynamic=True),
                        [values(rs, np.int8, [2, 3]), np.array([3, 2], np.int32)],
                        notes="dilations computed at run time: the output is sized at each invocation"))
    return out
