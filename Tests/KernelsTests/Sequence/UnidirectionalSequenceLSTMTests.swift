import TestSupport
import Foundation
import Testing
import Kernels

@Suite struct UnidirectionalSequenceLSTMTests {
    /// Random weights for every gate, plus optional parts.
    struct Layer {
        var wx: [[Float]], wh: [[Float]], bias: [[Float]], peep: [[Float]]?, proj: [Float]?, projBias: [Float]?
    }

    static func randomLayer(_ rng: inout SplitMix64, input: Int, cells: Int, output: Int, peepholes: Bool, projection: Bool) -> Layer {
        Layer(wx: (0..<4).map { _ in rng.floats(cells * input) }, wh: (0..<4).map { _ in rng.floats(cells * output) },
              bias: (0..<4).map { _ in rng.floats(cells) }, peep: peepholes ? (0..<3).map { _ in rng.floats(cells) } : nil,
              proj: projection ? rng.floats(output * cells) : nil, projBias: projection ? rng.floats(output) : nil)
    }

    /// The LSTM equations in Double for one batch-major sequence; `cifg` couples the input gate.
    static func reference(_ l: Layer, x: [Float], batch: Int, time: Int, input: Int, cells: Int, output: Int, cifg: Bool,
                          cellClip: Double) -> [Float] {
        func sig(_ v: Double) -> Double { 1 / (1 + exp(-v)) }
        func gate(_ g: Int, _ xt: ArraySlice<Float>, _ h: [Double], _ j: Int) -> Double {
            var s = Double(l.bias[g][j])
            for k in 0..<input { s += Double(l.wx[g][j * input + k]) * Double(xt[xt.startIndex + k]) }
            for k in 0..<output { s += Double(l.wh[g][j * output + k]) * h[k] }
            return s
        }
        var y = [Float](repeating: 0, count: batch * time * output)
        for b in 0..<batch {
            var h = [Double](repeating: 0, count: output), c = [Double](repeating: 0, count: cells)
            for t in 0..<time {
                let xt = x[(b * time + t) * input..<(b * time + t + 1) * input]
                var hidden = [Double](repeating: 0, count: cells)
                var newC = c
                for j in 0..<cells {
                    let f = sig(gate(1, xt, h, j) + Double(l.peep?[1][j] ?? 0) * c[j])
                    let i = cifg ? 1 - f : sig(gate(0, xt, h, j) + Double(l.peep?[0][j] ?? 0) * c[j])
                    var cell = f * c[j] + i * tanh(gate(2, xt, h, j))
                    if cellClip > 0 { cell = min(max(cell, -cellClip), cellClip) }
                    newC[j] = cell
                    hidden[j] = sig(gate(3, xt, h, j) + Double(l.peep?[2][j] ?? 0) * cell) * tanh(cell)
                }
                c = newC
                if let proj = l.proj {
                    h = (0..<output).map { k in (0..<cells).reduce(Double(l.projBias![k])) { $0 + Double(proj[k * cells + $1]) * hidden[$1] } }
                } else {
                    h = hidden
                }
                for k in 0..<output { y[(b * time + t) * output + k] = Float(h[k]) }
            }
        }
        return y
    }

    func runKernel(_ l: Layer, x: [Float], batch: Int, time: Int, input: Int, cells: Int, output: Int, cifg: Bool, cellClip: Float,
                   state: (TestBuffer<Float>, TestBuffer<Float>)? = nil) -> [Float] {
        let config = UnidirectionalSequenceLSTM.Configuration(batch: batch, time: time, inputSize: input, cells: cells, outputSize: output,
                                                              timeMajor: false, activation: .tanh, cellClip: cellClip, projectionClip: 0)
        let wx = l.wx.map(TestBuffer.init), wh = l.wh.map(TestBuffer.init), bias = l.bias.map(TestBuffer.init)
        let peep = l.peep?.map(TestBuffer.init), proj = l.proj.map(TestBuffer.init), projBias = l.projBias.map(TestBuffer.init)
        let weights = UnidirectionalSequenceLSTM.Weights(
            inputWeights: (0..<4).map { cifg && $0 == 0 ? nil : wx[$0].constant },
            recurrentWeights: (0..<4).map { cifg && $0 == 0 ? nil : wh[$0].constant },
            peepholes: peep.map { p in [p[0].constant, p[1].constant, nil, p[2].constant] } ?? [nil, nil, nil, nil],
            biases: (0..<4).map { cifg && $0 == 0 ? nil : bias[$0].constant }, projection: proj?.constant, projectionBias: projBias?.constant)
        let h = state?.0 ?? TestBuffer(repeating: Float(0), count: batch * output)
        let c = state?.1 ?? TestBuffer(repeating: Float(0), count: batch * cells)
        let xb = TestBuffer(x), y = TestBuffer(repeating: Float.nan, count: batch * time * output)
        let scratch = TestBuffer(repeating: Float.nan, count: config.scratchCount)
        // The weights hold raw pointers into these buffers: keep them alive through the run
        // (an optimised build may otherwise release them after their last Swift use).
        withExtendedLifetime((wx, wh, bias, peep, proj, projBias)) {
            UnidirectionalSequenceLSTM.run(config, input: xb.constant, weights: weights, outputState: h.pointer, cellState: c.pointer,
                                           output: y.pointer, scratch: scratch.pointer)
        }
        return y.array
    }

    @Test(arguments: [(false, false, false), (true, false, false), (false, true, false), (false, false, true), (true, true, true)])
    func matchesTheEquations(cifg: Bool, peepholes: Bool, projection: Bool) {
        var rng = SplitMix64(seed: 47)
        let batch = 2, time = 4, input = 3, cells = 5, output = projection ? 2 : 5
        let layer = Self.randomLayer(&rng, input: input, cells: cells, output: output, peepholes: peepholes, projection: projection)
        let x = rng.floats(batch * time * input)
        let got = runKernel(layer, x: x, batch: batch, time: time, input: input, cells: cells, output: output, cifg: cifg, cellClip: 0.8)
        let want = Self.reference(layer, x: x, batch: batch, time: time, input: input, cells: cells, output: output, cifg: cifg,
                                  cellClip: 0.8)
        #expect(maxAbsDifference(got, want) <= 1e-5)
    }

    /// The state tensors carry over: two calls of two steps equal one call of four.
    @Test func stateCarriesAcrossCalls() {
        var rng = SplitMix64(seed: 53)
        let layer = Self.randomLayer(&rng, input: 2, cells: 3, output: 3, peepholes: false, projection: false)
        let x = rng.floats(4 * 2)
        let whole = runKernel(layer, x: x, batch: 1, time: 4, input: 2, cells: 3, output: 3, cifg: false, cellClip: 0)
        let state = (TestBuffer(repeating: Float(0), count: 3), TestBuffer(repeating: Float(0), count: 3))
        let first = runKernel(layer, x: Array(x[0..<4]), batch: 1, time: 2, input: 2, cells: 3, output: 3, cifg: false, cellClip: 0, state: state)
        let second = runKernel(layer, x: Array(x[4..<8]), batch: 1, time: 2, input: 2, cells: 3, output: 3, cifg: false, cellClip: 0, state: state)
        #expect(maxAbsDifference(first + second, whole) <= 1e-6)
        #expect(maxAbsDifference(state.0.array, Array(whole[9..<12])) == 0)
    }
}
