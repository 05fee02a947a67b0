"""RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_LSTM
in float32, their states variables starting at zero."""
import numpy as np
import zoo

S = zoo.S
B = S.BuiltinOperator
A = S.ActivationFunctionType
rs = np.random.RandomState(21)


def w(*shape):
    return (rs.randn(*shape) * 0.4).astype(np.float32)


def rnn_weights(g, prefix, units, features):
    return [g.const(prefix + "w", w(units, features)), g.const(prefix + "r", w(units, units)), g.const(prefix + "b", w(units))]


def rnn_step(batch, features, units, activation):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, [batch, features])
    h = g.tensor("h", np.float32, [batch, units], variable=True)
    y = g.tensor("y", np.float32, [batch, units])
    o = S.RNNOptionsT()
    o.fusedActivationFunction = activation
    g.op(B.RNN, [x] + rnn_weights(g, "", units, features) + [h], [y], o, S.BuiltinOptions.RNNOptions)
    g.output(y)
    return m


def sequence_shape(time_major, batch, time, n):
    return [time, batch, n] if time_major else [batch, time, n]


def sequence_rnn(batch, time, features, units, time_major, activation=A.TANH):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, sequence_shape(time_major, batch, time, features))
    h = g.tensor("h", np.float32, [batch, units], variable=True)
    y = g.tensor("y", np.float32, sequence_shape(time_major, batch, time, units))
    o = S.SequenceRNNOptionsT()
    o.timeMajor, o.fusedActivationFunction = time_major, activation
    g.op(B.UNIDIRECTIONAL_SEQUENCE_RNN, [x] + rnn_weights(g, "", units, features) + [h], [y], o, S.BuiltinOptions.SequenceRNNOptions)
    g.output(y)
    return m


def bidirectional_rnn(batch, time, features, fw, bw, time_major, merge):
    m = zoo.Model()
    g = m.graph()
    x = g.input("x", np.float32, sequence_shape(time_major, batch, time, features))
    inputs = [x] + rnn_weights(g, "fw_", fw, features) + [g.tensor("fw_h", np.float32, [batch, fw], variable=True)]
    inputs += rnn_weights(g, "bw_", bw, features) + [g.tensor("bw_h", np.float32, [batch, bw], variable=True)]
    inputs += [-1, -1, -1]
    if merge:
        outs = [g.tensor("y", np.float32, sequence_shape(time_major, batch, time, fw + bw))]
    else:
        outs = [g.tensor("y_fw", np.float32, sequence_shape(time_major, batch, time, fw)),
                g.tensor("y_bw", np.float32, sequence_shape(time_major, batch, time, bw))]
    o = S.BidirectionalSequenceRNNOptionsT()
    o.timeMajor, o.fusedActivationFunction, o.mergeOutputs = time_major, A.TANH, merge
    g.op(B.BIDIRECTIONAL_SEQUENCE_RNN, inputs, outs, o, S.BuiltinOptions.BidirectionalSequenceRNNOptions)
    g.output(*outs)
    return m


def lstm_weights(g, prefix, cells, features, outputs, projection):
    """Inputs 1-17 of one direction: gate weights, recurrent weights, no peepholes, biases,
    and an optional projection."""
    t = [g.const(prefix + "wx%d" % k, w(cells, features)) for k in range(4)]
    t += [g.const(prefix + "wh%d" % k, w(cells, outputs)) for k in range(4)]
    t += [-1, -1, -1]
    t += [g.const(prefix + "b%d" % k, w(cells) + (1.0 if k == 1 else 0.0)) for k in range(4)]
    t += [g.const(prefix + "proj", w(outputs, cells)), -1] if projection else [-1, -1]
    return t


def bidirectional_lstm(batch, time, features, cells, time_major, merge, projection=0):
    m = zoo.Model()
    g = m.graph()
    outputs = projection or cells
    x = g.input("x", np.float32, sequence_shape(time_major, batch, time, features))
    inputs = [x] + lstm_weights(g, "fw_", cells, features, outputs, projection)
    inputs += lstm_weights(g, "bw_", cells, features, outputs, projection)
    for prefix in ("fw_", "bw_"):
        inputs += [g.tensor(prefix + "h", np.float32, [batch, outputs], variable=True),
                   g.tensor(prefix + "c", np.float32, [batch, cells], variable=True)]
    inputs += [-1] * 9
    if merge:
        outs = [g.tensor("y", np.float32, sequence_shape(time_major, batch, time, 2 * outputs))]
    else:
        outs = [g.tensor("y_fw", np.float32, sequence_shape(time_major, batch, time, outputs)),
                g.tensor("y_bw", np.float32, sequence_shape(time_major, batch, time, outputs))]
    o = S.BidirectionalSequenceLSTMOptionsT()
    o.timeMajor, o.fusedActivationFunction, o.mergeOutputs, o.cellClip = time_major, A.TANH, merge, 3.0
    g.op(B.BIDIRECTIONAL_SEQUENCE_LSTM, inputs, outs, o, S.BuiltinOptions.BidirectionalSequenceLSTMOptions)
    g.output(*outs)
    return m


def cases():
    x = lambda *s: rs.randn(*s).astype(np.float32)
    return [
        zoo.Case("opzoo_rnn_relu", rnn_step(2, 3, 4, A.RELU), [x(2, 3)]),
        zoo.Case("opzoo_rnn_tanh", rnn_step(1, 5, 3, A.TANH), [x(1, 5)]),
        zoo.Case("opzoo_unidirectional_sequence_rnn", sequence_rnn(2, 4, 3, 5, False), [x(2, 4, 3)]),
        zoo.Case("opzoo_unidirectional_sequence_rnn_time_major", sequence_rnn(3, 2, 4, 3, True, A.RELU6), [x(2, 3, 4)]),
        zoo.Case("opzoo_bidirectional_sequence_rnn", bidirectional_rnn(2, 3, 4, 3, 2, False, False), [x(2, 3, 4)]),
        zoo.Case("opzoo_bidirectional_sequence_rnn_merged_time_major", bidirectional_rnn(2, 3, 4, 3, 3, True, True), [x(3, 2, 4)]),
        zoo.Case("opzoo_bidirectional_sequence_lstm", bidirectional_lstm(2, 3, 4, 5, True, False), [x(3, 2, 4)]),
        # One batch row: with merged batch-major outputs LiteRT offsets each row's state by the
        # merged row width, past the state tensor from the second row on.
        zoo.Case("opzoo_bidirectional_sequence_lstm_merged", bidirectional_lstm(1, 4, 3, 4, False, True), [x(1, 4, 3)]),
        zoo.Case("opzoo_bidirectional_sequence_lstm_projection", bidirectional_lstm(1, 3, 4, 5, True, False, projection=3),
                 [x(3, 1, 4)]),
    ]
