"""SPARSE_TO_DENSE: values scattered into a tensor of a default value."""
import numpy as np
import zoo

S = zoo.S


def model(indices, shape, values, default, constant_shape=True):
    m = zoo.Model()
    g = m.graph()
    i = g.input("indices", indices.dtype, indices.shape)
    s = g.const("shape", shape) if constant_shape else g.input("shape", shape.dtype, shape.shape)
    v = g.input("values", values.dtype, values.shape)
    d = g.const("default", default)
    y = g.tensor("y", values.dtype, list(shape) if constant_shape else [1] * len(shape))
    g.op(S.BuiltinOperator.SPARSE_TO_DENSE, [i, s, v, d], [y], S.SparseToDenseOptionsT(),
         S.BuiltinOptions.SparseToDenseOptions)
    g.output(y)
    return m


def case(name, indices, shape, values, default, constant_shape=True, notes=""):
    indices, shape, values, default = map(np.asarray, (indices, shape, values, default))
    inputs = [indices] + ([] if constant_shape else [shape]) + [values]
    return zoo.Case(name, model(indices, shape, values, default, constant_shape), inputs, notes=notes)


def cases():
    return [
        case("opzoo_sparse_to_dense_float32_vector", np.array([1, 4, 6], np.int32), np.array([8], np.int32),
             np.array([1.5, -2.0, 3.25], np.float32), np.float32(0.5)),
        case("opzoo_sparse_to_dense_int32_matrix_int64_indices", np.array([[0, 1], [2, 3], [1, 0]], np.int64),
             np.array([3, 4], np.int64), np.array([7, 8, 9], np.int32), np.int32(-1)),
        case("opzoo_sparse_to_dense_int8_scalar_value", np.array([[0, 0, 1], [1, 2, 0]], np.int32),
             np.array([2, 3, 2], np.int32), np.int8(5), np.int8(-3), notes="one value for every index"),
        case("opzoo_sparse_to_dense_uint8_rank4", np.array([[0, 1, 0, 2], [0, 0, 1, 1]], np.int32),
             np.array([1, 2, 2, 3], np.int32), np.array([200, 17], np.uint8), np.uint8(9)),
        case("opzoo_sparse_to_dense_int64_runtime_shape", np.array([0, 3], np.int32), np.array([5], np.int32),
             np.array([11, 12], np.int64), np.int64(4), constant_shape=False,
             notes="the dense shape is an input, so the output is sized at run time"),
    ]
