import Foundation
import Imaging
import MediaPipeOps
import Testing
import TestSupport
import TFLiteRuntime

/// face_landmark_with_attention.tflite, run with the MediaPipe operators of Examples/MediaPipeOps,
/// against face_landmark.tflite as LiteRT runs it on the same face crops (no golden exists
/// for the attention model: LiteRT cannot run it).
///
/// Tolerances are in units of the outer-eye-corner distance D of LiteRT's mesh (landmarks 33
/// and 263, about 75 pixels of the 192-pixel crop), the normaliser of face alignment's usual
/// error measure. The two models are separately trained networks (the attention model has its
/// own mesh head), so they agree only as well as two good landmark models do: a mean error of
/// about 3% of D is the level of accurate models on frontal faces, and the mean is required to
/// stay below it, every point below 8%. A runtime fault or a custom operator that turns,
/// scales or places its crop wrongly moves whole regions by a sizeable part of the region
/// (`aMistakenOperatorBreaksTheAgreement`); sub-pixel semantics are the unit tests' business.
@Suite struct FaceLandmarkAgreementTests {
    typealias Point = (x: Float, y: Float)

    /// The fixtures' two crops: upright, and turned by 12 degrees (see the fixture script).
    static let crops = ["astronaut_face", "astronaut_face_rotated"]
    static let meanTolerance: Float = 0.03
    static let maxTolerance: Float = 0.08

    static func input(_ crop: String) throws -> [Float] {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.mediapipe.appendingPathComponent("\(crop)_192.png")))
        return try ImageDecoder.decode(bytes: bytes).image.floatTensor(.unitRange)
    }

    static func run(_ model: String, on crop: String, options: Interpreter.Options) throws -> Interpreter {
        let interpreter = try Interpreter(modelPath: Fixtures.mediapipe.appendingPathComponent(model).path, options: options)
        try interpreter.allocateTensors()
        try interpreter.copy(input(crop), toInputAt: 0)
        try interpreter.invoke()
        return interpreter
    }

    static func attention(on crop: String, operators: [CustomOperator] = MediaPipeOperators.all) throws -> Interpreter {
        var options = Interpreter.Options(threadCount: 1)
        try options.addCustomOperators(operators)
        return try run("face_landmark_with_attention.tflite", on: crop, options: options)
    }

    static func golden(_ crop: String, _ output: String) throws -> [Float] {
        try NPYArray(contentsOf: Fixtures.mediapipe.appendingPathComponent("\(crop)_\(output).npy").path).values(as: Float.self)
    }

    static func points(_ values: [Float], dimensions: Int) -> [Point] {
        stride(from: 0, to: values.count, by: dimensions).map { (values[$0], values[$0 + 1]) }
    }

    static func distance(_ a: Point, _ b: Point) -> Float {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// LiteRT's face_landmark mesh on `crop` and its outer-eye-corner distance.
    static func reference(_ crop: String) throws -> (mesh: [Point], eyeDistance: Float) {
        let mesh = points(try golden(crop, "mesh"), dimensions: 3)
        return (mesh, distance(mesh[33], mesh[263]))
    }

    /// For each refined region (lips, left eye, right eye, in output order), the mesh landmarks
    /// its points refine: MediaPipe's indexes_mapping for the region
    /// (tensors_to_face_landmarks_with_attention.pbtxt), which is the subset_idxs of the
    /// region's Landmarks2TransformMatrix node, the model's three such nodes being in that order.
    static func regionSubsets(_ model: Model) throws -> [[Int]] {
        try model.schema.subgraphs[0].operators.compactMap { op -> [Int]? in
            guard model.operatorKind(ofCode: Int(op.opcodeIndex)).name == "Landmarks2TransformMatrix",
                  let range = op.customOptions else { return nil }
            return try LandmarksToTransformMatrix(customOptions: Array(model.bytes(range))).subsetIndices
        }
    }

    /// Mean and largest distance of each refined region's points from their mesh landmarks.
    static func regionErrors(_ interpreter: Interpreter, mesh: [Point]) throws -> [(mean: Float, max: Float)] {
        let subsets = try regionSubsets(interpreter.model)
        #expect(subsets.map(\.count) == [80, 71, 71])
        return try subsets.enumerated().map { k, subset in
            let region = points(try interpreter.output(at: k + 1).values(as: Float.self), dimensions: 2)
            let d = zip(subset, region).map { distance(mesh[$0], $1) }
            return (d.reduce(0, +) / Float(d.count), d.max() ?? 0)
        }
    }

    @Test(arguments: crops) func faceLandmarkMatchesLiteRT(crop: String) throws {
        let interpreter = try Self.run("face_landmark.tflite", on: crop, options: .init(threadCount: 1))
        // The corpus's rule for float outputs of models of more than 20 operators: rtol 1e-4,
        // atol 1e-4 x the largest value (XNNPACK differed from LiteRT's reference by 5e-5).
        for (k, output) in ["mesh", "face_flag"].enumerated() {
            let golden = try Self.golden(crop, output)
            let ours = try interpreter.output(at: k).values(as: Float.self)
            let atol = 1e-4 * max(1, golden.map(abs).max() ?? 0)
            #expect(ours.count == golden.count)
            let worst = zip(ours, golden).map { abs($0 - $1) - 1e-4 * abs($1) }.max() ?? 0
            #expect(worst <= atol, "\(crop) \(output): off by \(worst) beyond rtol, atol \(atol)")
        }
    }

    @Test(arguments: crops) func attentionMeshAgreesWithFaceLandmark(crop: String) throws {
        let (mesh, eyes) = try Self.reference(crop)
        let attention = try Self.attention(on: crop)
        let ours = Self.points(try attention.output(at: 0).values(as: Float.self), dimensions: 3)
        #expect(ours.count == 468)
        let d = zip(mesh, ours).map(Self.distance)
        let mean = d.reduce(0, +) / Float(d.count)
        #expect(mean <= Self.meanTolerance * eyes, "\(crop): mean distance \(mean) px, D = \(eyes) px")
        #expect(d.max()! <= Self.maxTolerance * eyes, "\(crop): largest distance \(d.max()!) px, D = \(eyes) px")
    }

    @Test(arguments: crops) func refinedRegionsAgreeWithFaceLandmark(crop: String) throws {
        let (mesh, eyes) = try Self.reference(crop)
        let attention = try Self.attention(on: crop)
        for (region, error) in zip(["lips", "left eye", "right eye"], try Self.regionErrors(attention, mesh: mesh)) {
            #expect(error.mean <= Self.meanTolerance * eyes, "\(crop) \(region): mean \(error.mean) px, D = \(eyes) px")
            #expect(error.max <= Self.maxTolerance * eyes, "\(crop) \(region): largest \(error.max) px, D = \(eyes) px")
        }
    }

    @Test(arguments: crops) func irisCentresLieWithinTheirEyes(crop: String) throws {
        // The irises have no face_landmark counterpart: each centre must lie inside the box
        // of its eye's contour (the first 16 landmarks of the eye's mapping) in LiteRT's mesh.
        let (mesh, _) = try Self.reference(crop)
        let attention = try Self.attention(on: crop)
        let subsets = try Self.regionSubsets(attention.model)
        for (eye, output) in zip(subsets[1...2], [4, 5]) {
            let centre = Self.points(try attention.output(at: output).values(as: Float.self), dimensions: 2)[0]
            let contour = eye.prefix(16).map { mesh[$0] }
            let xs = contour.map(\.x), ys = contour.map(\.y)
            #expect(xs.min()! < centre.x && centre.x < xs.max()! && ys.min()! < centre.y && centre.y < ys.max()!,
                    "\(crop): iris centre \(centre) outside the eye's box x \(xs.min()!)...\(xs.max()!), y \(ys.min()!)...\(ys.max()!)")
        }
    }
}

