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
/// `ThreadPool` is `@unchecked Sendable`: its mutable state lives in ``PoolState``, published
/// to workers through atomics. Jobs are not meant to be submitted from two threads at once (an
/// interpreter owns its pool); concurrent `parallelFor` calls are still safe because
/// submission is serialised by a mutex.
public final class ThreadPool: @unchecked Sendable {
    /// The number of threads that run a job, counting the calling thread.
    public let threadCount: Int

    private let state: PoolState
    private var workers: [pthread_t] = []

    /// Creates a pool whose jobs run on `threadCount` threads (the caller plus
    /// `threadCount - 1` workers). Values below 1 are treated as 1.
    public init(threadCount: Int) {
        self.threadCount = Swift.max(1, threadCount)
        self.state = PoolState()
        for _ in 1..<self.threadCount {
            let context = Unmanaged.passRetained(state).toOpaque()
            #if canImport(Darwin)
            var thread: pthread_t?
            let rc = pthread_create(&thread, nil, poolWorkerMain, context)
            if rc == 0, let thread { workers.append(thread) } else {
                Unmanaged<PoolState>.fromOpaque(context).release()
            }
            #else
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, poolWorkerMain, context)
            if rc == 0 { workers.append(thread) } else {
                Unmanaged<PoolState>.fromOpaque(context).release()
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
    /// (`0..<threadCount`), so callers can give each thread its own scratch memory. The first
    /// range always runs on the calling thread, as thread 0: layers split alike keep their
    /// first rows on one core from one layer to the next.
    public func parallelFor(count: Int, chunks: Int, _ body: (_ thread: Int, Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunkCount = Swift.max(1, Swift.min(chunks, count, PoolState.maximumChunkCount))
        if threadCount == 1 || chunkCount == 1 || workers.isEmpty {
            for c in 0..<chunkCount { body(0, Self.chunk(c, of: chunkCount, count: count)) }
            return
        }
        // The job's body is cleared before `run` returns, so it never outlives this call even
        // though workers see it through the shared state.
        state.run(count: count, chunkCount: chunkCount, body: JobBody(body))
    }

    /// Multiply-adds below which a kernel runs on the calling thread alone, about a microsecond
    /// of work: handing a job to the spinning workers and waiting for them costs about as much.
    /// Small layers (16x16 feature maps) still gain from being split at this size because the
    /// hand-over is lock-free (see `PoolState`).
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

// The body of a worker thread: its share of every job until the pool shuts down.
#if canImport(Darwin)
private func poolWorkerMain(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    let state = Unmanaged<PoolState>.fromOpaque(context).takeRetainedValue()
    state.workerLoop(thread: state.nextWorkerIndex())
    return nil
}
#else
private func poolWorkerMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let state = Unmanaged<PoolState>.fromOpaque(context).takeRetainedValue()
    state.workerLoop(thread: state.nextWorkerIndex())
    return nil
}
#endif
