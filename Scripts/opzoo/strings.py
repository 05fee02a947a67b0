"""String tensors: SKIP_GRAM (its options and LiteRT's word splitting), the static hash
tables (HASHTABLE, HASHTABLE_IMPORT, HASHTABLE_FIND, HASHTABLE_SIZE) in both directions and
filled by a CALL_ONCE initialiser as TensorFlow's converter emits them, strings through
IF, and the element-moving ops LiteRT also runs on strings."""
import numpy as np
import zoo

S = zoo.S
B = S.BuiltinOperator
# LiteRT's reference resolver has no hash-table kernels; its builtin resolver does.
TABLE_RESOLVER = "BUILTIN_WITHOUT_DEFAULT_DELEGATES"


def skip_gram(ngram, skip, include_all, shape=(1,)):
    m = zoo.Model()
    g = m.graph()
    x = g.input("sentence", zoo.STRING, list(shape))
    y = g.tensor("grams", zoo.STRING, [0])
    o = S.SkipGramOptionsT()
    o.ngramSize, o.maxSkipSize, o.includeAllNgrams = ngram, skip, include_all
    g.op(B.SKIP_GRAM, [x], [y], o, S.BuiltinOptions.SkipGramOptions)
    g.output(y)
    return m


def table_ops(g, table, key_type, value_type, keys, values, queries, fallback, import_=True):
    """Adds HASHTABLE (+ IMPORT) + FIND + SIZE on `table`; returns the FIND and SIZE outputs."""
    h = g.tensor("handle", zoo.RESOURCE, [1])
    o = S.HashtableOptionsT()
    o.tableId, o.keyDtype, o.valueDtype = table, key_type, value_type
    g.op(B.HASHTABLE, [], [h], o, S.BuiltinOptions.HashtableOptions)
    if import_:
        g.op(B.HASHTABLE_IMPORT, [h, keys, values], [], S.HashtableImportOptionsT(), S.BuiltinOptions.HashtableImportOptions)
    if queries is None:
        return h
    y = g.tensor("values_found", value_type, [0])
    g.op(B.HASHTABLE_FIND, [h, queries, fallback], [y], S.HashtableFindOptionsT(), S.BuiltinOptions.HashtableFindOptions)
    n = g.tensor("size", np.int64, [1])
    g.op(B.HASHTABLE_SIZE, [h], [n], S.HashtableSizeOptionsT(), S.BuiltinOptions.HashtableSizeOptions)
    return y, n


def int64_to_string(query_shape):
    m = zoo.Model()
    g = m.graph()
    q = g.input("ids", np.int64, list(query_shape))
    # Key 7 twice: the first value imported wins.
    keys = g.const("keys", np.array([3, 7, -2, 7, 1 << 40], np.int64))
    values = g.strings("words", [b"three", b"seven", b"minus two", b"again", b""])
    fallback = g.strings("unknown", [b"<unk>"])
    y, n = table_ops(g, 4, S.TensorType.INT64, S.TensorType.STRING, keys, values, q, fallback)
    g.output(y, n)
    return m


def string_to_int64():
    m = zoo.Model()
    g = m.graph()
    q = g.input("words", zoo.STRING, [6])
    keys = g.strings("keys", [b"cat", b"dog", "\u00e9t\u00e9".encode(), b"", b"cat"])
    values = g.const("ids", np.array([10, 20, 30, 40, 50], np.int64))
    fallback = g.const("missing", np.array([-1], np.int64))
    y, n = table_ops(g, 0, S.TensorType.STRING, S.TensorType.INT64, keys, values, q, fallback)
    g.output(y, n)
    return m


