"""FULLY_CONNECTED with int8 activations and int4 weights (per channel or per tensor), which
LiteRT 2.3 runs by unpacking the weights to int8 for its int8 kernel."""
import numpy as np
import zoo
from int4 import pack_int4

S = zoo.S
B = S.BuiltinOperator
INT4 = S.TensorType.INT4
rs = np.random.RandomState(49)


def fully_connected(batches, rows, columns, per_channel, activation=S.ActivationFunctionType.NONE):
    m = zoo.Model()
    g = m.graph()
    in_scale = 0.08
    x = g.input("x", np.int8, [batches, columns], quant=(in_scale, 3))
    scales = list(rs.rand(rows) * 0.03 + 0.01) if per_channel else [0.025]
    w = g.tensor("w", INT4, [rows, columns], data=pack_int4(rs.randint(-7, 8, size=(rows, columns))),
                 quant=(scales, [0] * len(scales), 0))
    bias_scales = [in_scale * s for s in scales]
    b = g.tensor("b", np.int32, [rows], data=rs.randint(-500, 500, size=rows).astype(np.int32),
                 quant=(bias_scales, [0] * len(scales), 0))
    y = g.tensor("y", np.int8, [batches, rows], quant=(0.1, -2))
    o = S.FullyConnectedOptionsT()
    o.fusedActivationFunction = activation
    g.op(B.FULLY_CONNECTED, [x, w, b], [y], o, S.BuiltinOptions.FullyConnectedOptions)
    g.output(y)
    return m


def cases():
    def q(*shape):
        return rs.randint(-128, 128, size=shape).astype(np.int8)
    return [
        zoo.Case("opzoo_fc_int8_int4_per_channel", fully_connected(3, 10, 33, True), [q(3, 33)],
                 notes="330 weights in rows of 33: rows start inside bytes"),
        zoo.Case("opzoo_fc_int8_int4_per_tensor_relu", fully_connected(2, 8, 16, False, S.ActivationFunctionType.RELU), [q(2, 16)]),
    ]
