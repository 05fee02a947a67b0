"""LiteRT's GenAI custom ops, as its LLM runtime registers them (GenAIOpsRegisterer):
odml.update_external_kv_cache (slices written into caches passed in and out),
odml.update_kv_cache (a cache the op keeps between invocations, shared by the layers of a
subgraph) and odml.scaled_dot_product_attention (multi-head, grouped-query and multi-query).

LiteRT 2.3's attention kernel is attention only for one query token or one key/value head: on
its multi-head path it reads the transposed queries and attention weights with the strides of
the untransposed ones, so a prefill of several tokens gets scrambled products. Those cases take
their goldens from LiteRT running the same attention written in builtin ops (`golden_model`)."""
import numpy as np
from flatbuffers import flexbuffers
import zoo

rs = np.random.RandomState(45)


def f32(*shape):
    return rs.randn(*shape).astype(np.float32)


def external_kv_cache(cache_len, heads, dim, slots):
    m = zoo.Model()
    g = m.graph()
    k = g.input("k_cache", np.float32, [1, cache_len, heads, dim])
    v = g.input("v_cache", np.float32, [1, cache_len, heads, dim])
    pos = g.input("positions", np.int32, [slots])
    ks = g.input("k_slice", np.float32, [1, slots, heads, dim])
    vs = g.input("v_slice", np.float32, [1, slots, heads, dim])
    k2 = g.tensor("k_updated", np.float32, [1, cache_len, heads, dim])
    v2 = g.tensor("v_updated", np.float32, [1, cache_len, heads, dim])
    g.op(None, [k, v, pos, ks, vs], [k2, v2], custom="odml.update_external_kv_cache")
    g.output(k2, v2)
    return m


def kv_cache(cache_max, layers, slots, heads, dim):
    """Two nodes (layers 0 and 1) over one cache buffer; each returns its layer's block."""
    m = zoo.Model()
    g = m.graph()
    pos = g.input("positions", np.int64, [slots])
    outs = []
    for layer in range(2):
        key = g.input("key%d" % layer, np.float32, [1, slots, heads, dim])
        value = g.input("value%d" % layer, np.float32, [1, slots, heads, dim])
        kf = g.tensor("k_full%d" % layer, np.float32, [1, cache_max, heads, dim])
        vf = g.tensor("v_full%d" % layer, np.float32, [1, cache_max, heads, dim])
        options = flexbuffers.Dumps({"kv_cache_max": cache_max, "num_layers": layers, "layer_index": layer})
        g.op(None, [pos, key, value], [kf, vf], custom="odml.update_kv_cache", custom_options=options)
        outs += [kf, vf]
    g.output(*outs)
    return m


def sdpa(tokens, length, heads, kv_heads, dim, scale=None):
    m = zoo.Model()
    g = m.graph()
    q = g.input("query", np.float32, [1, tokens, heads, dim])
    k = g.input("key", np.float32, [1, length, kv_heads, dim])
    v = g.input("value", np.float32, [1, length, kv_heads, dim])
    mask = g.input("mask", np.float32, [1, 1, tokens, length])
    y = g.tensor("attention", np.float32, [1, tokens, heads, dim])
    options = flexbuffers.Dumps({"scale": float(scale)} if scale is not None else {})
    g.op(None, [q, k, v, mask], [y], custom="odml.scaled_dot_product_attention", custom_options=options)
    g.output(y)
    return m


