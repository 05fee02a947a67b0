import MediaPipeOps
import Testing
import TestSupport
@testable import TFLiteRuntime

/// The three MediaPipe operators on cases worked out by hand from their CPU kernels
/// (mediapipe/util/tflite/operations/*.cc; MediaPipe has no tests of its own for them), their
/// options as the real model stores them, and their prepare-time checks.
@Suite struct MediaPipeOperatorTests {
    // MARK: TransformLandmarks

    @Test func transformLandmarksWithTheIdentityKeepsEveryCoordinate() {
        let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let landmarks: [Float] = [1.5, -2, 7, 100, 0.25, -3]
        for dimensions in [2, 3] {
            let out = Self.transform(landmarks, dimensions: dimensions, identity)
            #expect(out == landmarks)
        }
    }

    @Test func transformLandmarksAppliesTheFirstTwoRowsToXY1() {
        // Rows (0, -1, 7, 5) and (1, 0, 9, -3): (x, y) -> (-y + 5, x - 3). The third column
        // multiplies the landmark's z slot, which MediaPipe fills with 0, so 7 and 9 change
        // nothing; rows 3 and 4 (here scrambled) are not read; z is copied.
        let matrix: [Float] = [0, -1, 7, 5, 1, 0, 9, -3, 4, 4, 4, 4, 8, 8, 8, 8]
        #expect(Self.transform([2, 3, 4, 10, -1, 0.5], dimensions: 3, matrix) == [2, -1, 4, 6, 7, 0.5])
        #expect(Self.transform([2, 3, 10, -1], dimensions: 2, matrix) == [2, -1, 6, 7])
    }

