/// Which results a labeller or detector keeps, following ML Kit's `confidenceThreshold`: a
/// result is kept when its confidence is at or above the threshold; an unset threshold is the
/// model metadata's score threshold, else 0.
///
/// One departure: with the threshold unset, a result of confidence exactly 0 is dropped as
/// well. ML Kit would list it, but a quantised softmax rounds most classes to 0 and a list
/// padded with them says nothing about the image. Setting the threshold to 0 lists them.
struct ConfidenceFilter: Sendable {
    let minimum: Float
    let keepsZero: Bool

    init(threshold: Float?, metadataThreshold: Float?) {
        minimum = threshold ?? metadataThreshold ?? 0
        keepsZero = threshold != nil
    }

    func keeps(_ confidence: Float) -> Bool {
        confidence >= minimum && (keepsZero || confidence > 0)
    }
}
