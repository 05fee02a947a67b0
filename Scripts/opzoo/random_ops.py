"""RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL with fixed seeds: LiteRT's Philox
stream, so the goldens are its numbers (one invoke per case)."""
import numpy as np
import zoo

S = zoo.S


def random_model(code, shape, seed, seed2, constant_shape=True):
    m = zoo.Model()
    g = m.graph()
    shape = np.array(shape, np.int32)
    s = g.const("shape", shape) if constant_shape else g.input("shape", np.int32, shape.shape)
    y = g.tensor("y", np.float32, list(shape) if constant_shape else [1] * len(shape))
    o = S.RandomOptionsT()
    o.seed, o.seed2 = seed, seed2
    g.op(code, [s], [y], o, S.BuiltinOptions.RandomOptions)
    g.output(y)
    return m


def multinomial_model(batch, classes, samples, seed, seed2, out=np.int64):
    m = zoo.Model()
    g = m.graph()
    logits = g.input("logits", np.float32, [batch, classes])
    n = g.const("samples", np.array(samples, np.int32))
    y = g.tensor("y", out, [batch, samples])
    o = S.RandomOptionsT()
    o.seed, o.seed2 = seed, seed2
    g.op(S.BuiltinOperator.MULTINOMIAL, [logits, n], [y], o, S.BuiltinOptions.RandomOptions)
    g.output(y)
    return m


def cases():
    B = S.BuiltinOperator
    rs = np.random.RandomState(3)
    exact = {"kind": "exact"}
    normal = {"kind": "float", "atol": 1e-6, "rtol": 1e-6}
    logits = rs.randn(3, 5).astype(np.float32)
    logits[1, 2] = -np.inf
    return [
        zoo.Case("opzoo_random_uniform", random_model(B.RANDOM_UNIFORM, [3, 7], 42, 7), [], tolerance=exact),
        zoo.Case("opzoo_random_uniform_large_seeds", random_model(B.RANDOM_UNIFORM, [10], -5, 2**40 + 2**31 + 3), [], tolerance=exact,
                 notes="negative and wide seeds: LiteRT keeps each in a C int (low 32 bits, sign-extended)"),
        zoo.Case("opzoo_random_uniform_runtime_shape", random_model(B.RANDOM_UNIFORM, [2, 3], 1, 2, constant_shape=False),
                 [np.array([2, 3], np.int32)], tolerance=exact),
        # RandomOpsTests invokes the [4] model twice and expects the [8] model's numbers.
        zoo.Case("opzoo_random_uniform_stream_4", random_model(B.RANDOM_UNIFORM, [4], 77, 1), [], tolerance=exact),
        zoo.Case("opzoo_random_uniform_stream_8", random_model(B.RANDOM_UNIFORM, [8], 77, 1), [], tolerance=exact),
        zoo.Case("opzoo_random_standard_normal", random_model(B.RANDOM_STANDARD_NORMAL, [4, 5], 42, 7), [], tolerance=normal,
                 notes="Box-Muller through the C library's sinf/cosf/logf"),
        zoo.Case("opzoo_random_standard_normal_odd", random_model(B.RANDOM_STANDARD_NORMAL, [7], 9, 0), [], tolerance=normal,
                 notes="an odd count drops the last pair's second value"),
        zoo.Case("opzoo_multinomial_int64", multinomial_model(3, 5, 6, 42, 7), [logits], tolerance=exact,
                 notes="a -inf logit is never drawn"),
        zoo.Case("opzoo_multinomial_int32", multinomial_model(2, 5, 9, 123, 0, np.int32), [logits[:2]], tolerance=exact),
    ]
