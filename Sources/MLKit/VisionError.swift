import Foundation

/// The errors ML Kit reports as `NSError`s: their `localizedDescription` says what failed.
enum VisionError {
    /// The error domain of every error this module reports.
    static let domain = "MLKit"

    /// ML Kit's codes for the failures a labeller can meet.
    enum Code: Int {
        case invalidArgument = 3
        case internalError = 13
    }

    static func failed(_ message: String, code: Code = .invalidArgument) -> NSError {
        NSError(domain: domain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: message])
    }

    static func failed(_ error: any Error, code: Code = .invalidArgument) -> NSError {
        NSError(domain: domain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: "\(error)"])
    }
}
