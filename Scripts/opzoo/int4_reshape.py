"""RESHAPE, SQUEEZE and EXPAND_DIMS of int4 tensors, which LiteRT 2.3 runs for any type by
copying the tensor's bytes (here two int4 values to a byte): float inputs quantised to int4,
reshaped, dequantised."""
import numpy as np
import zoo

S = zoo.S
B = S.BuiltinOperator
INT4 = S.TensorType.INT4
rs = np.random.RandomState(48)
QUANT = (0.25, 1)


def reshaping(shape, out_shape, kind):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, shape)
    q = g.tensor("q", INT4, shape, quant=QUANT)
    g.op(B.QUANTIZE, [x], [q])
    r = g.tensor("r", INT4, out_shape, quant=QUANT)
    if kind == "reshape":
        g.op(B.RESHAPE, [q, g.const("shape", np.array(out_shape, np.int32))], [r])
    elif kind == "squeeze":
        o = S.SqueezeOptionsT()
        o.squeezeDims = [1]
        g.op(B.SQUEEZE, [q], [r], o, S.BuiltinOptions.SqueezeOptions)
    else:
        g.op(B.EXPAND_DIMS, [q, g.const("axis", np.array([0], np.int32))], [r])
    y = g.tensor("y", np.float32, out_shape)
    g.op(B.DEQUANTIZE, [r], [y])
    g.output(y)
    return m


def cases():
    def x(*shape):
        return (rs.randn(*shape) * 1.5).astype(np.float32)
    return [
        zoo.Case("opzoo_reshape_int4", reshaping([3, 5], [5, 3], "reshape"), [x(3, 5)], notes="15 values: an odd count"),
        zoo.Case("opzoo_squeeze_int4", reshaping([3, 1, 5], [3, 5], "squeeze"), [x(3, 1, 5)]),
        zoo.Case("opzoo_expand_dims_int4", reshaping([2, 7], [1, 2, 7], "expand_dims"), [x(2, 7)]),
    ]