def initialised_by_call_once():
    """The converter's form: subgraph 1 fills table 9 once, the main graph only looks up."""
    m = zoo.Model()
    g = m.graph()
    init = m.graph("session_initializer")
    keys = init.const("keys", np.array([100, 200, 300], np.int64))
    values = init.strings("labels", [b"hundred", b"two hundred", b"three hundred"])
    table_ops(init, 9, S.TensorType.INT64, S.TensorType.STRING, keys, values, None, None)
    co = S.CallOnceOptionsT()
    co.initSubgraphIndex = 1
    g.op(B.CALL_ONCE, [], [], co, S.BuiltinOptions.CallOnceOptions)
    q = g.input("ids", np.int64, [4])
    fallback = g.strings("unknown", [b"?"])
    y, n = table_ops(g, 9, S.TensorType.INT64, S.TensorType.STRING, None, None, q, fallback, import_=False)
    g.output(y, n)
    return m


def strings_through_if():
    """IF whose then-branch makes skip-grams and whose else-branch returns its input."""
    m = zoo.Model()
    g = m.graph()
    c = g.input("cond", np.bool_, [1])
    x = g.input("sentence", zoo.STRING, [1])
    y = g.tensor("y", zoo.STRING, [0])
    o = S.IfOptionsT()
    o.thenSubgraphIndex, o.elseSubgraphIndex = 1, 2
    g.op(B.IF, [c, x], [y], o, S.BuiltinOptions.IfOptions)
    g.output(y)
    then = m.graph("grams")
    tx = then.input("sentence", zoo.STRING, [1])
    ty = then.tensor("grams", zoo.STRING, [0])
    so = S.SkipGramOptionsT()
    so.ngramSize, so.maxSkipSize, so.includeAllNgrams = 2, 0, False
    then.op(B.SKIP_GRAM, [tx], [ty], so, S.BuiltinOptions.SkipGramOptions)
    then.output(ty)
    other = m.graph("same")
    ox = other.input("sentence", zoo.STRING, [1])
    other.output(ox)
    return m


def moving(op, x_shape, y_shape, extra=(), options=None, options_type=0):
    """One element-moving op on a string input; `extra` are (name, array) constant operands."""
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", zoo.STRING, list(x_shape))
    operands = [x] + [g.const(name, a) for name, a in extra]
    y = g.tensor("y", zoo.STRING, list(y_shape))
    g.op(op, operands, [y], options, options_type)
    g.output(y)
    return m


def words(n, seed):
    r = np.random.RandomState(seed)
    pool = [b"alpha", b"", b"gamma ray", "\u00fcber".encode(), b"x", b"tab\tbed", b"longer string here"]
    return [pool[i] for i in r.randint(0, len(pool), n)]


def moving_cases():
    reshape = S.ReshapeOptionsT()
    reshape.newShape = [3, 2]
    squeeze = S.SqueezeOptionsT()
    squeeze.squeezeDims = []
    gather = S.GatherOptionsT()
    strided = S.StridedSliceOptionsT()
    cases = [
        ("reshape", B.RESHAPE, [2, 3], [3, 2], [("shape", np.array([3, 2], np.int32))], reshape, S.BuiltinOptions.ReshapeOptions),
        ("squeeze", B.SQUEEZE, [1, 3, 1], [3], [], squeeze, S.BuiltinOptions.SqueezeOptions),
        ("expand_dims", B.EXPAND_DIMS, [3], [3, 1], [("axis", np.array([-1], np.int32))], None, 0),
        # LiteRT gathers strings from vectors only.
        ("gather", B.GATHER, [5], [2, 2], [("indices", np.array([[4, 0], [0, 2]], np.int32))], gather, S.BuiltinOptions.GatherOptions),
        ("gather_nd", B.GATHER_ND, [2, 2], [3], [("indices", np.array([[1, 0], [0, 1], [1, 1]], np.int32))], None, 0),
        ("slice", B.SLICE, [3, 4], [2, 2], [("begin", np.array([1, 1], np.int32)), ("size", np.array([2, 2], np.int32))], None, 0),
        ("strided_slice_reversed", B.STRIDED_SLICE, [6], [3], [("begin", np.array([5], np.int32)), ("end", np.array([0], np.int32)),
                                                            ("strides", np.array([-2], np.int32))], strided, S.BuiltinOptions.StridedSliceOptions),
        ("tile", B.TILE, [2, 1], [4, 3], [("multiples", np.array([2, 3], np.int32))], None, 0),
    ]
    out = []
    for k, (name, op, xs, ys, extra, options, options_type) in enumerate(cases):
        x = np.array(words(int(np.prod(xs)), k) or [b""]).reshape(xs)
        model = moving(op, xs, ys, extra, options, options_type)
        out.append(zoo.Case("opzoo_strings_%s" % name, model, [x]))
    # A vocabulary lookup: GATHER from a constant string table by int32 ids.
    m = zoo.Model()
    g = m.graph()
    vocab = g.strings("vocab", [b"<pad>", b"hello", b"world", "\u00e7a va".encode(), b"!"])
    ids = g.input("ids", np.int32, [2, 3])
    y = g.tensor("tokens", zoo.STRING, [2, 3])
    g.op(B.GATHER, [vocab, ids], [y], S.GatherOptionsT(), S.BuiltinOptions.GatherOptions)
    g.output(y)
    out.append(zoo.Case("opzoo_strings_gather_vocabulary", m, [np.array([[1, 2, 4], [3, 0, 1]], np.int32)]))
    return out