    static func transform(_ landmarks: [Float], dimensions: Int, _ matrix: [Float]) -> [Float] {
        var out = [Float](repeating: .nan, count: landmarks.count)
        landmarks.withUnsafeBufferPointer { l in
            matrix.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    TransformLandmarks.transform(landmarks: l, count: landmarks.count / dimensions, dimensions: dimensions, matrix: m, into: o)
                }
            }
        }
        return out
    }

    // MARK: Landmarks2TransformMatrix

    static func matrix(_ parameters: LandmarksToTransformMatrix, _ landmarks: [(Float, Float)]) -> [Float] {
        let flat: [Float] = landmarks.flatMap { [$0.0, $0.1, 0] }
        var out = [Float](repeating: .nan, count: 16)
        flat.withUnsafeBufferPointer { l in out.withUnsafeMutableBufferPointer { parameters.computeMatrix(landmarks: l, into: $0) } }
        return out
    }

    @Test func landmarksToTransformMatrixScalesAndCentresAnUprightBox() {
        // Rotation landmarks 0 -> 1 run along +x: no turn. The subset's box is x 10...30,
        // y 10...40 (size 20 x 30, centre (20, 25)); at scale 1.5 over a 16 x 16 crop a crop
        // pixel is 1.5 * 20 / 16 = 1.875 by 1.5 * 30 / 16 = 2.8125 landmark units, and crop
        // pixel (8, 8) lands on the centre: x = 1.875 * u + 20 - 8 * 1.875 = 1.875 * u + 5,
        // y = 2.8125 * v + 25 - 8 * 2.8125 = 2.8125 * v + 2.5.
        let parameters = LandmarksToTransformMatrix(subsetIndices: [0, 1, 2, 3], leftRotationIndex: 0, rightRotationIndex: 1,
                                                    outputWidth: 16, outputHeight: 16, scaleX: 1.5, scaleY: 1.5)
        let m = Self.matrix(parameters, [(10, 20), (30, 20), (20, 10), (20, 40)])
        #expect(m == [1.875, 0, 0, 5, 0, 2.8125, 0, 2.5, 0, 0, 1, 0, 0, 0, 0, 1])
    }

    @Test func landmarksToTransformMatrixTurnsTheCropToTheRotationLandmarks() {
        // Rotation landmarks (0, 0) -> (0, 10) run along +y, so the crop's x axis must too:
        // the rotation is -pi/2 and the rotated frame maps (x, y) to (y, -x). The subset
        // (0, 0), (0, 10), (-3, 5), (4, 5) becomes (0, 0), (10, 0), (5, 3), (5, -4): a box of
        // 10 x 7 whose centre (5, -0.5) is (0.5, 5) back in landmark space. Over a 10 x 10
        // crop at scale 1: crop pixel (u, v) -> (0.5, 5) + R(pi/2) (u - 5, 0.7 (v - 5))
        // = (-0.7 v + 4, u), i.e. rows (0, -0.7, 0, 4) and (1, 0, 0, 0).
        let parameters = LandmarksToTransformMatrix(subsetIndices: [0, 1, 2, 3], leftRotationIndex: 0, rightRotationIndex: 1,
                                                    outputWidth: 10, outputHeight: 10)
        let m = Self.matrix(parameters, [(0, 0), (0, 10), (-3, 5), (4, 5)])
        let expected: [Float] = [0, -0.7, 0, 4, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        // cos(pi/2) is not 0 in float: a few ulps of the larger entries.
        for (k, (got, want)) in zip(m, expected).enumerated() { #expect(abs(got - want) <= 2e-6, "entry \(k): \(got) vs \(want)") }
    }

    @Test func landmarksToTransformMatrixAddsTheTargetRotation() {
        // The same rotation landmarks along +x with target pi/2: the rotation is pi/2, so the
        // crop's x axis must run along R(-pi/2) x = -y. Subset box in the rotated frame
        // (x, y) -> (-y, x): points (0, 0), (4, 0), (2, 3), (2, -1) become (0, 0), (0, 4),
        // (-3, 2), (1, 2): box x -3...1, y 0...4, size 4 x 4, centre (-1, 2), which is (2, 1)
        // back in landmark space. Over a 4 x 4 crop: (u, v) -> (2, 1) + R(-pi/2) (u - 2, v - 2)
        // = (v, -u + 3), i.e. rows (0, 1, 0, 0) and (-1, 0, 0, 3).
        let parameters = LandmarksToTransformMatrix(subsetIndices: [0, 1, 2, 3], leftRotationIndex: 0, rightRotationIndex: 1,
                                                    targetRotationRadians: .pi / 2, outputWidth: 4, outputHeight: 4)
        let m = Self.matrix(parameters, [(0, 0), (4, 0), (2, 3), (2, -1)])
        let expected: [Float] = [0, 1, 0, 0, -1, 0, 0, 3, 0, 0, 1, 0, 0, 0, 0, 1]
        for (k, (got, want)) in zip(m, expected).enumerated() { #expect(abs(got - want) <= 2e-6, "entry \(k): \(got) vs \(want)") }
    }

    @Test func landmarksToTransformMatrixReadsTheModelsOptions() throws {
        // The lips node of face_landmark_with_attention.tflite, as the flatbuffers package's
        // FlexBuffer decoder (Python) reads its options.
        let model = try Model(path: Fixtures.mediapipe.appendingPathComponent("face_landmark_with_attention.tflite").path)
        let options = try #require(try Self.customOptions(of: "Landmarks2TransformMatrix", in: model).first)
        let p = try LandmarksToTransformMatrix(customOptions: options)
        #expect(p.leftRotationIndex == 61)
        #expect(p.rightRotationIndex == 291)
        #expect(p.targetRotationRadians == 0)
        #expect(p.outputWidth == 16 && p.outputHeight == 16)
        #expect(p.scaleX == 1.5 && p.scaleY == 1.5)
        #expect(p.subsetIndices.count == 80)
        #expect(Array(p.subsetIndices.prefix(5)) == [61, 146, 91, 181, 84])
        #expect(p.subsetIndices.last == 407)
        let bilinear = try TransformTensorBilinear(customOptions: #require(try Self.customOptions(of: "TransformTensorBilinear", in: model).first))
        #expect(bilinear == TransformTensorBilinear(outputHeight: 16, outputWidth: 16))
    }

    static func customOptions(of code: String, in model: Model) throws -> [[UInt8]] {
        model.schema.subgraphs[0].operators.compactMap { op in
            guard model.operatorKind(ofCode: Int(op.opcodeIndex)).name == code, let range = op.customOptions else { return nil }
            return Array(model.bytes(range))
        }
    }

    @Test func landmarksToTransformMatrixChecksEveryIndex() {
        let good = LandmarksToTransformMatrix(subsetIndices: [0, 1, 2], leftRotationIndex: 0, rightRotationIndex: 1,
                                              outputWidth: 16, outputHeight: 16, scaleX: 1.5, scaleY: 1.5)
        #expect(throws: Never.self) { try good.validate(landmarkCount: 3) }
        var p = good
        p.subsetIndices = [0, 3]
        #expect(throws: CustomOperatorError("subset_idxs[1] = 3 is not one of the 3 landmarks")) { try p.validate(landmarkCount: 3) }
        p = good
        p.rightRotationIndex = -1
        #expect(throws: CustomOperatorError("right_rotation_idx -1 is not one of the 3 landmarks")) { try p.validate(landmarkCount: 3) }
        p = good
        p.subsetIndices = []
        #expect(throws: CustomOperatorError("subset_idxs is empty")) { try p.validate(landmarkCount: 3) }
        p = good
        p.outputHeight = 0
        #expect(throws: CustomOperatorError("output size 16x0 must be positive")) { try p.validate(landmarkCount: 3) }
        p = good
        p.scaleY = 0
        #expect(throws: CustomOperatorError("scale (1.5, 0.0) must be positive")) { try p.validate(landmarkCount: 3) }
    }

    // MARK: TransformTensorBilinear

    static func sample(_ input: [Float], height: Int, width: Int, channels: Int, matrix: [Float],
                       outputHeight: Int, outputWidth: Int) -> [Float] {
        var out = [Float](repeating: .nan, count: outputHeight * outputWidth * channels)
        let op = TransformTensorBilinear(outputHeight: outputHeight, outputWidth: outputWidth)
        input.withUnsafeBufferPointer { i in
            matrix.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { op.sample(input: i, height: height, width: width, channels: channels, matrix: m, into: $0) }
            }
        }
        return out
    }

    /// A 4 x 4 map with two channels: v(h, w) = 4h + w, and its negative.
    static let map: [Float] = (0..<16).flatMap { [Float($0), -Float($0)] }

    @Test func transformTensorBilinearWithTheIdentityCopiesThePixels() {
        // The identity maps pixel centres to pixel centres (the half-pixel shifts cancel), so
        // every output pixel is an input pixel, the last row and column included.
        let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        #expect(Self.sample(Self.map, height: 4, width: 4, channels: 2, matrix: identity, outputHeight: 4, outputWidth: 4) == Self.map)
        // A smaller crop is the top-left corner.
        let corner = Self.sample(Self.map, height: 4, width: 4, channels: 2, matrix: identity, outputHeight: 2, outputWidth: 3)
        #expect(corner == [0, 0, 1, -1, 2, -2, 4, -4, 5, -5, 6, -6])
    }

    @Test func transformTensorBilinearAveragesWhenItHalves() {
        // Scale 2: output pixel centre u + 0.5 is input point 2u + 1, i.e. input pixel centre
        // 2u + 0.5, half way between pixels 2u and 2u + 1 in both directions: the mean of a
        // 2 x 2 block. Blocks of 4h + w: (0+1+4+5)/4, (2+3+6+7)/4, (8+9+12+13)/4, (10+11+14+15)/4.
        let halve: [Float] = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let out = Self.sample(Self.map, height: 4, width: 4, channels: 2, matrix: halve, outputHeight: 2, outputWidth: 2)
        #expect(out == [2.5, -2.5, 4.5, -4.5, 10.5, -10.5, 12.5, -12.5])
    }

    @Test func transformTensorBilinearGivesZeroOutsideTheInput() {
        // Shifted one pixel right: column w reads input column w + 1; the last column maps to
        // x = 4, past the last pixel centre (3), and is 0, as are points left of the first.
        let right: [Float] = [1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let out = Self.sample(Self.map, height: 4, width: 4, channels: 2, matrix: right, outputHeight: 1, outputWidth: 4)
        #expect(out == [1, -1, 2, -2, 3, -3, 0, 0])
        let left: [Float] = [1, 0, 0, -0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let between = Self.sample(Self.map, height: 4, width: 4, channels: 2, matrix: left, outputHeight: 1, outputWidth: 2)
        // x = -0.5 is outside; x = 0.5 is half way between pixels 0 and 1.
        #expect(between == [0, 0, 0.5, -0.5])
    }

    // MARK: Prepare-time checks

    static func prepare(_ op: CustomOperator, inputs: [(DataType, [Int])], options: [UInt8] = [],
                        outputType: DataType = .float32, version: Int = 2) throws -> CustomOperator.Preparation {
        func describe(_ k: Int, _ type: DataType, _ shape: [Int]) -> CustomOperator.TensorDescription {
            CustomOperator.TensorDescription(name: "t\(k)", type: type, shape: shape, quantization: nil, constantData: nil)
        }
        var node = CustomOperator.Preparation(node: 0, name: op.name, version: version, customOptions: options,
                                              inputs: inputs.enumerated().map { describe($0, $1.0, $1.1) },
                                              outputs: [describe(inputs.count, outputType, [])])
        _ = try op.prepare(&node)
        return node
    }

    @Test func theOperatorsDeclareTheirOutputs() throws {
        let model = try Model(path: Fixtures.mediapipe.appendingPathComponent("face_landmark_with_attention.tflite").path)
        let l2t = try #require(try Self.customOptions(of: "Landmarks2TransformMatrix", in: model).first)
        var node = try Self.prepare(LandmarksToTransformMatrix.customOperator, inputs: [(.float32, [1, 468, 3])], options: l2t)
        #expect(node.declared[0]?.shape == [1, 4, 4])
        let ttb = try #require(try Self.customOptions(of: "TransformTensorBilinear", in: model).first)
        node = try Self.prepare(TransformTensorBilinear.customOperator, inputs: [(.float32, [1, 48, 48, 32]), (.float32, [1, 4, 4])], options: ttb)
        #expect(node.declared[0]?.shape == [1, 16, 16, 32])
        node = try Self.prepare(TransformLandmarks.customOperator, inputs: [(.float32, [1, 80, 2]), (.float32, [1, 4, 4])])
        #expect(node.declared[0]?.shape == [1, 80, 2])
    }

    @Test func theOperatorsRefuseWhatTheirKernelsCannotRead() throws {
        let model = try Model(path: Fixtures.mediapipe.appendingPathComponent("face_landmark_with_attention.tflite").path)
        let l2t = try #require(try Self.customOptions(of: "Landmarks2TransformMatrix", in: model).first)
        // The lips node's rotation landmarks are 61 and 291, its subset reaches 415.
        #expect(throws: CustomOperatorError("left_rotation_idx 61 is not one of the 60 landmarks")) {
            try Self.prepare(LandmarksToTransformMatrix.customOperator, inputs: [(.float32, [1, 60, 3])], options: l2t)
        }
        #expect(throws: CustomOperatorError("subset_idxs[6] = 314 is not one of the 300 landmarks")) {
            try Self.prepare(LandmarksToTransformMatrix.customOperator, inputs: [(.float32, [1, 300, 3])], options: l2t)
        }
        #expect(throws: CustomOperatorError("landmarks must have rank 3 ([1, N, 3]), not shape [1404]")) {
            try Self.prepare(LandmarksToTransformMatrix.customOperator, inputs: [(.float32, [1404])], options: l2t)
        }
        #expect(throws: CustomOperatorError("takes and gives float32, not INT8 and FLOAT32")) {
            try Self.prepare(LandmarksToTransformMatrix.customOperator, inputs: [(.int8, [1, 468, 3])], options: l2t)
        }
        #expect(throws: CustomOperatorError("landmarks must have shape [1, N, 2] or [1, N, 3], not [1, 80, 4]")) {
            try Self.prepare(TransformLandmarks.customOperator, inputs: [(.float32, [1, 80, 4]), (.float32, [1, 4, 4])])
        }
        #expect(throws: CustomOperatorError("the matrix must have 16 elements ([1, 4, 4]), not shape [2, 4]")) {
            try Self.prepare(TransformLandmarks.customOperator, inputs: [(.float32, [1, 80, 2]), (.float32, [2, 4])])
        }
        #expect(throws: CustomOperatorError("expects 2 inputs and 1 output, has 1 and 1")) {
            try Self.prepare(TransformTensorBilinear.customOperator, inputs: [(.float32, [1, 48, 48, 32])])
        }
        // No output size in the options reads as 0 x 0, as in MediaPipe, and is refused.
        #expect(throws: CustomOperatorError("output size 0x0 must be positive")) {
            try Self.prepare(TransformTensorBilinear.customOperator, inputs: [(.float32, [1, 48, 48, 32]), (.float32, [1, 4, 4])])
        }
        #expect(throws: CustomOperatorError.self) {
            try Self.prepare(TransformTensorBilinear.customOperator, inputs: [(.float32, [1, 48, 48, 32]), (.float32, [1, 4, 4])],
                             options: [0xff, 0x00, 0x08])
        }
    }
}
