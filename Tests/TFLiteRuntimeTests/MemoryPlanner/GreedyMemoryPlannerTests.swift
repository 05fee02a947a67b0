import Testing
import TFLiteRuntime

@Suite struct GreedyMemoryPlannerTests {
    @Test func buffersWithDisjointLifetimesShareMemory() {
        // A chain a -> b -> c: a and c never live at the same time, so they share bytes.
        let requests = [
            BufferRequest(size: 1000, firstUse: 0, lastUse: 1),
            BufferRequest(size: 1000, firstUse: 1, lastUse: 2),
            BufferRequest(size: 1000, firstUse: 2, lastUse: 3),
        ]
        let plan = GreedyMemoryPlanner().plan(requests)
        #expect(plan.isValid(for: requests))
        #expect(plan.offsets[0] == plan.offsets[2])
        #expect(plan.arenaSize < 3000)
    }

    @Test func overlappingBuffersNeverCollide() {
        let requests = (0..<5).map { BufferRequest(size: 100 * ($0 + 1), firstUse: 0, lastUse: 10) }
        let plan = GreedyMemoryPlanner(alignment: 1).plan(requests)
        #expect(plan.isValid(for: requests))
        #expect(plan.arenaSize == requests.reduce(0) { $0 + $1.size })
    }

    @Test func offsetsAreAligned() {
        let requests = [BufferRequest(size: 3, firstUse: 0, lastUse: 2), BufferRequest(size: 5, firstUse: 1, lastUse: 2)]
        let plan = GreedyMemoryPlanner(alignment: 64).plan(requests)
        #expect(plan.offsets.allSatisfy { $0 % 64 == 0 })
        #expect(plan.isValid(for: requests))
    }

    @Test(arguments: 0..<20)
    func randomRequestsGiveValidPlans(seed: Int) {
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let requests = (0..<40).map { _ -> BufferRequest in
            let first = next(30)
            return BufferRequest(size: next(5000), firstUse: first, lastUse: first + next(8))
        }
        let plan = GreedyMemoryPlanner().plan(requests)
        #expect(plan.isValid(for: requests))
        // Never worse than giving every buffer its own (aligned) slot.
        #expect(plan.arenaSize <= requests.reduce(0) { $0 + ($1.size + 63) / 64 * 64 })
    }
}
