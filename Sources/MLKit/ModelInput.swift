import Foundation
internal import TFLiteTasks

/// One input given to ``ModelInputs``, turned into the bytes of its declared format when the
/// model runs (only then is the format known). Unchecked `Sendable`: the arrays hold numbers,
/// Swift values or immutable `NSNumber`s, and are only read.
enum ModelInput: @unchecked Sendable {
    /// The input's bytes as given.
    case data(Data)
    /// Numbers nested as the declared dimensions, or flat.
    case array([Any])

    /// The input's bytes in the declared `format`: data must have the format's size, an array
    /// the format's shape (or its element count, flat) and values the type can hold.
    func bytes(index: Int, format: TFLiteTasks.ModelInputOutputOptions.Format) throws(NSError) -> [UInt8] {
        let count = format.dimensions.reduce(1, *)
        switch self {
        case .data(let data):
            let expected = count * format.type.byteSize
            guard data.count == expected else {
                throw VisionError.failed("input \(index): \(data.count) bytes given; \(format.type) \(format.dimensions) takes \(expected)")
            }
            return [UInt8](data)
        case .array(let array):
            var leaves: [Any] = []
            leaves.reserveCapacity(count)
            // A flat array of the right length is accepted as well as the nested form.
            if array.count == count, !array.contains(where: { $0 is [Any] }) {
                leaves = array
            } else {
                try Self.flatten(array, format.dimensions[...], path: [], index: index, into: &leaves)
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count * format.type.byteSize)
            for (k, leaf) in leaves.enumerated() {
                try Self.append(leaf, as: format.type, index: index, element: k, to: &bytes)
            }
            return bytes
        }
    }

    /// Collects the leaves of `value`, which must be nested exactly as `dims`.
    private static func flatten(_ value: [Any], _ dims: ArraySlice<Int>, path: [Int], index: Int,
                                into leaves: inout [Any]) throws(NSError) {
        guard let first = dims.first, value.count == first else {
            let at = path.isEmpty ? "" : " at \(path)"
            throw VisionError.failed("input \(index): \(value.count) values\(at) where the declared dimensions \(Array(dims)) need \(dims.first.map(String.init) ?? "a number")")
        }
        let inner = dims.dropFirst()
        for (k, item) in value.enumerated() {
            if inner.isEmpty {
                guard !(item is [Any]) else {
                    throw VisionError.failed("input \(index): an array at \(path + [k]) where the declared dimensions end")
                }
                leaves.append(item)
            } else {
                guard let nested = item as? [Any] else {
                    throw VisionError.failed("input \(index): a number at \(path + [k]) where the declared dimensions need an array of \(inner.first!)")
                }
                try flatten(nested, inner, path: path + [k], index: index, into: &leaves)
            }
        }
    }

    /// Appends `leaf` as a little-endian value of `type`; an integer type takes only whole
    /// numbers in its range.
    private static func append(_ leaf: Any, as type: TFLiteTasks.ModelElementType, index: Int, element: Int,
                               to bytes: inout [UInt8]) throws(NSError) {
        guard let number = InputNumber(leaf) else {
            throw VisionError.failed("input \(index): element \(element) (\(Swift.type(of: leaf))) is not a number")
        }
        func integer<T: FixedWidthInteger>(_: T.Type) throws(NSError) -> T {
            guard let v = number.exactly(T.self) else {
                throw VisionError.failed("input \(index): element \(element) = \(number) does not fit \(type)")
            }
            return v
        }
        switch type {
        case .float32: withUnsafeBytes(of: Float(number.double).bitPattern.littleEndian) { bytes += $0 }
        case .uInt8: bytes.append(try integer(UInt8.self))
        case .int8: bytes.append(UInt8(bitPattern: try integer(Int8.self)))
        case .int32: withUnsafeBytes(of: try integer(Int32.self).littleEndian) { bytes += $0 }
        case .int64: withUnsafeBytes(of: try integer(Int64.self).littleEndian) { bytes += $0 }
        }
    }
}
