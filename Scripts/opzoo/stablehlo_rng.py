"""STABLEHLO_RNG_BIT_GENERATOR: Philox (also DEFAULT; state of 2 or 3 uint64) and Threefry
(state of 2 uint64), filling int32, int64, uint32 and uint64 outputs, with the next state."""
import numpy as np
import zoo

S = zoo.S
ALG = S.RngAlgorithm


def rng(algorithm, state_size, dtype, shape):
    m = zoo.Model()
    g = m.graph()
    state = g.input("initial_state", np.uint64, [state_size])
    key = g.tensor("output_state", np.uint64, [state_size])
    y = g.tensor("output", dtype, shape)
    o = S.StablehloRngBitGeneratorOptionsT()
    o.algorithm = algorithm
    g.op(S.BuiltinOperator.STABLEHLO_RNG_BIT_GENERATOR, [state], [key, y], o,
         0x100 + S.BuiltinOptions2.StablehloRngBitGeneratorOptions)
    g.output(key, y)
    return m


def cases():
    rs = np.random.RandomState(23)
    out = []
    names = {ALG.DEFAULT: "default", ALG.PHILOX: "philox", ALG.THREEFRY: "threefry"}
    for algorithm in [ALG.DEFAULT, ALG.PHILOX, ALG.THREEFRY]:
        for dtype in [np.int32, np.int64, np.uint32, np.uint64]:
            state = rs.randint(0, 2**63, size=2, dtype=np.uint64)
            # 15 elements: the last block of generator words is used in part.
            out.append(zoo.Case("opzoo_stablehlo_rng_bit_generator_%s_%s" % (names[algorithm], np.dtype(dtype).name),
                                rng(algorithm, 2, dtype, [3, 5]), [state]))
    out.append(zoo.Case("opzoo_stablehlo_rng_bit_generator_philox_state3",
                        rng(ALG.PHILOX, 3, np.uint32, [2, 7]), [rs.randint(0, 2**63, size=3, dtype=np.uint64)]))
    # The counter's low word wraps during the run and carries into its high word.
    carry = np.array([0x0123456789ABCDEF, 0x00000005FFFFFFFE], np.uint64)
    out.append(zoo.Case("opzoo_stablehlo_rng_bit_generator_threefry_counter_carry",
                        rng(ALG.THREEFRY, 2, np.uint32, [9]), [carry]))
    out.append(zoo.Case("opzoo_stablehlo_rng_bit_generator_philox_counter_carry",
                        rng(ALG.PHILOX, 3, np.int64, [5]), [np.array([7, 0xFFFFFFFFFFFFFFFF, 3], np.uint64)]))
    return out
