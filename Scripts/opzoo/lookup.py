"""EMBEDDING_LOOKUP_SPARSE (each combiner), HASHTABLE_LOOKUP and LSH_PROJECTION (fingerprints
of every length class FarmHash distinguishes)."""
import numpy as np
import zoo

S = zoo.S
B = S.BuiltinOperator
rs = np.random.RandomState(31)


def embedding_sparse(lookups, rank, dense, table_shape, combiner):
    m = zoo.Model()
    g = m.graph()
    ids = g.input("ids", np.int32, [lookups])
    idx = g.input("indices", np.int32, [lookups, rank])
    shape = g.const("dense_shape", np.array(dense, np.int32))
    w = g.input("weights", np.float32, [lookups])
    table = g.const("table", rs.randn(*table_shape).astype(np.float32))
    y = g.tensor("y", np.float32, list(dense[:-1]) + list(table_shape[1:]))
    o = S.EmbeddingLookupSparseOptionsT()
    o.combiner = combiner
    g.op(B.EMBEDDING_LOOKUP_SPARSE, [ids, idx, shape, w, table], [y], o, S.BuiltinOptions.EmbeddingLookupSparseOptions)
    g.output(y)
    return m


def hashtable_lookup(n, keys, value_shape, dtype):
    m = zoo.Model()
    g = m.graph()
    q = g.input("queries", np.int32, [n])
    k = g.const("keys", np.array(keys, np.int32))
    values = (rs.randn(*value_shape) * 50).astype(dtype)
    v = g.const("values", values)
    y = g.tensor("y", dtype, [n] + list(value_shape[1:]))
    hits = g.tensor("hits", np.uint8, [n])
    g.op(B.HASHTABLE_LOOKUP, [q, k, v], [y, hits])
    g.output(y, hits)
    return m


def lsh(hashes, bits, input_shape, dtype, kind, weighted):
    m = zoo.Model()
    g = m.graph()
    h = g.const("hash", rs.randn(hashes, bits).astype(np.float32))
    x = g.input("x", dtype, input_shape)
    inputs = [h, x]
    if weighted:
        inputs.append(g.input("weights", np.float32, [input_shape[0]]))
    y = g.tensor("y", np.int32, [hashes if kind == S.LSHProjectionType.SPARSE else hashes * bits])
    o = S.LSHProjectionOptionsT()
    o.type = kind
    g.op(B.LSH_PROJECTION, inputs, [y], o, S.BuiltinOptions.LSHProjectionOptions)
    g.output(y)
    return m


def sparse_inputs(lookups, rank, dense, rows):
    # Sorted coordinates, so lookups into one bucket are consecutive (as the op expects).
    coords = np.stack([rs.randint(0, d, lookups) for d in dense], 1).astype(np.int32)
    coords = coords[np.lexsort(coords.T[::-1])]
    return [rs.randint(0, rows, lookups).astype(np.int32), coords, rs.rand(lookups).astype(np.float32) + 0.5]


def cases():
    C = S.CombinerType
    SP, DN = S.LSHProjectionType.SPARSE, S.LSHProjectionType.DENSE
    out = []
    for name, combiner in (("sum", C.SUM), ("mean", C.MEAN), ("sqrtn", C.SQRTN)):
        out.append(zoo.Case("opzoo_embedding_lookup_sparse_" + name, embedding_sparse(7, 2, [4, 3], [6, 5], combiner),
                            sparse_inputs(7, 2, [4, 3], 6)))
    out.append(zoo.Case("opzoo_embedding_lookup_sparse_rank3", embedding_sparse(6, 3, [2, 3, 4], [5, 2, 3], C.MEAN),
                        sparse_inputs(6, 3, [2, 3, 4], 5)))
    out += [
        zoo.Case("opzoo_hashtable_lookup_float32", hashtable_lookup(5, [-4, 1, 3, 8, 20], [5, 3], np.float32),
                 [np.array([3, 7, -4, 20, 1], np.int32)], notes="7 is not a key: a zero row and hit 0"),
        zoo.Case("opzoo_hashtable_lookup_int8", hashtable_lookup(4, [0, 2, 4], [3, 2, 2], np.int8),
                 [np.array([4, 4, 1, 0], np.int32)]),
        zoo.Case("opzoo_hashtable_lookup_unsorted_keys", hashtable_lookup(4, [9, 2, 5, 1, 7], [5], np.int32),
                 [np.array([9, 2, 5, 7], np.int32)], notes="unsorted keys: whatever bsearch's probe order finds"),
    ]
    for label, shape, dtype in (("len8", [3, 1], np.float32), ("len20", [3, 4], np.float32), ("len52", [2, 12], np.float32),
                                ("len164", [2, 40], np.float32), ("len6_int8", [4, 2], np.int8), ("len5_uint8", [3], np.uint8)):
        x = (rs.randn(*shape) * 40).astype(dtype)
        out.append(zoo.Case("opzoo_lsh_projection_sparse_" + label, lsh(4, 3, shape, dtype, SP, False), [x]))
        out.append(zoo.Case("opzoo_lsh_projection_dense_weighted_" + label, lsh(3, 4, shape, dtype, DN, True),
                            [x, rs.randn(shape[0]).astype(np.float32)]))
    return out
