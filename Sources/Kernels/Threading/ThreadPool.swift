#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of worker threads, created once and parked between jobs, that split a range of
/// work items among themselves and the calling thread.
///
/// A pool with `threadCount == 1` starts no thread at all and runs every job inline, so a
/// single-threaded interpreter pays nothing for it.
///
/// `ThreadPool` is `@unchecked Sendable`: its mutable state lives in ``_PoolState`` and is
/// only touched under that object's pthread mutex. Jobs are not meant to be submitted from two
/// threads at once (an interpreter owns its pool); concurrent `parallelFor` calls are still
/// safe because submission is serialised by a second mutex.
public final class ThreadPool: @unchecked Sendable {
    /// The number of threads that run a job, counting the calling thread.
    public let threadCount: Int

    private let state: _PoolState
    private var workers: [pthread_t] = []

    /// Creates a pool whose jobs run on `threadCount` threads (the caller plus
    /// `threadCount - 1` workers). Values below 1 are treated as 1.
    public init(threadCount: Int) {
        self.threadCount = Swift.max(1, threadCount)
        self.state = _PoolState()
        for _ in 1..<self.threadCount {
            let context = Unmanaged.passRetained(state).toOpaque()
            #if canImport(Darwin)
            var thread: pthread_t?
            let rc = pthread_create(&thread, nil, _poolWorkerMain, context)
            if rc == 0, let thread { workers.append(thread) } else {
                Unmanaged<_PoolState>.fromOpaque(context).release()
            }
            #else
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, _poolWorkerMain, context)
            if rc == 0 { workers.append(thread) } else {
                Unmanaged<_PoolState>.fromOpaque(context).release()
            }
            #endif
        }
        // If the system refused some threads the pool still works: fewer hands take the chunks.
    }

    deinit {
        state.shutDown()
        for thread in workers { pthread_join(thread, nil) }
    }

    /// Runs `body` over `0..<count`, split into at most `threadCount` contiguous, disjoint,
    /// non-empty ranges run concurrently; returns when every range is done.
    ///
    /// `body` is called from several threads at once, each call with its own range: it must
    /// write only to memory that belongs to its range (the kernels write disjoint output rows).
    /// Jobs do not nest: calling `parallelFor` on the same pool from inside `body` deadlocks.
    public func parallelFor(count: Int, _ body: (Range<Int>) -> Void) {
        parallelFor(count: count, chunks: threadCount) { _, range in body(range) }
    }

    /// Runs `body` over `0..<count` split into at most `chunks` contiguous ranges handed out to
    /// the pool's threads; `body` also receives the index of the thread running it
    /// (`0..<threadCount`), so callers can give each thread its own scratch memory.
    public func parallelFor(count: Int, chunks: Int, _ body: (_ thread: Int, Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunkCount = Swift.max(1, Swift.min(chunks, count))
        if threadCount == 1 || chunkCount == 1 || workers.isEmpty {
            for c in 0..<chunkCount { body(0, Self.chunk(c, of: chunkCount, count: count)) }
            return
        }
        // The job's body is cleared before `run` returns, so it never outlives this call even
        // though workers see it through the shared state.
        state.run(count: count, chunkCount: chunkCount, body: _JobBody(body), workerCount: workers.count)
    }

    /// Multiply-adds below which a kernel runs on the calling thread alone: waking the parked
    /// workers and waiting for them costs tens of microseconds, more than such small work saves.
    public static let minimumParallelWork = 1 << 17

    /// What one element of an elementwise op (a load or two, an operation, a store) counts
    /// for in ``minimumParallelWork``: outputs of 32,768 elements and more are split.
    public static let workPerElement = 4

    /// The chunk count for a job of `work` multiply-adds (or comparable element operations):
    /// `threadCount`, or 1 (run inline) when the job is below ``minimumParallelWork``.
    public func chunks(forWork work: Int) -> Int {
        work >= Self.minimumParallelWork ? threadCount : 1
    }

    /// Runs `body` over ranges covering `0..<count`: split across `pool`'s threads when `work`
    /// (multiply-adds or comparable element operations) reaches ``minimumParallelWork``, else
    /// as one range on the calling thread. Kernels whose inner loop takes a closure write that
    /// closure inside `body`, so it is inlined there rather than called per element.
    @inline(__always)
    public static func split(_ pool: ThreadPool?, count: Int, work: Int, _ body: (Range<Int>) -> Void) {
        guard let pool, pool.threadCount > 1, work >= minimumParallelWork, count > 1 else {
            body(0..<count)
            return
        }
        pool.parallelFor(count: count, chunks: pool.threadCount) { _, range in body(range) }
    }

    static func chunk(_ index: Int, of chunkCount: Int, count: Int) -> Range<Int> {
        let base = count / chunkCount, extra = count % chunkCount
        let start = index * base + Swift.min(index, extra)
        return start..<(start + base + (index < extra ? 1 : 0))
    }
}

/// One `parallelFor` call: the work split and the closure; chunks are claimed under the pool
/// mutex. The pool reuses one instance for every call, so submitting a job allocates nothing.
final class _PoolJob {
    var count = 0
    var chunkCount = 0
    var body: _JobBody?
    var nextChunk = 0
}

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
/// The words are only valid while the submitting `parallelFor` runs; `_PoolState.run` clears
/// them before returning.
struct _JobBody {
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

