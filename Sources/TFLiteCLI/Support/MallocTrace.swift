import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Counts heap allocations with glibc's malloc tracer (`mtrace`), for
/// `tflite bench --count-allocations`. Since glibc 2.34 the tracer lives in
/// `libc_malloc_debug.so.0` and only sees allocations when that library is preloaded, so the
/// command runs itself again under `LD_PRELOAD`; the copy traces its invocations and counts
/// the allocations in the trace file, whichever thread made them.
enum MallocTrace {
    static let library = "libc_malloc_debug.so.0"
    /// Set in the traced copy, so a failed preload is reported instead of rerunning forever.
    static let copyMarker = "TFLITE_MALLOC_TRACE_COPY"

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// True in the traced copy of the command.
    static var isTracedCopy: Bool { ProcessInfo.processInfo.environment[copyMarker] != nil }

    /// Runs this command again with the tracer preloaded, its output going to ours; returns its
    /// exit status.
    static func rerunTraced() throws -> Int32 {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("tflite-malloc-\(getpid()).trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = [library, environment["LD_PRELOAD"]].compactMap { $0 }.joined(separator: " ")
        environment["MALLOC_TRACE"] = trace.path
        environment[copyMarker] = "1"
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        copy.arguments = Array(CommandLine.arguments.dropFirst())
        copy.environment = environment
        try copy.run()
        copy.waitUntilExit()
        return copy.terminationStatus
    }

    /// The number of allocations (malloc, calloc, realloc and friends, on every thread) made
    /// while `body` runs. Throws `Unavailable` when the tracer is not preloaded.
    static func countAllocations(_ body: () throws -> Void) throws -> Int {
        #if canImport(Glibc)
        guard let path = ProcessInfo.processInfo.environment["MALLOC_TRACE"], let trace = tracer() else {
            throw Unavailable(description: "allocation counting needs glibc 2.34 or later with \(library)")
        }
        trace.start()
        do {
            try body()
        } catch {
            trace.stop()
            throw error
        }
        trace.stop()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        guard lines.first == "= Start" else { throw Unavailable(description: "\(library) did not trace to \(path)") }
        // Each line is `@ CALLER OP ADDRESS [SIZE]`; `+` is an allocation and `>` the block a
        // realloc returned (`-` and `<` are the frees).
        return lines.count { line in
            let fields = line.split(separator: " ")
            return fields.count >= 4 && fields[0] == "@" && (fields[fields.count - 3] == "+" || fields[fields.count - 3] == ">")
        }
        #else
        throw Unavailable(description: "allocation counting needs glibc's \(library)")
        #endif
    }

    #if canImport(Glibc)
    private typealias Function = @convention(c) () -> Void
    private typealias VersionedSymbol = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> UnsafeMutableRawPointer?

    /// `mtrace` and `muntrace` of the preloaded library, or nil when it is not loaded.
    ///
    /// The library exports them only under the architecture's base symbol version, while
    /// libc's no-op stubs are the default version that a plain `dlsym` finds; `dlvsym` (looked
    /// up at run time, the Glibc module does not declare it) names the version.
    private static func tracer() -> (start: Function, stop: Function)? {
        guard let debug = dlopen(library, RTLD_NOW | RTLD_NOLOAD), let process = dlopen(nil, RTLD_NOW),
              let lookup = dlsym(process, "dlvsym") else { return nil }
        let versioned = unsafeBitCast(lookup, to: VersionedSymbol.self)
        // x86-64, AArch64 and POWER, RISC-V, s390x, i386.
        for version in ["GLIBC_2.2.5", "GLIBC_2.17", "GLIBC_2.27", "GLIBC_2.2", "GLIBC_2.0"] {
            if let start = versioned(debug, "mtrace", version), let stop = versioned(debug, "muntrace", version),
               start != dlsym(process, "mtrace") {
                return (unsafeBitCast(start, to: Function.self), unsafeBitCast(stop, to: Function.self))
            }
        }
        return nil
    }
    #endif
}
