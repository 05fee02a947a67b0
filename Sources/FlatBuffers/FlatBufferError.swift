/// A FlatBuffer or FlexBuffer that cannot be read safely: what was wrong and at which byte
/// offset of the buffer it was found.
public struct FlatBufferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of problem, for callers that react to one kind specifically.
    public enum Kind: String, Equatable, Sendable {
        /// An offset, length or field reaches outside the buffer.
        case outOfBounds
        /// An offset or length prefix does not sit on its required alignment.
        case misaligned
        /// A vtable is malformed: too short, odd-sized, or larger than the buffer.
        case badVTable
        /// A count times an element size overflows, or exceeds the buffer.
        case lengthOverflow
        /// A string lacks its terminating zero byte.
        case unterminatedString
        /// Tables nest deeper than the configured limit.
        case tooDeep
        /// Decoding touched more objects than the configured limit allows (shared
        /// sub-objects referenced many times).
        case tooManyObjects
        /// A value is outside the range its type allows (an enum, a type tag, a width).
        case invalidValue
        /// A FlexBuffer value was read as a type it does not hold.
        case typeMismatch
        /// The buffer does not carry the expected file identifier.
        case badIdentifier
    }

    /// The class of problem.
    public let kind: Kind
    /// The byte offset, from the start of the buffer, where the problem was found.
    public let offset: Int
    /// What was being read and what was wrong with it.
    public let reason: String

    /// Creates an error of `kind` found at byte `offset`, explained by `reason`.
    public init(_ kind: Kind, at offset: Int, _ reason: String) {
        self.kind = kind
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) (at byte offset \(offset))" }
}