def sdpa_in_builtins(tokens, length, heads, kv_heads, dim, scale=None):
    """The attention of `sdpa` in LiteRT's builtin ops: MUL, TRANSPOSE, GATHER (repeating
    key/value heads), BATCH_MATMUL, ADD, SOFTMAX."""
    S, B = zoo.S, zoo.S.BuiltinOperator
    m = zoo.Model()
    g = m.graph()
    q = g.input("query", np.float32, [1, tokens, heads, dim])
    k = g.input("key", np.float32, [1, length, kv_heads, dim])
    v = g.input("value", np.float32, [1, length, kv_heads, dim])
    mask = g.input("mask", np.float32, [1, 1, tokens, length])
    perm = g.const("perm", np.array([0, 2, 1, 3], np.int32))
    factor = g.const("scale", np.array([scale if scale else 1 / np.sqrt(dim)], np.float32))

    def t(name, dtype, shape):
        return g.tensor(name, dtype, shape)

    qs = t("q_scaled", np.float32, [1, tokens, heads, dim])
    g.op(B.MUL, [q, factor], [qs], S.MulOptionsT(), S.BuiltinOptions.MulOptions)
    qt = t("q_t", np.float32, [1, heads, tokens, dim])
    g.op(B.TRANSPOSE, [qs, perm], [qt], S.TransposeOptionsT(), S.BuiltinOptions.TransposeOptions)
    repeat = g.const("heads", np.repeat(np.arange(kv_heads, dtype=np.int32), heads // kv_heads))

    def heads_first(x, name):
        xt = t(name + "_t", np.float32, [1, kv_heads, length, dim])
        g.op(B.TRANSPOSE, [x, perm], [xt], S.TransposeOptionsT(), S.BuiltinOptions.TransposeOptions)
        xr = t(name + "_r", np.float32, [1, heads, length, dim])
        o = S.GatherOptionsT()
        o.axis = 1
        g.op(B.GATHER, [xt, repeat], [xr], o, S.BuiltinOptions.GatherOptions)
        return xr

    kr, vr = heads_first(k, "k"), heads_first(v, "v")
    scores = t("scores", np.float32, [1, heads, tokens, length])
    o = S.BatchMatMulOptionsT()
    o.adjY = True
    g.op(B.BATCH_MATMUL, [qt, kr], [scores], o, S.BuiltinOptions.BatchMatMulOptions)
    masked = t("masked", np.float32, [1, heads, tokens, length])
    g.op(B.ADD, [scores, mask], [masked], S.AddOptionsT(), S.BuiltinOptions.AddOptions)
    weights = t("weights", np.float32, [1, heads, tokens, length])
    o = S.SoftmaxOptionsT()
    o.beta = 1.0
    g.op(B.SOFTMAX, [masked], [weights], o, S.BuiltinOptions.SoftmaxOptions)
    heads_out = t("heads_out", np.float32, [1, heads, tokens, dim])
    g.op(B.BATCH_MATMUL, [weights, vr], [heads_out], S.BatchMatMulOptionsT(), S.BuiltinOptions.BatchMatMulOptions)
    y = t("attention", np.float32, [1, tokens, heads, dim])
    g.op(B.TRANSPOSE, [heads_out, perm], [y], S.TransposeOptionsT(), S.BuiltinOptions.TransposeOptions)
    g.output(y)
    return m


def causal_mask(tokens, length, start):
    """0 where query `t` (at position start + t) may attend, a large negative number elsewhere."""
    mask = np.full((1, 1, tokens, length), -1e9, np.float32)
    for t in range(tokens):
        mask[0, 0, t, : start + t + 1] = 0
    return mask


def cases():
    out = []
    for name, positions in (("in_order", [2, 3, 4]), ("stops_at_a_decrease", [5, 6, 1]), ("repeated", [3, 3, 7])):
        out.append(zoo.Case("opzoo_genai_external_kv_cache_" + name, external_kv_cache(8, 2, 4, 3),
                            [f32(1, 8, 2, 4), f32(1, 8, 2, 4), np.array(positions, np.int32), f32(1, 3, 2, 4), f32(1, 3, 2, 4)],
                            genai=True, notes="positions after a decrease are ignored, as LiteRT's kernel does"))
    for name, start in (("first_slots", 0), ("shifts_window", 6)):
        out.append(zoo.Case("opzoo_genai_kv_cache_" + name, kv_cache(8, 2, 3, 2, 4),
                            [np.arange(start, start + 3, dtype=np.int64)] + [f32(1, 3, 2, 4) for _ in range(4)], genai=True,
                            notes="positions past the cache's end shift the oldest entries out" if start else ""))
    for name, (tokens, length, heads, kv_heads, dim, scale) in (
            ("mha", (3, 6, 2, 2, 8, None)), ("gqa", (4, 8, 4, 2, 16, None)), ("mqa", (2, 5, 3, 1, 8, None)),
            ("scaled", (3, 6, 2, 2, 8, 0.3)), ("decode_gqa", (1, 10, 4, 2, 8, None))):
        inputs = [f32(1, tokens, heads, dim), f32(1, length, kv_heads, dim), f32(1, length, kv_heads, dim),
                  causal_mask(tokens, length, length - tokens)]
        args = (tokens, length, heads, kv_heads, dim, scale)
        scrambled = tokens > 1 and kv_heads > 1
        out.append(zoo.Case("opzoo_genai_sdpa_" + name, sdpa(*args), inputs, genai=True,
                            golden_model=sdpa_in_builtins(*args) if scrambled else None,
                            notes="golden from the attention in builtin ops" if scrambled else ""))
    return out
