/// The extents of a 4-D NHWC tensor, the layout every TFLite image op uses.
public struct NHWC: Sendable, Equatable {
    public var batch: Int
    public var height: Int
    public var width: Int
    public var channels: Int

    public init(batch: Int, height: Int, width: Int, channels: Int) {
        (self.batch, self.height, self.width, self.channels) = (batch, height, width, channels)
    }

    /// Reads a rank-4 shape; nil for any other rank.
    public init?(_ shape: [Int]) {
        guard shape.count == 4 else { return nil }
        self.init(batch: shape[0], height: shape[1], width: shape[2], channels: shape[3])
    }

    public var elementCount: Int { batch * height * width * channels }
    public var dims: [Int] { [batch, height, width, channels] }
}

extension NHWC {
    /// Calls `body(b, y, x, c, index)` for every element in row-major order, `index` being the
    /// element's offset in a tensor of these extents.
    @inline(__always)
    func forEachElement(_ body: (_ b: Int, _ y: Int, _ x: Int, _ c: Int, _ index: Int) -> Void) {
        var index = 0
        for b in 0..<batch {
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<channels {
                        body(b, y, x, c, index)
                        index += 1
                    }
                }
            }
        }
    }
}
