#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's peak resident set size, which `tflite bench` reads after warm-up and after
/// the timed runs: a runtime that allocates nothing per invocation keeps the two equal however
/// many runs there are, where a leak or a growing cache raises the second.
enum PeakMemory {
    /// The peak resident set size so far, in KiB.
    static func residentKiB() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)  // an enum in glibc's headers
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #else
        return Int(usage.ru_maxrss)  // KiB on Linux
        #endif
    }
}
