/// A `.tflite` model on the device under the name ML Kit for Firebase's custom-model
/// interpreter gave it (`CustomLocalModel(modelPath:)`); the same model as
/// `LocalModel(path:)`, so code written for either API runs unchanged.
public final class CustomLocalModel: LocalModel, @unchecked Sendable {
    public init(modelPath: String) {
        super.init(path: modelPath)
    }
}
