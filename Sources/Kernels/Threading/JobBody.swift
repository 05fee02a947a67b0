/// The non-escaping closure a `parallelFor` call received, held as its two machine words (code
/// and context) so that worker threads can call it while the submitting thread waits.
///
/// Why not `withoutActuallyEscaping`: the escapable closure it makes is a wrapper whose context
/// is heap-allocated at every call, and a multi-threaded `invoke()` runs dozens of jobs. A
/// closure parameter is passed as exactly these two words (its context neither retained nor
/// copied), so reading them through a function whose parameter is declared as the struct, and
/// calling them back through a function whose parameter is declared as the closure, is a pure
/// reinterpretation. The function types are cast inside one-field structs: a bare function
/// value passed to the generic `unsafeBitCast` would be re-abstracted through allocating thunks.
/// The words are only valid while the submitting `parallelFor` runs; `PoolState.run` clears
/// them before returning.
struct JobBody {
    typealias Closure = (_ thread: Int, Range<Int>) -> Void

    let code: UnsafeRawPointer
    let context: UnsafeRawPointer?

    /// The words of `body`, read without copying or retaining its context.
    init(_ body: Closure) {
        self = Self.read.function(body)
    }

    /// Calls the closure the words came from.
    func callAsFunction(_ thread: Int, _ range: Range<Int>) {
        Self.call.function(self, thread, range)
    }

    private struct Read: Sendable { var function: @Sendable (Closure) -> JobBody }
    private struct ReadAsWords: Sendable { var function: @Sendable (JobBody) -> JobBody }
    private struct Call: Sendable { var function: @Sendable (JobBody, Int, Range<Int>) -> Void }
    private struct CallAsClosure: Sendable { var function: @Sendable (Closure, Int, Range<Int>) -> Void }

    private static let read = unsafeBitCast(ReadAsWords(function: { $0 }), to: Read.self)
    private static let call = unsafeBitCast(CallAsClosure(function: { body, thread, range in body(thread, range) }), to: Call.self)
}
