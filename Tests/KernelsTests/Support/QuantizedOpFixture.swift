import Foundation
import Kernels
import TestSupport

/// One operator of an op-zoo model with LiteRT's own inputs and output for it, as written by
/// `Scripts/dump_quantized_kernel_fixtures.py` into `Tests/Fixtures/kernels/<model>.json`.
struct QuantizedOpFixture: Decodable, CustomStringConvertible {
    struct Tensor: Decodable {
        var index: Int
        var name: String
        var dtype: String
        var shape: [Int]
        var scales: [Double]
        var zeroPoints: [Int]
        var quantizedDimension: Int
        var data: [Double]
        /// Float tensors are stored as float32 bit patterns.
        var floatBits: Bool?

        enum CodingKeys: String, CodingKey {
            case index, name, dtype, shape, scales, data
            case floatBits = "float_bits"
            case zeroPoints = "zero_points"
            case quantizedDimension = "quantized_dimension"
        }

        var scale: Float { Float(scales.first ?? 0) }
        var zeroPoint: Int32 { Int32(zeroPoints.first ?? 0) }
        var quantization: AffineQuantization { AffineQuantization(scale: scale, zeroPoint: zeroPoint) }
        var nhwc: NHWC { NHWC(shape)! }
        var count: Int { shape.reduce(1, *) }

        func values<T: BinaryInteger>(_: T.Type) -> [T] { data.map { T(Int64($0)) } }
        var floats: [Float] {
            floatBits == true ? data.map { Float(bitPattern: UInt32($0)) } : data.map { Float($0) }
        }
    }

    struct Options: Decodable {
        private var values: [String: Double]
        init(from decoder: Decoder) throws {
            let raw = try decoder.singleValueContainer().decode([String: FlexibleScalar].self)
            values = raw.mapValues(\.value)
        }
        subscript(_ key: String) -> Int { Int(values[key] ?? 0) }
        func float(_ key: String) -> Float { Float(values[key] ?? 0) }
        func has(_ key: String) -> Bool { values[key] != nil }
    }

    struct FlexibleScalar: Decodable {
        var value: Double
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) { value = b ? 1 : 0 } else { value = try c.decode(Double.self) }
        }
    }

    var model: String = ""
    var position: Int = 0
    var op: String
    var version: Int
    var options: Options
    var inputs: [Tensor?]
    var outputs: [Tensor]

    enum CodingKeys: String, CodingKey { case op, version, options, inputs, outputs }

    var description: String { "\(model)#\(position) \(op)" }

    /// Geometry options (stride, dilation, SAME/VALID padding) of a conv or pool op.
    var padding: PaddingScheme { options["Padding"] == 0 ? .same : .valid }
    var fusedActivation: FusedActivation {
        switch options["FusedActivationFunction"] {
        case 1: return .relu
        case 2: return .reluN1To1
        case 3: return .relu6
        case 4: return .tanh
        case 5: return .signBit
        default: return .none
        }
    }

    private struct File: Decodable { var ops: [QuantizedOpFixture] }

    /// Every operator of the named fixture file (a model of the op zoo).
    static func load(_ model: String) throws -> [QuantizedOpFixture] {
        let url = Fixtures.root.appendingPathComponent("Tests/Fixtures/kernels/\(model).json")
        var ops = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).ops
        for i in ops.indices {
            ops[i].model = model
            ops[i].position = i
        }
        return ops
    }

    /// Every operator of the named fixture files; a missing file yields no operators (tests check
    /// the expected count).
    static func all(in models: [String]) -> [QuantizedOpFixture] {
        models.flatMap { (try? load($0)) ?? [] }
    }

    /// The operators of the named type across fixture files.
    static func ops(_ name: String, in models: [String]) -> [QuantizedOpFixture] {
        models.flatMap { (try? load($0)) ?? [] }.filter { $0.op == name }
    }
}

/// Differences between a result and LiteRT's stored integers.
struct UnitDifference: CustomStringConvertible {
    var count = 0
    var offByOne = 0
    var worse = 0
    var maxAbs = 0

    init<T: BinaryInteger>(_ actual: [T], _ golden: [Int64]) {
        count = golden.count
        for (a, g) in zip(actual, golden) {
            let d = abs(Int(Int64(a) - g))
            maxAbs = max(maxAbs, d)
            if d == 1 { offByOne += 1 } else if d > 1 { worse += 1 }
        }
        if actual.count != golden.count { worse += 1 }
    }

    var isExact: Bool { offByOne == 0 && worse == 0 }
    var description: String { "\(count) elements, \(offByOne) off by one, \(worse) worse, max |diff| \(maxAbs)" }
}

/// Runs a kernel with one `T` input tensor of the fixture and a `T` output of `outputCount`
/// elements, returning the stored output widened.
func runUnary<T: QuantizedElement>(_: T.Type, _ input: QuantizedOpFixture.Tensor, outputCount: Int,
                                   _ kernel: (UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void) -> [Int64] {
    var out = [T](repeating: 0, count: outputCount)
    input.values(T.self).withUnsafeBufferPointer { i in
        out.withUnsafeMutableBufferPointer { o in kernel(i.baseAddress!, o.baseAddress!) }
    }
    return out.map(Int64.init)
}

/// The same for two `T` inputs.
func runBinary<T: QuantizedElement>(_: T.Type, _ a: QuantizedOpFixture.Tensor, _ b: QuantizedOpFixture.Tensor, outputCount: Int,
                                    _ kernel: (UnsafePointer<T>, UnsafePointer<T>, UnsafeMutablePointer<T>) -> Void) -> [Int64] {
    var out = [T](repeating: 0, count: outputCount)
    a.values(T.self).withUnsafeBufferPointer { x in
        b.values(T.self).withUnsafeBufferPointer { y in
            out.withUnsafeMutableBufferPointer { o in kernel(x.baseAddress!, y.baseAddress!, o.baseAddress!) }
        }
    }
    return out.map(Int64.init)
}

extension QuantizedOpFixture {
    /// The window geometry of a convolution-like fixture (input 0 NHWC, input 1 a filter whose
    /// axes 1 and 2 are its height and width), from its recorded options.
    var convolutionGeometry: ConvGeometry {
        let input = inputs[0]!, filter = inputs[1]!
        return ConvGeometry.make(padding: padding, inputHeight: input.shape[1], inputWidth: input.shape[2],
                                 filterHeight: filter.shape[1], filterWidth: filter.shape[2],
                                 strideHeight: options["StrideH"], strideWidth: options["StrideW"],
                                 dilationHeight: options["DilationHFactor"], dilationWidth: options["DilationWFactor"])!.geometry
    }
}
