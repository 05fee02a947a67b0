/// A snapshot of one tensor of an interpreter: its description and a copy of its bytes.
public struct Tensor: Sendable, Equatable {
    /// The tensor's name in the model.
    public let name: String
    /// The element type.
    public let dataType: DataType
    /// The current shape (after any resize).
    public let shape: [Int]
    /// The raw little-endian bytes, `shape` product x element size.
    public let data: [UInt8]
    /// Quantisation, nil for tensors that are not quantised.
    public let quantizationParameters: QuantizationParameters?

    public init(name: String, dataType: DataType, shape: [Int], data: [UInt8], quantizationParameters: QuantizationParameters?) {
        self.name = name
        self.dataType = dataType
        self.shape = shape
        self.data = data
        self.quantizationParameters = quantizationParameters
    }

    /// Number of elements.
    public var elementCount: Int { shape.reduce(1, *) }

    /// The elements as `T`. The caller chooses `T` to match `dataType` (e.g. `Float` for
    /// `.float32`, `Int8` for `.int8`); a size mismatch is a programming error.
    public func values<T: BitwiseCopyable>(as: T.Type) -> [T] {
        precondition(dataType.byteSize == MemoryLayout<T>.stride, "\(T.self) does not match tensor type \(dataType)")
        return data.withUnsafeBytes { raw in
            [T](unsafeUninitializedCapacity: elementCount) { buffer, count in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
                count = elementCount
            }
        }
    }

    /// The elements converted to real numbers: dequantised for quantised integer tensors,
    /// widened for float16/float32/integer types. Nil for types without a numeric value.
    public func dequantized() -> [Float]? {
        let q = quantizationParameters
        func affine<T: BinaryInteger & BitwiseCopyable>(_ t: T.Type) -> [Float] {
            let v = values(as: T.self)
            guard let q else { return v.map { Float($0) } }
            return v.map { q.scale * Float(Int64($0) - Int64(q.zeroPoint)) }
        }
        switch dataType {
        case .float32: return values(as: Float.self)
        case .float16: return values(as: UInt16.self).map { Float(Float16(bitPattern: $0)) }
        case .float64: return values(as: Double.self).map { Float($0) }
        case .int8: return affine(Int8.self)
        case .uInt8: return affine(UInt8.self)
        case .int16: return affine(Int16.self)
        case .int32: return affine(Int32.self)
        case .int64: return affine(Int64.self)
        case .bool: return values(as: UInt8.self).map { $0 != 0 ? 1 : 0 }
        default: return nil
        }
    }
}