def cases():
    sentence = np.array([b"the quick  brown fox\tjumps over the\nlazy dog"])
    out = []
    for ngram, skip, include_all in [(2, 1, True), (3, 0, False), (1, 0, False), (2, 2, False), (3, 1, True)]:
        out.append(zoo.Case("opzoo_skip_gram_n%d_skip%d%s" % (ngram, skip, "_all" if include_all else ""),
                            skip_gram(ngram, skip, include_all), [sentence]))
    # LiteRT never tests a sentence's first byte for whitespace: " a b" keeps " a" as a word.
    out.append(zoo.Case("opzoo_skip_gram_leading_space", skip_gram(2, 0, True),
                        [np.array([b"  leading\r\nspace \x0bwords  "])]))
    out.append(zoo.Case("opzoo_skip_gram_too_few_words", skip_gram(4, 0, False), [np.array([b"two words"])]))
    # Only the first string of the input is read.
    out.append(zoo.Case("opzoo_skip_gram_utf8_first_of_two", skip_gram(2, 1, False, shape=(2,)),
                        [np.array(["na\u00efve caf\u00e9 cr\u00e8me br\u00fbl\u00e9e".encode(), b"ignored words here"])]))
    out.append(zoo.Case("opzoo_hashtable_int64_to_string", int64_to_string([2, 3]),
                        [np.array([[7, 3, 5], [1 << 40, -2, 0]], np.int64)], resolver=TABLE_RESOLVER,
                        notes="golden from LiteRT's builtin resolver: BUILTIN_REF has no hash-table kernels"))
    out.append(zoo.Case("opzoo_hashtable_string_to_int64", string_to_int64(),
                        [np.array([b"dog", b"cat", b"bird", "\u00e9t\u00e9".encode(), b"", b"Cat"])],
                        resolver=TABLE_RESOLVER,
                        notes="golden from LiteRT's builtin resolver: BUILTIN_REF has no hash-table kernels"))
    out.append(zoo.Case("opzoo_hashtable_call_once_init", initialised_by_call_once(),
                        [np.array([300, 5, 100, 200], np.int64)], resolver=TABLE_RESOLVER,
                        notes="golden from LiteRT's builtin resolver: BUILTIN_REF has no hash-table kernels"))
    for flag in (True, False):
        out.append(zoo.Case("opzoo_if_strings_%s" % ("then" if flag else "else"), strings_through_if(),
                            [np.array([flag]), np.array([b"strings cross subgraphs"])]))
    return out + moving_cases()
