import Testing
import Kernels

@Suite struct ThreadPoolTests {
    /// Every index is visited exactly once, by ranges that tile 0..<count, for several pool
    /// sizes and counts (including fewer items than threads), over many jobs on one pool.
    @Test(arguments: [1, 2, 3, 5])
    func everyIndexRunsExactlyOnce(threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        #expect(pool.threadCount == threads)
        for count in [0, 1, 2, 3, 7, 64, 1001] {
            for _ in 0..<20 {
                let hits = TestBuffer(repeating: 0, count: max(count, 1))
                let p = hits.pointer
                pool.parallelFor(count: count) { range in
                    for i in range { p[i] += 1 }
                }
                #expect(hits.array.prefix(count).allSatisfy { $0 == 1 }, "count \(count)")
            }
        }
    }

    /// Thread indices stay within 0..<threadCount, so per-thread scratch is never shared:
    /// each chunk marks its slot busy and checks nobody else holds it.
    @Test func threadIndicesAreExclusive() {
        let pool = ThreadPool(threadCount: 4)
        let busy = TestBuffer(repeating: 0, count: 4), clashes = TestBuffer(repeating: 0, count: 4)
        let b = busy.pointer, c = clashes.pointer
        for _ in 0..<50 {
            pool.parallelFor(count: 40, chunks: 16) { thread, range in
                precondition(thread >= 0 && thread < 4)
                if b[thread] != 0 { c[thread] += 1 }
                b[thread] = 1
                var x: Float = 0
                for i in range { x += Float(i).squareRoot() }
                if x < 0 { c[thread] += 1 }
                b[thread] = 0
            }
        }
        #expect(clashes.array == [0, 0, 0, 0])
    }

    @Test func zeroOrNegativeThreadCountMeansInline() {
        #expect(ThreadPool(threadCount: 0).threadCount == 1)
        #expect(ThreadPool(threadCount: -3).threadCount == 1)
    }

    @Test(arguments: [1, 2, 4])
    func smallWorkRunsInlineLargeWorkSplits(threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        #expect(pool.chunks(forWork: 0) == 1)
        #expect(pool.chunks(forWork: ThreadPool.minimumParallelWork - 1) == 1)
        #expect(pool.chunks(forWork: ThreadPool.minimumParallelWork) == threads)
    }
}
