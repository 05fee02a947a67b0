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
        case int8 = "|i1", uInt8 = "|u1", int16 = "<i2", uInt16 = "<u2"
        case int32 = "<i4", uInt32 = "<u4", int64 = "<i8", uInt64 = "<u8"
        case bool = "|b1", complex64 = "<c8"
        /// Fixed-width byte strings (NumPy `S`, `|S<width>`): each element is ``NPYArray/itemSize``
        /// bytes, padded with NULs. Unicode arrays (`<U<width>`) are read into this type as UTF-8.
        case bytes = "|S"

        /// Bytes per element (for ``bytes``, of the narrowest width, `|S1`).
        public var byteSize: Int {
            switch self {
            case .int8, .uInt8, .bool, .bytes: return 1
            case .float16, .int16, .uInt16: return 2
            case .float32, .int32, .uInt32: return 4
            case .float64, .int64, .uInt64, .complex64: return 8
            }
        }

        /// The dtype's NumPy name (`float32`, `int8`, ...), as the corpus manifest spells it.
        public var name: String { String(describing: self) }

        /// Parses a NumPy `descr`; `=` and `<` both mean little-endian here, and one-byte
        /// types accept any byte-order mark.
        init?(descr: String) {
            var d = descr
            if d.hasPrefix("=") { d = "<" + d.dropFirst() }
            // Byte strings carry their width in the descr; the array's parser reads them.
            if d.hasSuffix("S") { return nil }
            if let t = DType(rawValue: d) { self = t; return }
            if d.count == 3, d.hasSuffix("1"), let t = DType(rawValue: "|" + d.dropFirst()) { self = t; return }
            return nil
        }
    }

    public var dtype: DType
    public var shape: [Int]
    /// The elements' raw little-endian bytes in C order.
    public var data: [UInt8]
    /// Bytes per element: `dtype.byteSize`, or a byte string array's width.
    public private(set) var itemSize: Int

    /// Number of elements (1 for a scalar).
    public var elementCount: Int { shape.reduce(1, *) }

    /// Wraps raw bytes; throws unless `data.count == product(shape) * itemSize`. `itemSize`
    /// is the width of a ``DType/bytes`` array and defaults to `dtype.byteSize`.
    public init(dtype: DType, shape: [Int], data: [UInt8], itemSize: Int? = nil) throws(NPYError) {
        let itemSize = itemSize ?? dtype.byteSize
        guard itemSize == dtype.byteSize || (dtype == .bytes && itemSize > 0) else {
            throw .unsupportedDType("\(dtype.rawValue) with \(itemSize)-byte elements")
        }
        guard shape.allSatisfy({ $0 >= 0 }) else { throw .invalidShape(shape) }
        var count = 1
        for d in shape {
            let (p, o) = count.multipliedReportingOverflow(by: d)
            guard !o else { throw .invalidShape(shape) }
            count = p
        }
        let (bytes, o) = count.multipliedReportingOverflow(by: itemSize)
        guard !o, bytes == data.count else { throw .sizeMismatch(expected: o ? Int.max : bytes, actual: data.count) }
        self.dtype = dtype
        self.shape = shape
        self.data = data
        self.itemSize = itemSize
    }

    /// A byte string array of `shape` holding `strings` (C order), as wide as the longest.
    /// NumPy drops trailing NULs when it reads such an array, so strings ending in NUL do not
    /// survive a round trip through NumPy.
    public init(strings: [[UInt8]], shape: [Int]) throws(NPYError) {
        let width = max(1, strings.map(\.count).max() ?? 0)
        var data = [UInt8]()
        data.reserveCapacity(width * strings.count)
        for s in strings {
            data.append(contentsOf: s)
            data.append(contentsOf: repeatElement(0, count: width - s.count))
        }
        try self.init(dtype: .bytes, shape: shape, data: data, itemSize: width)
    }

    /// The elements of a byte string array without their NUL padding; nil for other types.
    public var byteStrings: [[UInt8]]? {
        guard dtype == .bytes else { return nil }
        return (0..<elementCount).map { i in
            var s = data[(i * itemSize)..<((i + 1) * itemSize)]
            while s.last == 0 { s = s.dropLast() }
            return Array(s)
        }
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
