/// Int8 weights packed for ``int8GEMMTile``: output channels in blocks of
/// ``Int8PackedWeights/blockWidth``, each block stored depth-major (`[depth][blockWidth]`), so one
/// load gives the weights of every channel of the block for one depth index. The last block is
/// padded with zero weights. Packed once at prepare.
public struct Int8PackedWeights: Sendable {
    /// Output channels per block (one `SIMD8<Int32>` accumulator per input row).
    public static let blockWidth = 8
    /// Input rows (output pixels) per tile of the micro-kernel.
    public static let tileRows = 4

    /// The length of one weight row (the dot-product depth).
    public let depth: Int
    /// Output channels.
    public let channels: Int
    /// `blockCount * depth * blockWidth` packed weights.
    let values: [Int8]

    /// Blocks of `blockWidth` output channels, the last possibly partial.
    public var blockCount: Int { (channels + Self.blockWidth - 1) / Self.blockWidth }

    /// Packs `channels` weight rows of `depth` values each (`rows[c * depth + k]`).
    public init(rows: UnsafePointer<Int8>, channels: Int, depth: Int) {
        self.depth = depth
        self.channels = channels
        let width = Self.blockWidth
        let blocks = (channels + width - 1) / width
        var packed = [Int8](repeating: 0, count: blocks * depth * width)
        packed.withUnsafeMutableBufferPointer { out in
            for c in 0..<channels {
                let block = c / width, lane = c % width
                for k in 0..<depth {
                    out[(block * depth + k) * width + lane] = rows[c * depth + k]
                }
            }
        }
        self.values = packed
    }
}

/// Per-channel requantisation constants laid out for the optimised int8 kernels: folded bias,
/// fixed-point multiplier and shifts, padded to whole blocks of `Int8PackedWeights.blockWidth`
/// channels so a block's constants load as vectors.
struct Int8Requantization: Sendable {
    let bias: [Int32]
    let multiplier: [Int32]
    let leftShift: [Int32]
    let rightShift: [Int32]
    let outputOffset: Int32
    let minimum: Int32
    let maximum: Int32

    init(foldedBias: [Int32], multipliers: [QuantizedMultiplier], outputOffset: Int32, activation: ActivationRange<Int32>) {
        let width = Int8PackedWeights.blockWidth
        let padded = (foldedBias.count + width - 1) / width * width
        func pad(_ values: [Int32]) -> [Int32] { values + [Int32](repeating: 0, count: padded - values.count) }
        bias = pad(foldedBias)
        let perChannel = (0..<foldedBias.count).map { multipliers[multipliers.count == 1 ? 0 : $0] }
        multiplier = pad(perChannel.map(\.multiplier))
        leftShift = pad(perChannel.map { Int32(max($0.shift, 0)) })
        rightShift = pad(perChannel.map { Int32(max(-$0.shift, 0)) })
        self.outputOffset = outputOffset
        minimum = activation.min
        maximum = activation.max
    }
}

/// The int32 sums of `Int8PackedWeights.tileRows` int8 input rows with one block of packed
/// weights: `result[r][lane] = sum_k rows[r][k] * weights[k][lane]`. Products of sign-extended
/// int8 values are exact in int32 lanes (x86 without SSE4.1 forms them with `pmaddwd`).
@inline(__always)
func int8GEMMTile(_ r0: UnsafePointer<Int8>, _ r1: UnsafePointer<Int8>, _ r2: UnsafePointer<Int8>, _ r3: UnsafePointer<Int8>,
                  weights: UnsafePointer<Int8>, depth: Int)
    -> (SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>) {
    var a0 = SIMD8<Int32>(), a1 = SIMD8<Int32>(), a2 = SIMD8<Int32>(), a3 = SIMD8<Int32>()
    let w = UnsafeRawPointer(weights)
    for k in 0..<depth {
        let wk = SIMD8<Int32>(truncatingIfNeeded: w.loadUnaligned(fromByteOffset: k &* 8, as: SIMD8<Int8>.self))
        a0 &+= wk &* SIMD8<Int32>(repeating: Int32(r0[k]))
        a1 &+= wk &* SIMD8<Int32>(repeating: Int32(r1[k]))
        a2 &+= wk &* SIMD8<Int32>(repeating: Int32(r2[k]))
        a3 &+= wk &* SIMD8<Int32>(repeating: Int32(r3[k]))
    }
    return (a0, a1, a2, a3)
}

extension Int8Requantization {
    /// Requantises one block's sums for one output row and stores its `count` valid channels:
    /// the double-rounding `QuantizedMultiplier.apply` lane by lane, bit-exact with the scalar
    /// reference. (Vector lanes would need per-lane variable shifts and 64-bit products, which
    /// baseline x86-64 lacks; scalar code is faster there.)
    @inline(__always)
    func store(_ sums: SIMD8<Int32>, block: Int, to out: UnsafeMutablePointer<Int8>, count: Int,
               _ b: UnsafePointer<Int32>, _ m: UnsafePointer<Int32>, _ ls: UnsafePointer<Int32>, _ rs: UnsafePointer<Int32>) {
        let base = block &* 8
        for j in 0..<count {
            let c = base &+ j
            let x = (sums[j] &+ b[c]) &<< ls[c]
            var acc = roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, m[c]), Int(rs[c]))
            acc = min(max(acc &+ outputOffset, minimum), maximum)
            out[j] = Int8(truncatingIfNeeded: acc)
        }
    }
}
