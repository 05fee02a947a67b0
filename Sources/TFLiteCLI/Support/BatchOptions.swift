/// `--json`, `--workers N` and `--threads N`, which the image commands (`label`, `detect`,
/// `detect-faces`, `segment`) all take.
struct BatchOptions {
    /// Print JSON (one IMAGE) or JSON Lines (a batch) instead of tables.
    let json: Bool
    /// Images processed at once in a batch; nil: one per core.
    let workers: Int?
    /// Threads per interpreter; nil: the cores shared out among the workers.
    let threads: Int?

    init(_ arguments: inout Arguments) throws {
        json = arguments.flag("--json")
        workers = try arguments.intOption("--workers", in: 1...256)
        threads = try arguments.intOption("--threads", in: 1...256)
    }
}
