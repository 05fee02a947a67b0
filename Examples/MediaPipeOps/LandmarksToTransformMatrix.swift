#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteRuntime

/// MediaPipe's `Landmarks2TransformMatrix` (version 2): from a face mesh, the matrix that maps
/// the pixels of an output crop of `outputWidth` x `outputHeight` to points of the landmarks'
/// space, the crop being the box around the `subsetIndices` landmarks (scaled by `scaleX`,
/// `scaleY`), turned so that the line from the left to the right rotation landmark lies at
/// `targetRotationRadians`.
///
/// Input: landmarks `[1, N, 3]` float32 (x, y, z each; z is not used). Output: `[1, 4, 4]`
/// float32, row-major; only the first two rows and the last column carry the 2-D affine map
/// (`TransformTensorBilinear` and `TransformLandmarks` read rows 0 and 1).
public struct LandmarksToTransformMatrix: Sendable, Equatable {
    /// The landmarks whose box, in the rotated frame, the crop covers (MediaPipe's
    /// `subset_idxs`, read in pairs; an odd count repeats the last one, which changes no box).
    public var subsetIndices: [Int]
    /// The two landmarks whose direction sets the rotation (`left_rotation_idx`, `right_rotation_idx`).
    public var leftRotationIndex: Int
    public var rightRotationIndex: Int
    /// The angle that direction should have in the crop (`target_rotation_radians`).
    public var targetRotationRadians: Float
    /// The crop's size in pixels (`output_width`, `output_height`).
    public var outputWidth: Int
    public var outputHeight: Int
    /// How much larger than the landmarks' box the crop is (`scale_x`, `scale_y`).
    public var scaleX: Float
    public var scaleY: Float

    public init(subsetIndices: [Int], leftRotationIndex: Int, rightRotationIndex: Int, targetRotationRadians: Float = 0,
                outputWidth: Int, outputHeight: Int, scaleX: Float = 1, scaleY: Float = 1) {
        self.subsetIndices = subsetIndices
        self.leftRotationIndex = leftRotationIndex
        self.rightRotationIndex = rightRotationIndex
        self.targetRotationRadians = targetRotationRadians
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.scaleX = scaleX
        self.scaleY = scaleY
    }

    /// The parameters from the operator's custom options (a FlexBuffer map with MediaPipe's keys).
    public init(customOptions: [UInt8]) throws(CustomOperatorError) {
        let options = try FlexOptions(customOptions)
        self.init(subsetIndices: try options.int32s("subset_idxs"),
                  leftRotationIndex: try options.int32("left_rotation_idx"),
                  rightRotationIndex: try options.int32("right_rotation_idx"),
                  targetRotationRadians: try options.float("target_rotation_radians"),
                  outputWidth: try options.int32("output_width"), outputHeight: try options.int32("output_height"),
                  scaleX: try options.float("scale_x"), scaleY: try options.float("scale_y"))
    }

    /// Throws unless the parameters are ones MediaPipe's kernel accepts and every landmark
    /// index lies within `landmarkCount` landmarks (MediaPipe does not check that, nor that
    /// the subset is not empty).
    public func validate(landmarkCount: Int) throws(CustomOperatorError) {
        for (name, index) in [("left_rotation_idx", leftRotationIndex), ("right_rotation_idx", rightRotationIndex)] {
            guard index >= 0, index < landmarkCount else {
                throw CustomOperatorError("\(name) \(index) is not one of the \(landmarkCount) landmarks")
            }
        }
        guard outputWidth > 0, outputHeight > 0 else {
            throw CustomOperatorError("output size \(outputWidth)x\(outputHeight) must be positive")
        }
        guard scaleX > 0, scaleY > 0 else { throw CustomOperatorError("scale (\(scaleX), \(scaleY)) must be positive") }
        guard targetRotationRadians.isFinite else { throw CustomOperatorError("target_rotation_radians must be finite") }
        guard !subsetIndices.isEmpty else { throw CustomOperatorError("subset_idxs is empty") }
        if let k = subsetIndices.firstIndex(where: { $0 < 0 || $0 >= landmarkCount }) {
            throw CustomOperatorError("subset_idxs[\(k)] = \(subsetIndices[k]) is not one of the \(landmarkCount) landmarks")
        }
    }

