/// The options of a ``BatchImageTask``: when `threadCount` is unset, the batch shares the cores
/// out among its workers.
protocol BatchImageTaskOptions: Sendable {
    var threadCount: Int? { get set }
}
