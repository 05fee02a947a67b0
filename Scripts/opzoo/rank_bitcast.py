"""RANK (the input's rank as an int32 scalar) and BITCAST (the bytes reinterpreted as another
type, the last dimension split or merged by the size ratio)."""
import numpy as np
import zoo

S = zoo.S


def rank(dtype, shape):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", dtype, shape)
    y = g.tensor("rank", np.int32, [])
    g.op(S.BuiltinOperator.RANK, [x], [y], S.RankOptionsT(), S.BuiltinOptions.RankOptions)
    g.output(y)
    return m


def bitcast(src, dst, shape, out_shape):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", src, shape)
    y = g.tensor("y", dst, out_shape)
    g.op(S.BuiltinOperator.BITCAST, [x], [y], S.BitcastOptionsT(), S.BuiltinOptions.BitcastOptions)
    g.output(y)
    return m


def cases():
    rs = np.random.RandomState(7)
    return [
        zoo.Case("opzoo_rank_float32", rank(np.float32, [2, 3, 4]), [rs.rand(2, 3, 4).astype(np.float32)]),
        zoo.Case("opzoo_rank_int8_scalar", rank(np.int8, []), [np.array(3, np.int8)]),
        zoo.Case("opzoo_bitcast_float32_to_uint32", bitcast(np.float32, np.uint32, [2, 3], [2, 3]),
                 [rs.randn(2, 3).astype(np.float32)]),
        zoo.Case("opzoo_bitcast_int32_to_uint8", bitcast(np.int32, np.uint8, [2, 3], [2, 3, 4]),
                 [rs.randint(-2**31, 2**31 - 1, size=(2, 3)).astype(np.int32)]),
        zoo.Case("opzoo_bitcast_int16_to_int32", bitcast(np.int16, np.int32, [3, 2], [3]),
                 [rs.randint(-2**15, 2**15 - 1, size=(3, 2)).astype(np.int16)]),
    ]
