"""Int4 conversions LiteRT 2.3 runs: CAST from INT4 to FLOAT32 and from FLOAT32 to INT4 (clamped
to -8...7 and truncated; NaN becomes 7), and QUANTIZE of FLOAT32 into INT4 with one scale and
zero point, whose int4 outputs a DEQUANTIZE or CAST turns back into floats."""
import numpy as np
import zoo
from int4 import pack_int4

S = zoo.S
B = S.BuiltinOperator
INT4 = S.TensorType.INT4
rs = np.random.RandomState(46)


def cast_from_int4(shape):
    """y = CAST(int4 constant) + x."""
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, shape)
    w = g.tensor("w", INT4, shape, data=pack_int4(rs.randint(-8, 8, size=shape)))
    f = g.tensor("w_float", np.float32, shape)
    g.op(B.CAST, [w], [f])
    y = g.tensor("y", np.float32, shape)
    g.op(B.ADD, [f, x], [y], S.AddOptionsT(), S.BuiltinOptions.AddOptions)
    g.output(y)
    return m


def round_trip(shape, quantize):
    """x to INT4 (QUANTIZE, or CAST) and back to FLOAT32 (DEQUANTIZE, or CAST)."""
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, shape)
    q = g.tensor("q", INT4, shape, quant=(0.5, -1) if quantize else None)
    y = g.tensor("y", np.float32, shape)
    if quantize:
        g.op(B.QUANTIZE, [x], [q])
        g.op(B.DEQUANTIZE, [q], [y])
    else:
        g.op(B.CAST, [x], [q])
        g.op(B.CAST, [q], [y])
    g.output(y)
    return m


def cases():
    special = np.array([np.nan, np.inf, -np.inf, -0.5, 0.5, -7.9, 7.9, -8.5, 1e9, -1e9], np.float32)
    return [
        zoo.Case("opzoo_cast_int4_to_float32", cast_from_int4([3, 5]), [rs.randn(3, 5).astype(np.float32)],
                 notes="15 values: the last byte is half padding"),
        zoo.Case("opzoo_cast_float32_to_int4", round_trip([3, 7], quantize=False),
                 [np.concatenate([special, (rs.randn(11) * 6).astype(np.float32)]).reshape(3, 7)],
                 notes="NaN, infinities and values past -8...7"),
        zoo.Case("opzoo_quantize_float32_to_int4", round_trip([2, 9], quantize=True),
                 [np.concatenate([np.array([-0.75, -0.25, 0.25, 0.75, 3.25, -4.75, 100, -100], np.float32),
                                  (rs.randn(10) * 2).astype(np.float32)]).reshape(2, 9)],
                 notes="halves round away from zero; values past the int4 range clamp"),
    ]
