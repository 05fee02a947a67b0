"""Int4 where LiteRT 2.3's kernels take it besides FULLY_CONNECTED, EMBEDDING_LOOKUP and
DEQUANTIZE: CONV_2D and DEPTHWISE_CONV_2D with int4 filters (int8 activations, per-channel
scales; CONV_2D also with float activations, the hybrid path), and GATHER of an int4 table,
whose int4 rows a DEQUANTIZE turns into the float output. LiteRT's int4 GATHER copies whole
bytes, so the values after the axis are an even count in every case."""
import numpy as np
import zoo
from int4 import pack_int4

S = zoo.S
B = S.BuiltinOperator
INT4 = S.TensorType.INT4
rs = np.random.RandomState(45)


def int4_filter(g, shape, axis):
    channels = shape[axis]
    scales = list(rs.rand(channels) * 0.02 + 0.005)
    return g.tensor("filter", INT4, shape, data=pack_int4(rs.randint(-7, 8, size=shape)),
                    quant=(scales, [0] * channels, axis)), scales


def conv(input_shape, filter_shape, stride, padding, activation=S.ActivationFunctionType.NONE, depthwise=False,
         hybrid=False):
    m = zoo.Model()
    g = m.graph()
    in_scale = 0.05
    if hybrid:
        x = g.input("x", np.float32, input_shape)
    else:
        x = g.input("x", np.int8, input_shape, quant=(in_scale, -3))
    axis = 3 if depthwise else 0
    w, scales = int4_filter(g, filter_shape, axis)
    channels = filter_shape[axis]
    if hybrid:
        b = g.const("bias", rs.randn(channels).astype(np.float32))
    else:
        b = g.tensor("bias", np.int32, [channels], data=rs.randint(-300, 300, size=channels).astype(np.int32),
                     quant=([in_scale * s for s in scales], [0] * channels, 0))
    h, wd = input_shape[1:3]
    kh, kw = filter_shape[1:3]
    if padding == S.Padding.SAME:
        oh, ow = -(-h // stride), -(-wd // stride)
    else:
        oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out_shape = [input_shape[0], oh, ow, channels]
    y = g.tensor("y", np.float32, out_shape) if hybrid else g.tensor("y", np.int8, out_shape, quant=(0.08, 2))
    if depthwise:
        o = S.DepthwiseConv2DOptionsT()
        o.depthMultiplier = channels // input_shape[3]
        kind, options = B.DEPTHWISE_CONV_2D, S.BuiltinOptions.DepthwiseConv2DOptions
    else:
        o = S.Conv2DOptionsT()
        kind, options = B.CONV_2D, S.BuiltinOptions.Conv2DOptions
    o.padding, o.strideH, o.strideW, o.fusedActivationFunction = padding, stride, stride, activation
    o.dilationHFactor = o.dilationWFactor = 1
    g.op(kind, [x, w, b], [y], o, options)
    g.output(y)
    return m


def gather(shape, axis, indices_shape):
    m = zoo.Model()
    g = m.graph()
    idx = g.input("indices", np.int32, indices_shape)
    p = g.tensor("params", INT4, shape, data=pack_int4(rs.randint(-8, 8, size=shape)), quant=(0.25, 0))
    out_shape = shape[:axis] + indices_shape + shape[axis + 1:]
    rows = g.tensor("rows", INT4, out_shape, quant=(0.25, 0))
    o = S.GatherOptionsT()
    o.axis = axis
    g.op(B.GATHER, [p, idx], [rows], o, S.BuiltinOptions.GatherOptions)
    y = g.tensor("y", np.float32, out_shape)
    g.op(B.DEQUANTIZE, [rows], [y])
    g.output(y)
    return m


def cases():
    def q(*shape):
        return rs.randint(-128, 128, size=shape).astype(np.int8)
    SAME, VALID = S.Padding.SAME, S.Padding.VALID
    return [
        zoo.Case("opzoo_conv2d_int4_filter", conv([1, 6, 6, 4], [3, 3, 3, 4], 1, SAME), [q(1, 6, 6, 4)]),
        zoo.Case("opzoo_conv2d_int4_filter_stride2_relu", conv([2, 7, 7, 3], [5, 3, 3, 3], 2, VALID, S.ActivationFunctionType.RELU),
                 [q(2, 7, 7, 3)], notes="135 filter values: the last byte is half padding"),
        zoo.Case("opzoo_conv2d_hybrid_int4_filter", conv([1, 5, 5, 3], [4, 3, 3, 3], 1, SAME, hybrid=True),
                 [rs.randn(1, 5, 5, 3).astype(np.float32)]),
        zoo.Case("opzoo_depthwise_conv2d_int4_filter", conv([1, 5, 5, 4], [1, 3, 3, 8], 1, SAME, depthwise=True), [q(1, 5, 5, 4)],
                 notes="depth multiplier 2"),
        zoo.Case("opzoo_depthwise_conv2d_int4_filter_valid", conv([1, 6, 6, 3], [1, 3, 3, 3], 2, VALID, depthwise=True), [q(1, 6, 6, 3)]),
        zoo.Case("opzoo_gather_int4_rows", gather([5, 6], 0, [3]), [np.array([4, 0, 2], np.int32)]),
        zoo.Case("opzoo_gather_int4_axis1", gather([3, 4, 6], 1, [2, 2]), [np.array([[3, 0], [1, 1]], np.int32)],
                 notes="LiteRT gathers whole bytes: the count of values after the axis must be even"),
    ]
