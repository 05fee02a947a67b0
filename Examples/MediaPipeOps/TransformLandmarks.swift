import TFLiteRuntime

/// MediaPipe's `TransformLandmarks` (version 2): maps each landmark's (x, y) through the 2-D
/// affine part of a 4x4 matrix (its first two rows, applied to (x, y, 0, 1)), keeping z.
///
/// Inputs: landmarks `[1, N, D]` float32 with D = 2 (x, y) or 3 (x, y, z), and the matrix
/// `[1, 4, 4]` float32, row-major (as `Landmarks2TransformMatrix` writes it). Output: the
/// landmarks' shape.
public enum TransformLandmarks {
    /// Transforms `count` landmarks of `dimensions` floats each from `landmarks` into `output`.
    public static func transform(landmarks: UnsafeBufferPointer<Float>, count: Int, dimensions: Int,
                                 matrix: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let x0 = matrix[0], x1 = matrix[1], x2 = matrix[2], x3 = matrix[3]
        let y0 = matrix[4], y1 = matrix[5], y2 = matrix[6], y3 = matrix[7]
        for k in 0..<count {
            let offset = k * dimensions
            let x = landmarks[offset], y = landmarks[offset + 1]
            // The dot product with (x, y, 0, 1), summed left to right as MediaPipe does.
            output[offset] = x0 * x + x1 * y + x2 * 0 + x3 * 1
            output[offset + 1] = y0 * x + y1 * y + y2 * 0 + y3 * 1
            if dimensions == 3 { output[offset + 2] = landmarks[offset + 2] }
        }
    }

    /// The operator: `TransformLandmarks` version 2.
    public static let customOperator = CustomOperator(name: "TransformLandmarks", versions: 2...2) { node in
        try node.expect(inputs: 2, outputs: 1)
        let landmarks = try node.input(0), matrix = try node.input(1)
        guard landmarks.type == .float32, matrix.type == .float32, node.outputs[0].type == .float32 else {
            throw CustomOperatorError("takes and gives float32, not \(landmarks.type), \(matrix.type) and \(node.outputs[0].type)")
        }
        let shape = landmarks.shape
        // Version 2 has no options: the landmarks' last dimension says how many coordinates each has.
        guard shape.count == 3, shape[0] == 1, shape[2] == 2 || shape[2] == 3 else {
            throw CustomOperatorError("landmarks must have shape [1, N, 2] or [1, N, 3], not \(shape)")
        }
        guard matrix.elementCount == 16 else {
            throw CustomOperatorError("the matrix must have 16 elements ([1, 4, 4]), not shape \(matrix.shape)")
        }
        try node.setOutput(0, shape: shape)
        let count = shape[1], dimensions = shape[2]
        return { io in
            transform(landmarks: io.input(0, as: Float.self), count: count, dimensions: dimensions,
                      matrix: io.input(1, as: Float.self), into: io.output(0, as: Float.self))
        }
    }
}
