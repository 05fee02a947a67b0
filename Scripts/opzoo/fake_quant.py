"""FAKE_QUANT: float values rounded to the nudged grid of [min, max]."""
import numpy as np
import zoo

S = zoo.S


def model(shape, lo, hi, bits):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, shape)
    y = g.tensor("y", np.float32, shape)
    o = S.FakeQuantOptionsT()
    o.min, o.max, o.numBits, o.narrowRange = lo, hi, bits, False
    g.op(S.BuiltinOperator.FAKE_QUANT, [x], [y], o, S.BuiltinOptions.FakeQuantOptions)
    g.output(y)
    return m


def cases():
    rs = np.random.RandomState(5)
    x = (rs.randn(4, 16) * 2).astype(np.float32)
    return [
        zoo.Case("opzoo_fake_quant_8bit", model([4, 16], -3.1, 2.7, 8), [x], tolerance={"kind": "exact"},
                 notes="exact: the same float operations in the same order"),
        zoo.Case("opzoo_fake_quant_4bit_nudged", model([4, 16], -0.37, 5.9, 4), [x], tolerance={"kind": "exact"},
                 notes="min/scale is not an integer, so the range is nudged"),
        zoo.Case("opzoo_fake_quant_16bit", model([4, 16], -1.0, 1.0, 16), [x], tolerance={"kind": "exact"}),
    ]
