extension Tensor {
    /// The shape of a tensor: its dimensions, outermost first.
    public struct Shape: Equatable, Hashable, Sendable {
        /// The number of dimensions.
        public let rank: Int
        /// The extent of each dimension.
        public let dimensions: [Int]

        /// A shape with these dimensions.
        public init(_ dimensions: [Int]) {
            self.rank = dimensions.count
            self.dimensions = dimensions
        }

        /// A shape with these dimensions: `Tensor.Shape(1, 224, 224, 3)`.
        public init(_ elements: Int...) {
            self.init(elements)
        }
    }
}

extension Tensor.Shape: ExpressibleByArrayLiteral {
    /// A shape written as an array literal: `[1, 224, 224, 3]`.
    public init(arrayLiteral elements: Int...) {
        self.init(elements)
    }
}
