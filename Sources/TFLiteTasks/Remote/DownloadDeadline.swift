import Foundation

/// The time limits one HTTP attempt runs under: the download's overall deadline, the attempt's
/// own limit (`resourceTimeout`) and the longest silence allowed (`requestTimeout`).
///
/// Measured on the monotonic clock, so a change of the wall clock neither cuts a download
/// short nor extends it.
struct DownloadDeadline: Sendable {
    /// The whole download's budget in seconds, as configured (for messages).
    let seconds: TimeInterval
    fileprivate let end: ContinuousClock.Instant

    /// A deadline `seconds` from now.
    init(seconds: TimeInterval) {
        self.seconds = seconds
        end = .now + .clamped(seconds: seconds)
    }

    /// Seconds left before the deadline, 0 once it has passed.
    var remaining: TimeInterval {
        max(0, TimeInterval(seconds: ContinuousClock.now.duration(to: end)))
    }

    var hasPassed: Bool { ContinuousClock.now >= end }

    /// The limits of an attempt starting now under `conditions`.
    func attempt(_ conditions: ModelDownloadConditions) -> AttemptLimits {
        AttemptLimits(deadline: self, idle: max(0.001, TimeInterval(seconds: .clamped(seconds: conditions.requestTimeout))),
                      attemptEnd: .now + .clamped(seconds: conditions.resourceTimeout),
                      attemptSeconds: conditions.resourceTimeout)
    }

    /// The deadline error for a download that was waiting for `url`.
    func exceeded(waitingFor url: URL) -> ModelDownloadError {
        .deadlineExceeded(url: url, seconds: seconds)
    }
}

/// The limits of one HTTP attempt (see `DownloadDeadline.attempt`).
struct AttemptLimits: Sendable {
    let deadline: DownloadDeadline
    /// The longest silence, in seconds, before the attempt fails as transient.
    let idle: TimeInterval
    fileprivate let attemptEnd: ContinuousClock.Instant
    fileprivate let attemptSeconds: TimeInterval

    /// Seconds until the attempt must end: the sooner of the overall deadline and the
    /// attempt's own limit.
    var remaining: TimeInterval {
        min(deadline.remaining, max(0, TimeInterval(seconds: ContinuousClock.now.duration(to: attemptEnd))))
    }

    /// How long to wait for the next byte from `url` (the idle timeout, cut to what is
    /// left), and the error to throw when that wait passes in silence.
    func nextWait(for url: URL) -> (seconds: TimeInterval, error: ModelDownloadError) {
        let left = remaining
        guard left < idle else {
            return (idle, .transport(url: url, message: "timed out: no data for \(String(format: "%g", idle)) s"))
        }
        return (left, expired(waitingFor: url))
    }

    /// The error for an attempt that ran out of time waiting for `url`: the deadline (final)
    /// when it ends no later than the attempt's own limit, else a transient timeout. Decided
    /// from the two end points, not from reading the clock at the moment of expiry.
    func expired(waitingFor url: URL) -> ModelDownloadError {
        if deadline.end <= attemptEnd { return deadline.exceeded(waitingFor: url) }
        return .transport(url: url, message: "timed out: the attempt took longer than \(String(format: "%g", attemptSeconds)) s")
    }
}

extension Duration {
    /// `seconds` as a duration: negative values are 0, and infinite, NaN or absurdly long
    /// ones a century (conditions are public fields, so any value can arrive here).
    static func clamped(seconds: TimeInterval) -> Duration {
        let century: TimeInterval = 100 * 365 * 86_400
        return .seconds(seconds.isNaN ? century : min(max(0, seconds), century))
    }
}

extension TimeInterval {
    /// A `Duration` in seconds.
    init(seconds duration: Duration) {
        let (whole, fraction) = duration.components
        self = TimeInterval(whole) + TimeInterval(fraction) * 1e-18
    }
}
