/// Corpus cases the runtime cannot run yet, each with the reason. A case listed here runs as
/// a known issue (reported, not counted as passing); a case not listed must pass. Remove an
/// entry in the change that makes its case pass.
enum KnownGaps {
    static let cases: [String: String] = [:]
}
