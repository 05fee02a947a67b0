#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The shared state of a ``ThreadPool``: the current job, published with its chunks in one
/// atomic word, and the count of its chunks finished.
///
/// The hand-over is lock-free. `claims` holds the job's number (high 32 bits), its chunk count
/// (bits 16 to 31) and the next chunk to hand out (low 16 bits). The submitter writes the job's
/// closure and size, then stores a new job number in `claims` (releasing); a thread claims a
/// chunk with a compare-and-swap of the word it read, which fails once a newer job is
/// published, so a worker that wakes late can never take a chunk of a job it did not see. The
/// submitter waits for the job's chunks to finish, not for every worker to pass by: a worker
/// that the system keeps off a core (two threads on a busy two-core machine) delays nothing
/// unless it holds a chunk.
///
/// The submitter publishes each job with its first chunk already claimed and runs it itself,
/// so chunk 0 (a layer's first rows or first channels) always runs on the calling thread and
/// the other chunks on the workers. Consecutive layers split alike then read mostly what their
/// own core wrote. Left to the race, a spinning worker took chunk 0 in most jobs but not all,
/// and a layer whose input came from the other core's cache ran up to a quarter slower (the
/// 112x112x16 int8 depthwise of MobileNet v2: 41 instead of 33 us on the slower thread).
///
/// Shutting down is a job of no chunks (real jobs have at least one), so a worker learns
/// whether to stop from the same word that gives it the job's number. With a separate flag
/// read first, a worker that woke for a job the caller then finished alone could read the
/// shutdown's number as the next job's, wait for a newer one that never came, and hang the
/// pool's release.
///
/// Threads still park when idle: a worker that has spun ``spinNanoseconds`` without a new job
/// waits on `wake`, and a submitter that has spun as long for the last chunks waits on `done`.
/// Both use the same handshake: the parking side announces itself (`sleepers`,
/// `submitterParked`) and then re-checks the condition under `mutex`; the other side changes
/// the condition and then reads the announcement. All four accesses are sequentially
/// consistent, so at least one side sees the other's write and no wake-up is lost.
final class PoolState: @unchecked Sendable {
    // The job: written by the submitter before it publishes the job's number in `claims`, and
    // read by a thread only after it has claimed one of the job's chunks. A newer job is
    // written only after every chunk of this one has finished, so what a claimer reads is
    // this job's.
    private var count = 0
    private var body: JobBody?

    private let claims = Atomic<UInt64>(0)
    private let finished = Atomic<Int>(0)
    private let sleepers = Atomic<Int>(0)
    private let submitterParked = Atomic<Bool>(false)

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let submitMutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let workerIndexCounter = Atomic<Int>(0)

    /// The most chunks one job can have (the width of the chunk fields of `claims`).
    static let maximumChunkCount = 0xFFFF

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

    /// The job number in a `claims` word.
    private static func job(_ word: UInt64) -> UInt64 { word >> 32 }

    /// The chunk count in a `claims` word: 0 for the shutdown.
    private static func chunkCount(_ word: UInt64) -> Int { Int(truncatingIfNeeded: word >> 16 & 0xFFFF) }

    /// Publishes a job of `chunkCount` (1 to ``maximumChunkCount``) chunks, runs chunk 0 and
    /// any chunk the workers leave on the calling thread (thread index 0), and waits until
    /// every chunk has finished.
    func run(count: Int, chunkCount: Int, body: JobBody) {
        // `ThreadPool.parallelFor` clamps the count into this range.
        assert(chunkCount > 0 && chunkCount <= Self.maximumChunkCount)
        pthread_mutex_lock(submitMutex)
        self.count = count
        self.body = body
        finished.store(0, ordering: .relaxed)
        let job = (Self.job(claims.load(ordering: .relaxed)) &+ 1) & 0xFFFF_FFFF
        publish(job: job, chunkCount: chunkCount, claimed: 1)
        runChunk(0, of: chunkCount, thread: 0)
        work(thread: 0, job: job)

        if !spin(until: { finished.load(ordering: .acquiring) == chunkCount }) {
            pthread_mutex_lock(mutex)
            submitterParked.store(true, ordering: .sequentiallyConsistent)
            while finished.load(ordering: .sequentiallyConsistent) < chunkCount { pthread_cond_wait(done, mutex) }
            submitterParked.store(false, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
        self.body = nil
        pthread_mutex_unlock(submitMutex)
    }

    /// Stores a new job number (its low 32 bits: numbers wrap) with its chunk count and `claimed` chunks
    /// already handed out (to the submitter), and wakes parked workers.
    private func publish(job: UInt64, chunkCount: Int, claimed: Int) {
        claims.store((job & 0xFFFF_FFFF) << 32 | UInt64(chunkCount) << 16 | UInt64(claimed), ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Claims and runs chunks of job `job` until none is left or a newer job is published.
    private func work(thread: Int, job: UInt64) {
        var word = claims.load(ordering: .acquiring)
        while Self.job(word) == job {
            let chunkCount = Self.chunkCount(word), next = Int(truncatingIfNeeded: word & 0xFFFF)
            guard next < chunkCount else { return }
            let (claimed, seen) = claims.compareExchange(expected: word, desired: word &+ 1, ordering: .acquiringAndReleasing)
            guard claimed else {
                word = seen
                continue
            }
            runChunk(next, of: chunkCount, thread: thread)
            word = claims.load(ordering: .acquiring)
        }
    }

    /// Runs chunk `index` of the current job, which the calling thread has claimed, and counts
    /// it finished, waking a parked submitter after the last one.
    private func runChunk(_ index: Int, of chunkCount: Int, thread: Int) {
        body!(thread, ThreadPool.chunk(index, of: chunkCount, count: count))
        if finished.add(1, ordering: .sequentiallyConsistent).newValue == chunkCount,
           submitterParked.load(ordering: .sequentiallyConsistent) {
            pthread_mutex_lock(mutex)
            pthread_cond_signal(done)
            pthread_mutex_unlock(mutex)
        }
    }

    /// The loop a worker thread runs until the pool shuts down.
    func workerLoop(thread: Int) {
        var seen: UInt64 = 0
        while true {
            if !spin(until: { Self.job(claims.load(ordering: .acquiring)) != seen }) {
                pthread_mutex_lock(mutex)
                sleepers.add(1, ordering: .sequentiallyConsistent)
                while Self.job(claims.load(ordering: .sequentiallyConsistent)) == seen { pthread_cond_wait(wake, mutex) }
                sleepers.subtract(1, ordering: .relaxed)
                pthread_mutex_unlock(mutex)
            }
            let word = claims.load(ordering: .acquiring)
            if Self.chunkCount(word) == 0 { return }
            seen = Self.job(word)
            work(thread: thread, job: seen)
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

    /// Publishes the shutdown: a job of no chunks, which makes every worker return.
    func shutDown() {
        publish(job: Self.job(claims.load(ordering: .relaxed)) &+ 1, chunkCount: 0, claimed: 0)
    }
}

/// Monotonic nanoseconds, for the pool's spin deadline.
@inline(__always)
private func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
