"""SLICE, CONCATENATION and DYNAMIC_UPDATE_SLICE of int4 tensors, which LiteRT 2.3 moves value
by value (its SliceInt4 unpacks, slices and packs; Concatenation<Int4> copies nibbles;
DynamicUpdateSliceInt4 updates nibbles): float inputs quantised to int4, sliced, joined with or
updated by an int4 constant at odd offsets, dequantised."""
import numpy as np
import zoo
from int4 import pack_int4

S = zoo.S
B = S.BuiltinOperator
INT4 = S.TensorType.INT4
rs = np.random.RandomState(47)
QUANT = (0.5, 0)


def quantized_input(g, shape):
    x = g.input("x", np.float32, shape)
    q = g.tensor("q", INT4, shape, quant=QUANT)
    g.op(B.QUANTIZE, [x], [q])
    return q


def dequantized_output(g, t, shape):
    y = g.tensor("y", np.float32, shape)
    g.op(B.DEQUANTIZE, [t], [y])
    g.output(y)


def slice_(shape, begin, size):
    m = zoo.Model()
    g = m.graph()
    q = quantized_input(g, shape)
    s = g.tensor("s", INT4, size, quant=QUANT)
    g.op(B.SLICE, [q, g.const("begin", np.array(begin, np.int32)), g.const("size", np.array(size, np.int32))], [s])
    dequantized_output(g, s, size)
    return m


def concatenation(shape, other, axis):
    m = zoo.Model()
    g = m.graph()
    q = quantized_input(g, shape)
    c = g.tensor("c", INT4, other, data=pack_int4(rs.randint(-8, 8, size=other)), quant=QUANT)
    out = list(shape)
    out[axis] += other[axis]
    j = g.tensor("j", INT4, out, quant=QUANT)
    o = S.ConcatenationOptionsT()
    o.axis = axis
    g.op(B.CONCATENATION, [q, c], [j], o, S.BuiltinOptions.ConcatenationOptions)
    dequantized_output(g, j, out)
    return m


def dynamic_update_slice(shape, update_shape):
    m = zoo.Model()
    g = m.graph()
    q = quantized_input(g, shape)
    start = g.input("start", np.int32, [len(shape)])
    u = g.tensor("u", INT4, update_shape, data=pack_int4(rs.randint(-8, 8, size=update_shape)), quant=QUANT)
    o = g.tensor("o", INT4, shape, quant=QUANT)
    g.op(B.DYNAMIC_UPDATE_SLICE, [q, u, start], [o])
    dequantized_output(g, o, shape)
    return m


def cases():
    def x(*shape):
        return (rs.randn(*shape) * 2).astype(np.float32)
    return [
        zoo.Case("opzoo_slice_int4", slice_([3, 5, 3], [1, 1, 0], [2, 3, 3]), [x(3, 5, 3)],
                 notes="45 values in, 18 out: slices start inside bytes"),
        zoo.Case("opzoo_concatenation_int4", concatenation([2, 3], [2, 4], 1), [x(2, 3)],
                 notes="rows of 3 and 4 values: the joined rows straddle bytes"),
        zoo.Case("opzoo_concatenation_int4_axis0", concatenation([3, 3], [2, 3], 0), [x(3, 3)]),
        zoo.Case("opzoo_dynamic_update_slice_int4", dynamic_update_slice([3, 5], [2, 3]), [x(3, 5), np.array([1, 1], np.int32)]),
        zoo.Case("opzoo_dynamic_update_slice_int4_clamped", dynamic_update_slice([3, 5], [2, 3]),
                 [x(3, 5), np.array([2, 4], np.int32)], notes="the start is clamped to [1, 2] so the update fits"),
    ]
