#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A NumPy `.npy` array (format 1.0-3.0): little-endian, C order, no pickled objects.
/// Used for model inputs and outputs on the command line and for golden files in tests.
public struct NPYArray: Sendable, Equatable {
    /// The element types this runtime reads and writes, by their NumPy `descr` string.
    public enum DType: String, Sendable, CaseIterable {
        case float32 = "<f4", float16 = "<f2", float64 = "<f8"
        case int8 = "|i1", uint8 = "|u1", int16 = "<i2", uint16 = "<u2"
        case int32 = "<i4", uint32 = "<u4", int64 = "<i8", uint64 = "<u8"
        case bool = "|b1", complex64 = "<c8"

        /// Bytes per element.
        public var byteSize: Int {
            switch self {
            case .int8, .uint8, .bool: return 1
            case .float16, .int16, .uint16: return 2
            case .float32, .int32, .uint32: return 4
            case .float64, .int64, .uint64, .complex64: return 8
            }
        }

        /// The dtype's NumPy name (`float32`, `int8`, ...), as the corpus manifest spells it.
        public var name: String { String(describing: self) }

        /// Parses a NumPy `descr`; `=` and `<` both mean little-endian here, and one-byte
        /// types accept any byte-order mark.
        init?(descr: String) {
            var d = descr
            if d.hasPrefix("=") { d = "<" + d.dropFirst() }
            if let t = DType(rawValue: d) { self = t; return }
            if d.count == 3, d.hasSuffix("1"), let t = DType(rawValue: "|" + d.dropFirst()) { self = t; return }
            return nil
        }
    }

    public var dtype: DType
    public var shape: [Int]
    /// The elements' raw little-endian bytes in C order.
    public var data: [UInt8]

    /// Number of elements (1 for a scalar).
    public var elementCount: Int { shape.reduce(1, *) }

    /// Wraps raw bytes; throws unless `data.count == product(shape) * dtype.byteSize`.
    public init(dtype: DType, shape: [Int], data: [UInt8]) throws(NPYError) {
        guard shape.allSatisfy({ $0 >= 0 }) else { throw .invalidShape(shape) }
        var count = 1
        for d in shape {
            let (p, o) = count.multipliedReportingOverflow(by: d)
            guard !o else { throw .invalidShape(shape) }
            count = p
        }
        let (bytes, o) = count.multipliedReportingOverflow(by: dtype.byteSize)
        guard !o, bytes == data.count else { throw .sizeMismatch(expected: o ? Int.max : bytes, actual: data.count) }
        self.dtype = dtype
        self.shape = shape
        self.data = data
    }

    /// Builds an array from typed values, copying their bytes.
    public init<T: BitwiseCopyable>(_ values: [T], dtype: DType, shape: [Int]) throws(NPYError) {
        guard MemoryLayout<T>.stride == dtype.byteSize else { throw .sizeMismatch(expected: dtype.byteSize, actual: MemoryLayout<T>.stride) }
        let bytes = values.withUnsafeBytes { [UInt8]($0) }
        try self.init(dtype: dtype, shape: shape, data: bytes)
    }

    /// The elements reinterpreted as `T`; the caller picks the `T` that matches `dtype`.
    public func values<T: BitwiseCopyable>(as type: T.Type) -> [T] {
        precondition(MemoryLayout<T>.stride == dtype.byteSize, "element type does not match \(dtype.name)")
        return data.withUnsafeBytes { raw in
            [T](unsafeUninitializedCapacity: elementCount) { buffer, count in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
                count = elementCount
            }
        }
    }
}

/// Why an `.npy` file could not be read or written.
public enum NPYError: Error, Equatable, CustomStringConvertible {
    case notNPY
    case unsupportedVersion(UInt8)
    case badHeader(String)
    case unsupportedDType(String)
    case fortranOrder
    case invalidShape([Int])
    case sizeMismatch(expected: Int, actual: Int)
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .notNPY: return "not an .npy file (missing \\x93NUMPY magic)"
        case .unsupportedVersion(let v): return "unsupported .npy format version \(v)"
        case .badHeader(let why): return "malformed .npy header: \(why)"
        case .unsupportedDType(let d): return "unsupported .npy dtype '\(d)' (supported: \(NPYArray.DType.allCases.map(\.name).joined(separator: ", ")))"
        case .fortranOrder: return "Fortran-ordered .npy arrays are not supported; save with C order"
        case .invalidShape(let s): return "invalid .npy shape \(s)"
        case .sizeMismatch(let e, let a): return ".npy data holds \(a) bytes, shape and dtype need \(e)"
        case .io(let path, let reason): return "\(path): \(reason)"
        }
    }
}
