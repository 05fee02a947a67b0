"""DYNAMIC_UPDATE_SLICE: start coordinates read at run time, clamped so the block fits."""
import numpy as np
import zoo

S = zoo.S


def model(dtype, operand, update, index_dtype=np.int32):
    m = zoo.Model()
    g = m.graph()
    x = g.input("operand", dtype, operand)
    u = g.input("update", dtype, update)
    s = g.input("start", index_dtype, [len(operand)])
    y = g.tensor("y", dtype, operand)
    g.op(S.BuiltinOperator.DYNAMIC_UPDATE_SLICE, [x, u, s], [y], S.DynamicUpdateSliceOptionsT(),
         S.BuiltinOptions.DynamicUpdateSliceOptions)
    g.output(y)
    return m


def cases():
    rs = np.random.RandomState(11)
    f = lambda *s: rs.randn(*s).astype(np.float32)
    return [
        zoo.Case("opzoo_dynamic_update_slice_float32", model(np.float32, [2, 5, 4], [1, 2, 3]),
                 [f(2, 5, 4), f(1, 2, 3), np.array([1, 2, 1], np.int32)]),
        zoo.Case("opzoo_dynamic_update_slice_float32_clamped", model(np.float32, [4, 6], [2, 3]),
                 [f(4, 6), f(2, 3), np.array([-3, 5], np.int32)], notes="start (-3, 5) clamps to (0, 3)"),
        zoo.Case("opzoo_dynamic_update_slice_int8_int64_start", model(np.int8, [3, 4], [3, 2], np.int64),
                 [rs.randint(-128, 128, (3, 4)).astype(np.int8), rs.randint(-128, 128, (3, 2)).astype(np.int8),
                  np.array([0, 1], np.int64)]),
        zoo.Case("opzoo_dynamic_update_slice_int32_kv_cache", model(np.int32, [1, 8, 2, 4], [1, 1, 2, 4]),
                 [rs.randint(-9, 9, (1, 8, 2, 4)).astype(np.int32), rs.randint(-9, 9, (1, 1, 2, 4)).astype(np.int32),
                  np.array([0, 5, 0, 0], np.int32)], notes="one token written into a KV-cache-shaped tensor"),
        zoo.Case("opzoo_dynamic_update_slice_bool", model(np.bool_, [5], [2]),
                 [np.zeros(5, np.bool_), np.ones(2, np.bool_), np.array([2], np.int32)]),
        zoo.Case("opzoo_dynamic_update_slice_int64_whole", model(np.int64, [2, 2], [2, 2]),
                 [np.arange(4, dtype=np.int64).reshape(2, 2), np.arange(10, 14, dtype=np.int64).reshape(2, 2),
                  np.array([1, 1], np.int32)], notes="an update as large as the operand replaces it"),
    ]
