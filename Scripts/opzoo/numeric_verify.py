"""NumericVerify (the converter's debug op): dequantised input minus the float reference."""
import numpy as np
from flatbuffers import flexbuffers
import zoo


def model(dtype, shape, quant, tolerance, log_if_failed):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", dtype, shape, quant=quant)
    r = g.input("reference", np.float32, shape)
    y = g.tensor("diff", np.float32, shape)
    options = flexbuffers.Dumps({"tolerance": tolerance, "log_if_failed": log_if_failed})
    g.op(None, [x, r], [y], custom="NumericVerify", custom_options=options)
    g.output(y)
    return m


def cases():
    rs = np.random.RandomState(41)
    out = []
    for name, dtype, quant in (("int8", np.int8, (0.05, -3)), ("uint8", np.uint8, (0.1, 128)), ("int16", np.int16, (0.001, 0))):
        info = np.iinfo(dtype)
        q = rs.randint(info.min, info.max + 1, (3, 8)).astype(dtype)
        reference = ((q.astype(np.float64) - quant[1]) * quant[0] + rs.randn(3, 8) * quant[0] * 0.2).astype(np.float32)
        out.append(zoo.Case("opzoo_numeric_verify_" + name, model(dtype, [3, 8], quant, 5.0, True), [q, reference],
                            notes="within tolerance: the output is the differences"))
    return out
