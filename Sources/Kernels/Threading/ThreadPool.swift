#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A fixed set of worker threads, created once and parked between jobs, that split a range of
/// work items among themselves and the calling thread.
///
/// A pool with `threadCount == 1` starts no thread at all and runs every job inline, so a
/// single-threaded interpreter pays nothing for it.
///
/// `ThreadPool` is `@unchecked Sendable`: its mutable state lives in ``_PoolState``, published
/// to workers through atomics. Jobs are not meant to be submitted from two threads at once (an
/// interpreter owns its pool); concurrent `parallelFor` calls are still safe because
/// submission is serialised by a mutex.
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

    /// Multiply-adds below which a kernel runs on the calling thread alone, about a microsecond
    /// of work: handing a job to the spinning workers and waiting for them costs about as much.
    /// Small layers (16x16 feature maps) still gain from being split at this size because the
    /// hand-over is lock-free (see `_PoolState`).
    public static let minimumParallelWork = 1 << 15

    /// What one element of an elementwise op (a load or two, an operation, a store) counts
    /// for in ``minimumParallelWork``: outputs of 8,192 elements and more are split.
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

/// The shared state of a ``ThreadPool``: the current job, a generation counter that announces
/// each job, and the count of workers still on it.
///
/// The hand-over is lock-free: the submitter fills in the job, then bumps `generation`
/// (releasing), and workers that see the new generation (acquiring) read the job; chunks are
/// claimed with an atomic increment. No mutex is taken on this path: a model of a hundred
/// layers submits a hundred jobs per run, and a submitter could be put to sleep on a mutex
/// that a spinning worker held.
///
/// Threads still park when idle: a worker that has spun ``spinNanoseconds`` without a new job
/// waits on `wake`, and a submitter that has spun as long for its workers waits on `done`.
/// Both use the same handshake: the parking side announces itself (`sleepers`,
/// `submitterParked`) and then re-checks the condition under `mutex`; the other side changes
/// the condition and then reads the announcement. All four accesses are sequentially
/// consistent, so at least one side sees the other's write and no wake-up is lost.
final class _PoolState: @unchecked Sendable {
    // The job: written by the submitter before it bumps `generation`, read by workers after.
    private var count = 0
    private var chunkCount = 0
    private var body: _JobBody?

    private let nextChunk = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)
    private let busyWorkers = Atomic<Int>(0)
    private let sleepers = Atomic<Int>(0)
    private let submitterParked = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let submitMutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let workerIndexCounter = Atomic<Int>(0)

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
    ///
    /// Every worker takes part in every job (it may find no chunk left), so `generation` moves
    /// by one per job and no worker can miss one: the next job is published only after all
    /// workers have left this one.
    func run(count: Int, chunkCount: Int, body: _JobBody, workerCount: Int) {
        pthread_mutex_lock(submitMutex)
        self.count = count
        self.chunkCount = chunkCount
        self.body = body
        nextChunk.store(0, ordering: .relaxed)
        busyWorkers.store(workerCount, ordering: .relaxed)
        generation.add(1, ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)
        }

        work(thread: 0)

        if !spin(until: { busyWorkers.load(ordering: .acquiring) == 0 }) {
            pthread_mutex_lock(mutex)
            submitterParked.store(true, ordering: .sequentiallyConsistent)
            while busyWorkers.load(ordering: .sequentiallyConsistent) > 0 { pthread_cond_wait(done, mutex) }
            submitterParked.store(false, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
        self.body = nil
        pthread_mutex_unlock(submitMutex)
    }

    /// Claims and runs chunks of the current job until none is left.
    private func work(thread: Int) {
        guard let body else { return }
        while true {
            let c = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
            guard c < chunkCount else { return }
            body(thread, ThreadPool.chunk(c, of: chunkCount, count: count))
        }
    }

    /// The loop a worker thread runs until the pool shuts down.
    func workerLoop(thread: Int) {
        var seen = 0
        while true {
            if !spin(until: { generation.load(ordering: .acquiring) != seen }) {
                pthread_mutex_lock(mutex)
                sleepers.add(1, ordering: .sequentiallyConsistent)
                while generation.load(ordering: .sequentiallyConsistent) == seen { pthread_cond_wait(wake, mutex) }
                sleepers.subtract(1, ordering: .relaxed)
                pthread_mutex_unlock(mutex)
            }
            if stopping.load(ordering: .acquiring) { return }
            seen = generation.load(ordering: .acquiring)
            work(thread: thread)
            if busyWorkers.subtract(1, ordering: .sequentiallyConsistent).newValue == 0,
               submitterParked.load(ordering: .sequentiallyConsistent) {
                pthread_mutex_lock(mutex)
                pthread_cond_signal(done)
                pthread_mutex_unlock(mutex)
            }
        }
    }

    /// Polls `condition` for at most ``spinNanoseconds``; returns whether it came true.
    ///
    /// An interpreter submits jobs back to back, a few microseconds to a few hundred apart, and
    /// parking and being woken costs tens of microseconds per job; spinning first hands the
    /// next job over without a wake-up, and the spin ends soon after the last job of an
    /// invocation, so idle pools still sleep. The clock is read once per 64 polls. After
    /// ``yieldAfterNanoseconds`` each batch of polls also yields the processor: with more
    /// threads than free cores, the thread being waited for may be the one kept off a core.
    private func spin(until condition: () -> Bool) -> Bool {
        if condition() { return true }
        let start = monotonicNanoseconds()
        var polls = 0
        while true {
            if condition() { return true }
            polls &+= 1
            if polls & 63 == 0 {
                let elapsed = monotonicNanoseconds() &- start
                if elapsed >= Self.spinNanoseconds { return false }
                if elapsed >= Self.yieldAfterNanoseconds { sched_yield() }
            }
        }
    }

    /// How long a thread spins for the next job (or for the workers to finish) before it parks.
    static let spinNanoseconds: UInt64 = 200_000

    /// How long a thread polls without yielding the processor.
    static let yieldAfterNanoseconds: UInt64 = 20_000

    /// Hands out worker thread indices 1, 2, ... as workers start.
    func nextWorkerIndex() -> Int {
        workerIndexCounter.add(1, ordering: .relaxed).newValue
    }

    func shutDown() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        generation.add(1, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)
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
