#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteRuntime

/// MediaPipe's `TransformTensorBilinear` (version 2): an affine crop of a feature map. Output
/// pixel (x, y) samples the input bilinearly at the point the matrix's first two rows map
/// (x, y, 0, 1) to, with pixel centres aligned (the matrix maps centre to centre); points
/// outside the input give 0.
///
/// Inputs: the feature map `[1, H, W, C]` float32 and the matrix `[1, 4, 4]` float32,
/// row-major. Output: `[1, outputHeight, outputWidth, C]`.
public struct TransformTensorBilinear: Sendable, Equatable {
    /// The crop's size (`output_height`, `output_width` in the options).
    public var outputHeight: Int
    public var outputWidth: Int

    public init(outputHeight: Int, outputWidth: Int) {
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
    }

    /// The size from the operator's custom options.
    public init(customOptions: [UInt8]) throws(CustomOperatorError) {
        let options = try FlexOptions(customOptions)
        self.init(outputHeight: try options.int32("output_height"), outputWidth: try options.int32("output_width"))
    }

    /// Samples `input` (`height` x `width` x `channels`, HWC) into `output`
    /// (`outputHeight` x `outputWidth` x `channels`).
    public func sample(input: UnsafeBufferPointer<Float>, height: Int, width: Int, channels: Int,
                       matrix: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        // The matrix maps pixel corners; shifting by half a pixel on both sides of it (in
        // double, as MediaPipe's expression is) makes it map pixel centres.
        let x0 = matrix[0], x1 = matrix[1], x2 = matrix[2], y0 = matrix[4], y1 = matrix[5], y2 = matrix[6]
        let x3 = Float(Double(matrix[3]) + (Double(x0) * 0.5 + Double(x1) * 0.5 - 0.5))
        let y3 = Float(Double(matrix[7]) + (Double(y0) * 0.5 + Double(y1) * 0.5 - 0.5))
        let maxX = Float(width - 1), maxY = Float(height - 1)
        func value(_ h: Int, _ w: Int, _ z: Int) -> Float {
            h < 0 || w < 0 || h >= height || w >= width ? 0 : input[(h * width + w) * channels + z]
        }
        for outY in 0..<outputHeight {
            for outX in 0..<outputWidth {
                let ox = Float(outX), oy = Float(outY)
                let tx = x0 * ox + x1 * oy + x2 * 0 + x3 * 1
                let ty = y0 * ox + y1 * oy + y2 * 0 + y3 * 1
                let base = (outY * outputWidth + outX) * channels
                // Written as a negated test so that a NaN coordinate counts as outside.
                guard tx >= 0, tx <= maxX, ty >= 0, ty <= maxY else {
                    for z in 0..<channels { output[base + z] = 0 }
                    continue
                }
                let fx = floorf(tx), fy = floorf(ty)
                let w0 = Int(fx), h0 = Int(fy)
                let right = tx - fx, lower = ty - fy
                for z in 0..<channels {
                    let q11 = value(h0, w0, z), q21 = value(h0, w0 + 1, z)
                    let q12 = value(h0 + 1, w0, z), q22 = value(h0 + 1, w0 + 1, z)
                    // MediaPipe's mix of double (the 1.0 literals) and float products.
                    let upper = Float((1.0 - Double(right)) * Double(q11) + Double(right * q21))
                    let bottom = Float((1.0 - Double(right)) * Double(q12) + Double(right * q22))
                    output[base + z] = Float(Double(lower * bottom) + (1.0 - Double(lower)) * Double(upper))
                }
            }
        }
    }

    /// The operator: `TransformTensorBilinear` version 2.
    public static let customOperator = CustomOperator(name: "TransformTensorBilinear", versions: 2...2) { node in
        try node.expect(inputs: 2, outputs: 1)
        let features = try node.input(0), matrix = try node.input(1)
        guard features.type == .float32, matrix.type == .float32, node.outputs[0].type == .float32 else {
            throw CustomOperatorError("takes and gives float32, not \(features.type), \(matrix.type) and \(node.outputs[0].type)")
        }
        let shape = features.shape
        guard shape.count == 4, shape[0] == 1 else {
            throw CustomOperatorError("the feature map must have shape [1, H, W, C], not \(shape)")
        }
        guard matrix.elementCount == 16 else {
            throw CustomOperatorError("the matrix must have 16 elements ([1, 4, 4]), not shape \(matrix.shape)")
        }
        let parameters = try TransformTensorBilinear(customOptions: node.customOptions)
        guard parameters.outputHeight > 0, parameters.outputWidth > 0 else {
            throw CustomOperatorError("output size \(parameters.outputWidth)x\(parameters.outputHeight) must be positive")
        }
        try node.setOutput(0, shape: [1, parameters.outputHeight, parameters.outputWidth, shape[3]])
        let (height, width, channels) = (shape[1], shape[2], shape[3])
        return { io in
            parameters.sample(input: io.input(0, as: Float.self), height: height, width: width, channels: channels,
                              matrix: io.input(1, as: Float.self), into: io.output(0, as: Float.self))
        }
    }
}