    private struct Read: Sendable { var function: @Sendable (Closure) -> _JobBody }
    private struct ReadAsWords: Sendable { var function: @Sendable (_JobBody) -> _JobBody }
    private struct Call: Sendable { var function: @Sendable (_JobBody, Int, Range<Int>) -> Void }
    private struct CallAsClosure: Sendable { var function: @Sendable (Closure, Int, Range<Int>) -> Void }

    private static let read = unsafeBitCast(ReadAsWords(function: { $0 }), to: Read.self)
    private static let call = unsafeBitCast(CallAsClosure(function: { body, thread, range in body(thread, range) }), to: Call.self)
}

/// The shared, mutex-protected state of a ``ThreadPool``: the current job, a generation counter
/// that wakes parked workers, and the count of workers still busy.
final class _PoolState: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let submitMutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var job: _PoolJob?
    /// The job object every `run` fills in (only under `submitMutex`).
    private let reusableJob = _PoolJob()
    private var generation = 0
    private var busyWorkers = 0
    private var stopping = false

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_mutex_init(submitMutex, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(done, nil)
    }

    deinit {
        pthread_cond_destroy(done)
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(submitMutex)
        pthread_mutex_destroy(mutex)
        done.deallocate(); wake.deallocate(); submitMutex.deallocate(); mutex.deallocate()
    }

    /// Publishes a job, works on it from the calling thread (thread index 0) and waits until
    /// every worker has left it.
    func run(count: Int, chunkCount: Int, body: _JobBody, workerCount: Int) {
        pthread_mutex_lock(submitMutex)
        pthread_mutex_lock(mutex)
        let job = reusableJob
        job.count = count
        job.chunkCount = chunkCount
        job.body = body
        job.nextChunk = 0
        self.job = job
        generation &+= 1
        busyWorkers = workerCount
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(mutex)

        work(on: job, thread: 0)

        pthread_mutex_lock(mutex)
        spin { busyWorkers > 0 }
        while busyWorkers > 0 { pthread_cond_wait(done, mutex) }
        self.job = nil
        job.body = nil
        pthread_mutex_unlock(mutex)
        pthread_mutex_unlock(submitMutex)
    }

    /// Claims and runs chunks of `job` until none is left.
    private func work(on job: _PoolJob, thread: Int) {
        while true {
            pthread_mutex_lock(mutex)
            let c = job.nextChunk
            job.nextChunk += 1
            pthread_mutex_unlock(mutex)
            guard c < job.chunkCount, let body = job.body else { return }
            body(thread, ThreadPool.chunk(c, of: job.chunkCount, count: job.count))
        }
    }

    /// The loop a worker thread runs until the pool shuts down.
    func workerLoop(thread: Int) {
        var seen = 0
        pthread_mutex_lock(mutex)
        while true {
            spin { generation == seen && !stopping }
            while generation == seen && !stopping { pthread_cond_wait(wake, mutex) }
            if stopping { break }
            seen = generation
            guard let job else { continue }
            pthread_mutex_unlock(mutex)
            work(on: job, thread: thread)
            pthread_mutex_lock(mutex)
            busyWorkers -= 1
            if busyWorkers == 0 { pthread_cond_signal(done) }
        }
        pthread_mutex_unlock(mutex)
    }

    /// Called and returning with `mutex` held: while `waiting()` holds, for at most
    /// ``spinNanoseconds``, lets go of the mutex, yields the processor and checks again.
    ///
    /// An interpreter submits jobs back to back, a few microseconds to a few hundred apart;
    /// parking on the condition variable and being woken costs tens of microseconds per job,
    /// which on a model of a hundred layers ate most of what the second thread won. Spinning
    /// first hands the next job over without a wake-up; the spin ends soon after the last job
    /// of an invocation, so idle pools still sleep.
    private func spin(while waiting: () -> Bool) {
        guard waiting() else { return }
        let deadline = monotonicNanoseconds() &+ Self.spinNanoseconds
        repeat {
            pthread_mutex_unlock(mutex)
            sched_yield()
            pthread_mutex_lock(mutex)
        } while waiting() && monotonicNanoseconds() < deadline
    }

    /// How long a thread spins for the next job (or for the workers to finish) before it parks.
    static let spinNanoseconds: UInt64 = 200_000

    /// Hands out worker thread indices 1, 2, ... as workers start.
    func nextWorkerIndex() -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        workerIndexCounter += 1
        return workerIndexCounter
    }
    private var workerIndexCounter = 0

    func shutDown() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(mutex)
    }
}

#if canImport(Darwin)
private func _poolWorkerMain(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    let state = Unmanaged<_PoolState>.fromOpaque(context).takeRetainedValue()
    state.workerLoop(thread: state.nextWorkerIndex())
    return nil
}
#else
private func _poolWorkerMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let state = Unmanaged<_PoolState>.fromOpaque(context).takeRetainedValue()
    state.workerLoop(thread: state.nextWorkerIndex())
    return nil
}
#endif

/// Monotonic nanoseconds, for the pool's spin deadline.
@inline(__always)
private func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
