/// Bounds on the work a hostile buffer can cause while it is decoded.
///
/// FlatBuffer offsets only point forward, so a buffer cannot hold a cycle, but it can hold a
/// DAG that references one table from many places, which a naive decoder would expand
/// exponentially. The object budget caps the expansion at a multiple of the buffer size.
public struct FlatBufferLimits: Sendable, Equatable {
    /// How deep tables may nest below the root.
    public var maxDepth: Int
    /// How many objects (tables, vectors, strings, plus one per vector element) a decode
    /// may visit in total.
    public var maxObjects: Int

    /// Creates limits with an explicit depth and object budget.
    public init(maxDepth: Int, maxObjects: Int) {
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
    }

    /// Limits for a buffer of `size` bytes: nesting depth 64 and an object budget of twice
    /// the size plus a small constant. An honest buffer stores every object and element it
    /// references at least once and spends at least one byte on each, so it always fits.
    public static func proportional(toSize size: Int) -> FlatBufferLimits {
        FlatBufferLimits(maxDepth: 64, maxObjects: 2 &* max(size, 0) &+ 4096)
    }
}

/// The remaining object budget of one decode, shared by every reader made from one buffer.
final class DecodeBudget {
    var remaining: Int

    init(_ objects: Int) { remaining = objects }

    /// Spends `units` of the budget; throws once it is exhausted.
    func spend(_ units: Int, at offset: Int) throws(FlatBufferError) {
        guard units <= remaining else {
            throw FlatBufferError(.tooManyObjects, at: offset,
                                  "decoding visits more objects than the buffer size allows (shared sub-objects referenced too often)")
        }
        remaining -= units
    }
}
