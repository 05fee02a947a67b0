#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Scaled dot-product attention as LiteRT's `odml.scaled_dot_product_attention` computes it:
/// queries `[batch, tokens, heads, dim]` are multiplied by `scale` (rounded to float), dotted
/// with keys `[batch, length, kvHeads, dim]`, the mask (4-D, broadcast to
/// `[batch, heads, tokens, length]`) is added, a softmax taken over the keys and the values
/// `[batch, length, kvHeads, dim]` summed with those weights, into `[batch, tokens, heads, dim]`.
/// With fewer key/value heads than query heads (grouped-query or multi-query attention),
/// query head `h` reads key/value head `h / (heads / kvHeads)`, as `repeat_interleave` does.
/// Every sum runs in the order LiteRT's reference loops run it.
public enum ScaledDotProductAttention {
    public struct Shape: Sendable, Equatable {
        public var batch, tokens, heads, dim, length, kvHeads: Int
        /// The mask's dimensions (rank 4), each 1 or the matching `[batch, heads, tokens, length]`.
        public var mask: [Int]

        public init(batch: Int, tokens: Int, heads: Int, dim: Int, length: Int, kvHeads: Int, mask: [Int]) {
            (self.batch, self.tokens, self.heads, self.dim, self.length, self.kvHeads, self.mask) =
                (batch, tokens, heads, dim, length, kvHeads, mask)
        }
    }

    /// Floats of scratch ``run(_:scale:query:key:value:mask:output:scratch:)`` needs: the
    /// scaled query of one token and head, and one row of attention weights.
    public static func scratchCount(_ s: Shape) -> Int { s.dim + s.length }

    public static func run(_ s: Shape, scale: Float, query: UnsafePointer<Float>, key: UnsafePointer<Float>,
                           value: UnsafePointer<Float>, mask: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                           scratch: UnsafeMutablePointer<Float>) {
        let q = scratch, weights = scratch + s.dim
        let group = s.heads / s.kvHeads
        // Strides of the mask over [batch, heads, tokens, length], 0 along broadcast dimensions.
        let m = s.mask
        let maskStride = [m[1] * m[2] * m[3], m[2] * m[3], m[3], 1].enumerated().map { m[$0.offset] == 1 ? 0 : $0.element }
        for b in 0..<s.batch {
            for h in 0..<s.heads {
                let kvHead = h / group
                for t in 0..<s.tokens {
                    let queryRow = query + ((b * s.tokens + t) * s.heads + h) * s.dim
                    for d in 0..<s.dim { q[d] = queryRow[d] * scale }
                    let maskRow = mask + b * maskStride[0] + h * maskStride[1] + t * maskStride[2]
                    var largest = -Float.infinity
                    for j in 0..<s.length {
                        let keyRow = key + ((b * s.length + j) * s.kvHeads + kvHead) * s.dim
                        var dot: Float = 0
                        for d in 0..<s.dim { dot += keyRow[d] * q[d] }
                        let logit = maskRow[j * maskStride[3]] + dot
                        weights[j] = logit
                        largest = max(largest, logit)
                    }
                    var total: Float = 0
                    for j in 0..<s.length {
                        weights[j] = expf(weights[j] - largest)
                        total += weights[j]
                    }
                    for j in 0..<s.length { weights[j] /= total }
                    let out = output + ((b * s.tokens + t) * s.heads + h) * s.dim
                    for d in 0..<s.dim {
                        var sum: Float = 0
                        for j in 0..<s.length { sum += weights[j] * value[((b * s.length + j) * s.kvHeads + kvHead) * s.dim + d] }
                        out[d] = sum
                    }
                }
            }
        }
    }
}