    /// Computes the matrix from `landmarks` (x, y, z triples) into the 16 floats of `output`.
    /// The parameters must have passed ``validate(landmarkCount:)`` for these landmarks.
    public func computeMatrix(landmarks: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        func point(_ i: Int) -> (x: Float, y: Float) { (landmarks[3 * i], landmarks[3 * i + 1]) }
        // The rotation that brings the left-to-right direction to the target angle.
        let left = point(leftRotationIndex), right = point(rightRotationIndex)
        let rotation = targetRotationRadians - atan2f(right.y - left.y, right.x - left.x)

        // The subset's box in the rotated frame: each point (x, y, 1) times the rotation.
        let c = cosf(rotation), s = sinf(rotation)
        func rotated(_ i: Int) -> (x: Float, y: Float) {
            let p = point(i)
            var x: Float = 0, y: Float = 0
            x += c * p.x; x += -s * p.y; x += 0 * 1
            y += s * p.x; y += c * p.y; y += 0 * 1
            return (x, y)
        }
        var (maxX, maxY) = rotated(subsetIndices[0])
        var (minX, minY) = (maxX, maxY)
        for i in subsetIndices.dropFirst() {
            let p = rotated(i)
            if maxX < p.x { maxX = p.x }
            if maxY < p.y { maxY = p.y }
            if minX > p.x { minX = p.x }
            if minY > p.y { minY = p.y }
        }
        let cropWidth = maxX - minX, cropHeight = maxY - minY
        // The box's centre, turned back into the landmarks' frame.
        let middleX = (minX + maxX) / 2, middleY = (minY + maxY) / 2
        let ci = cosf(-rotation), si = sinf(-rotation)
        var cropX: Float = 0, cropY: Float = 0
        cropX += ci * middleX; cropX += -si * middleY; cropX += 0 * 1
        cropY += si * middleX; cropY += ci * middleY; cropY += 0 * 1

        // Crop pixel -> centred -> scaled to the box -> turned -> moved to the box's centre.
        let r = -rotation
        let turn = Matrix4(SIMD16(cosf(r), -sinf(r), 0, 0, sinf(r), cosf(r), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        let sx = scaleX * cropWidth / Float(outputWidth), sy = scaleY * cropHeight / Float(outputHeight)
        let scale = Matrix4(SIMD16(sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        let centre = Matrix4.shift(Float(-1.0 * (Double(outputWidth) / 2.0)), Float(-1.0 * (Double(outputHeight) / 2.0)))
        let t = Matrix4.identity * Matrix4.shift(cropX, cropY) * turn * scale * centre
        for i in 0..<16 { output[i] = t.entries[i] }
    }

    /// The operator: `Landmarks2TransformMatrix` version 2.
    public static let customOperator = CustomOperator(name: "Landmarks2TransformMatrix", versions: 2...2) { node in
        try node.expect(inputs: 1, outputs: 1)
        let landmarks = try node.input(0)
        guard landmarks.type == .float32, node.outputs[0].type == .float32 else {
            throw CustomOperatorError("takes and gives float32, not \(landmarks.type) and \(node.outputs[0].type)")
        }
        guard landmarks.shape.count == 3 else {
            throw CustomOperatorError("landmarks must have rank 3 ([1, N, 3]), not shape \(landmarks.shape)")
        }
        let parameters = try LandmarksToTransformMatrix(customOptions: node.customOptions)
        // MediaPipe reads landmark i at float 3i, whatever the last dimension.
        try parameters.validate(landmarkCount: landmarks.elementCount / 3)
        try node.setOutput(0, shape: [1, 4, 4])
        return { io in
            parameters.computeMatrix(landmarks: io.input(0, as: Float.self), into: io.output(0, as: Float.self))
        }
    }
}
