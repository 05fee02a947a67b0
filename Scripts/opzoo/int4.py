"""Packed int4 weights: FULLY_CONNECTED with float input and blockwise int4 weights (float16
scales per block, as ai-edge-torch's dynamic int4 recipes write them) or dynamic-range int4
weights (one scale per tensor or per channel), EMBEDDING_LOOKUP of
int4 tables, blockwise and with one scale per row or per tensor, and DEQUANTIZE of int4
weights (per tensor, with a zero point, and per channel)."""
import numpy as np
import zoo

S = zoo.S
B = S.BuiltinOperator
INT4 = S.TensorType.INT4
# LiteRT 2.3's reference FULLY_CONNECTED leaves blockwise int4 outputs at zero; its builtin
# optimised kernel is the only blockwise implementation it has.
FC_RESOLVER = "BUILTIN_WITHOUT_DEFAULT_DELEGATES"
rs = np.random.RandomState(44)


def pack_int4(values):
    """Two values per byte, the even-indexed one in the low nibble."""
    flat = np.asarray(values, np.int8).reshape(-1)
    if flat.size % 2:
        flat = np.append(flat, np.int8(0))
    nibbles = (flat.astype(np.uint8) & 0xF).reshape(-1, 2)
    return (nibbles[:, 0] | (nibbles[:, 1] << 4)).astype(np.uint8).tobytes()


def blockwise_int4(g, name, rows, columns, block):
    """A constant [rows, columns] int4 tensor with float16 scales per block of `block`."""
    values = rs.randint(-8, 8, size=(rows, columns))
    scales = (rs.rand(rows, columns // block) * 0.05 + 0.01).astype(np.float16)
    s = g.const(name + "_scales", scales)
    t = g.tensor(name, INT4, [rows, columns], data=pack_int4(values))
    q = S.QuantizationParametersT()
    q.detailsType = S.QuantizationDetails.BlockwiseQuantization
    d = S.BlockwiseQuantizationT()
    d.scales, d.zeroPoints, d.blockSize = s, -1, block
    q.details = d
    g.sg.tensors[t].quantization = q
    return t


def fully_connected(input_shape, rows, block, bias, keep_dims=False):
    m = zoo.Model()
    g = m.graph()
    columns = input_shape[-1]
    x = g.input("x", np.float32, input_shape)
    w = blockwise_int4(g, "w", rows, columns, block)
    inputs = [x, w, g.const("bias", rs.randn(rows).astype(np.float32)) if bias else -1]
    out_shape = list(input_shape[:-1]) + [rows] if keep_dims else [int(np.prod(input_shape[:-1])), rows]
    y = g.tensor("y", np.float32, out_shape)
    o = S.FullyConnectedOptionsT()
    o.keepNumDims = keep_dims
    g.op(B.FULLY_CONNECTED, inputs, [y], o, S.BuiltinOptions.FullyConnectedOptions)
    g.output(y)
    return m


def fully_connected_per_channel(batches, rows, columns, per_channel, asymmetric):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, [batches, columns])
    scales = list(rs.rand(rows) * 0.05 + 0.01) if per_channel else [0.03]
    w = g.tensor("w", INT4, [rows, columns], data=pack_int4(rs.randint(-7, 8, size=(rows, columns))),
                 quant=(scales, [0] * len(scales), 0))
    y = g.tensor("y", np.float32, [batches, rows])
    o = S.FullyConnectedOptionsT()
    o.asymmetricQuantizeInputs = asymmetric
    g.op(B.FULLY_CONNECTED, [x, w, g.const("bias", rs.randn(rows).astype(np.float32))], [y], o,
         S.BuiltinOptions.FullyConnectedOptions)
    g.output(y)
    return m


def embedding(rows, columns, block=None, scales=None):
    m = zoo.Model()
    g = m.graph()
    ids = g.input("ids", np.int32, [5])
    if block:
        table = blockwise_int4(g, "table", rows, columns, block)
    else:
        values = rs.randint(-8, 8, size=(rows, columns))
        axis_scales = [float(s) for s in scales]
        table = g.tensor("table", INT4, [rows, columns], data=pack_int4(values),
                         quant=(axis_scales, [0] * len(axis_scales), 0))
    y = g.tensor("rows", np.float32, [5, columns])
    g.op(B.EMBEDDING_LOOKUP, [ids, table], [y])
    g.output(y)
    return m


def dequantize(shape, quant):
    """y = DEQUANTIZE(int4 weights) + x, so the folded weights meet a run-time input."""
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, shape)
    w = g.tensor("w", INT4, shape, data=pack_int4(rs.randint(-8, 8, size=shape)), quant=quant)
    d = g.tensor("w_float", np.float32, shape)
    g.op(B.DEQUANTIZE, [w], [d])
    y = g.tensor("y", np.float32, shape)
    g.op(B.ADD, [d, x], [y], S.AddOptionsT(), S.BuiltinOptions.AddOptions)
    g.output(y)
    return m


def cases():
    def x(*shape):
        return (rs.randn(*shape) * 2).astype(np.float32)
    ids = np.array([3, 0, 5, 3, 1], np.int32)
    return [
        zoo.Case("opzoo_fc_blockwise_int4_b32", fully_connected([3, 64], 24, 32, bias=True), [x(3, 64)], resolver=FC_RESOLVER),
        zoo.Case("opzoo_fc_blockwise_int4_b64_nobias", fully_connected([2, 128], 17, 64, bias=False), [x(2, 128)],
                 resolver=FC_RESOLVER),
        zoo.Case("opzoo_fc_blockwise_int4_keep_dims", fully_connected([1, 5, 96], 40, 32, bias=True, keep_dims=True),
                 [x(1, 5, 96)], resolver=FC_RESOLVER, notes="rank-3 input, keep_num_dims"),
        zoo.Case("opzoo_fc_blockwise_int4_zero_row", fully_connected([2, 64], 8, 32, bias=True),
                 [np.concatenate([np.zeros((1, 64), np.float32), x(1, 64)])], resolver=FC_RESOLVER,
                 notes="an all-zero input row quantises with scale 1"),
        zoo.Case("opzoo_fc_hybrid_int4_per_channel", fully_connected_per_channel(3, 16, 64, True, False), [x(3, 64)]),
        zoo.Case("opzoo_fc_hybrid_int4_per_channel_asymmetric", fully_connected_per_channel(2, 12, 40, True, True), [x(2, 40)]),
        zoo.Case("opzoo_fc_hybrid_int4_per_tensor", fully_connected_per_channel(2, 10, 30, False, False), [x(2, 30)]),
        zoo.Case("opzoo_embedding_lookup_int4_blockwise", embedding(6, 64, block=32), [ids]),
        zoo.Case("opzoo_embedding_lookup_int4_per_row", embedding(6, 10, scales=rs.rand(6) * 0.1 + 0.01), [ids]),
        zoo.Case("opzoo_embedding_lookup_int4_per_tensor", embedding(6, 12, scales=[0.037]), [ids]),
        zoo.Case("opzoo_dequantize_int4_per_tensor", dequantize([3, 5], (0.25, -2)), [x(3, 5)],
                 notes="an odd element count: the last byte is half padding"),
        zoo.Case("opzoo_dequantize_int4_per_channel", dequantize([4, 6], (list(rs.rand(4) * 0.1 + 0.01), [0] * 4, 0)), [x(4, 6)]),
    ]