extension FaceLandmarkAgreementTests {
    /// `TransformTensorBilinear` reading the matrix's 2x2 part transposed: for a rotation and
    /// scale, a crop turned the wrong way.
    static let cropTurnedTheWrongWay = CustomOperator(name: "TransformTensorBilinear", versions: 2...2) { node in
        let shape = try node.input(0).shape
        let parameters = try TransformTensorBilinear(customOptions: node.customOptions)
        try node.setOutput(0, shape: [1, parameters.outputHeight, parameters.outputWidth, shape[3]])
        return { io in
            var matrix = Array(io.input(1, as: Float.self))
            matrix.swapAt(1, 4)
            matrix.withUnsafeBufferPointer {
                parameters.sample(input: io.input(0, as: Float.self), height: shape[1], width: shape[2], channels: shape[3],
                                  matrix: $0, into: io.output(0, as: Float.self))
            }
        }
    }

    /// `TransformLandmarks` with the same mistake: landmarks turned back the wrong way.
    static let landmarksTurnedTheWrongWay = CustomOperator(name: "TransformLandmarks", versions: 2...2) { node in
        let shape = try node.input(0).shape
        try node.setOutput(0, shape: shape)
        return { io in
            var matrix = Array(io.input(1, as: Float.self))
            matrix.swapAt(1, 4)
            matrix.withUnsafeBufferPointer {
                TransformLandmarks.transform(landmarks: io.input(0, as: Float.self), count: shape[1], dimensions: shape[2],
                                             matrix: $0, into: io.output(0, as: Float.self))
            }
        }
    }

    @Test func aMistakenOperatorBreaksTheAgreement() throws {
        // On the tilted crop each mistake moves some region well past the tolerance, so the
        // agreement tests above can fail (on the upright crop a transposed rotation is nearly
        // the identity, which is why the tilted crop is there).
        let crop = "astronaut_face_rotated"
        let (mesh, eyes) = try Self.reference(crop)
        let mistakes = [
            [Self.cropTurnedTheWrongWay, TransformLandmarks.customOperator, LandmarksToTransformMatrix.customOperator],
            [TransformTensorBilinear.customOperator, Self.landmarksTurnedTheWrongWay, LandmarksToTransformMatrix.customOperator],
            [Self.cropTurnedTheWrongWay, Self.landmarksTurnedTheWrongWay, LandmarksToTransformMatrix.customOperator],
        ]
        for (k, operators) in mistakes.enumerated() {
            let errors = try Self.regionErrors(Self.attention(on: crop, operators: operators), mesh: mesh)
            let worst = errors.map(\.mean).max()!
            #expect(worst > Self.meanTolerance * eyes, "mistake \(k): worst region mean \(worst) px is within the tolerance")
        }
    }
}
