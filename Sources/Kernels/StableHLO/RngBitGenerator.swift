/// The counter-based generators of STABLEHLO_RNG_BIT_GENERATOR (Salmon et al., "Parallel
/// random numbers: as easy as 1, 2, 3", SC 2011), laid out as LiteRT lays them out: the state
/// is read as 32-bit words, the output is filled with the generator's words in order, and the
/// counter advances by one per block (its low word carrying into the next).
public enum RngBitGenerator {
    public enum Algorithm: Sendable, Equatable {
        /// Philox4x32-10; also LiteRT's DEFAULT. Takes 2 or 3 state words of 64 bits.
        case philox
        /// Threefry2x32-20. Takes 2 state words of 64 bits.
        case threefry
    }

    /// Threefry2x32 with 20 rounds: `key` and `counter` two words each.
    public static func threefry2x32(key: (UInt32, UInt32), counter: (UInt32, UInt32)) -> (UInt32, UInt32) {
        let k0 = key.0, k1 = key.1, k2 = key.0 ^ key.1 ^ 0x1BD1_1BDA
        var x0 = counter.0 &+ k0, x1 = counter.1 &+ k1
        // Four rounds with the given rotations, then a key injection (whose second word carries
        // the injection's number).
        @inline(__always) func mix(_ rotation: UInt32) {
            x0 = x0 &+ x1
            x1 = (x1 << rotation) | (x1 >> (32 - rotation))
            x1 ^= x0
        }
        @inline(__always) func rounds(_ r: (UInt32, UInt32, UInt32, UInt32), _ a: UInt32, _ b: UInt32) {
            mix(r.0); mix(r.1); mix(r.2); mix(r.3)
            x0 = x0 &+ a
            x1 = x1 &+ b
        }
        let even: (UInt32, UInt32, UInt32, UInt32) = (13, 15, 26, 6), odd: (UInt32, UInt32, UInt32, UInt32) = (17, 29, 16, 24)
        rounds(even, k1, k2 &+ 1)
        rounds(odd, k2, k0 &+ 2)
        rounds(even, k0, k1 &+ 3)
        rounds(odd, k1, k2 &+ 4)
        rounds(even, k2, k0 &+ 5)
        return (x0, x1)
    }

    /// Philox4x32 with 10 rounds: `key` two words, `counter` four.
    public static func philox4x32(key: (UInt32, UInt32), counter: (UInt32, UInt32, UInt32, UInt32)) -> (UInt32, UInt32, UInt32, UInt32) {
        var k0 = key.0, k1 = key.1
        var c = counter
        for _ in 0..<10 {
            let p0 = UInt64(0xD251_1F53) &* UInt64(c.0), p1 = UInt64(0xCD9E_8D57) &* UInt64(c.2)
            c = (UInt32(truncatingIfNeeded: p1 >> 32) ^ c.1 ^ k0, UInt32(truncatingIfNeeded: p1),
                 UInt32(truncatingIfNeeded: p0 >> 32) ^ c.3 ^ k1, UInt32(truncatingIfNeeded: p0))
            k0 = k0 &+ 0x9E37_79B9
            k1 = k1 &+ 0xBB67_AE85
        }
        return c
    }

    /// Fills `wordCount` 32-bit words of `output` and writes the next state. `state` holds
    /// `stateWords` 32-bit words (twice its 64-bit elements: 4 for Threefry, 4 or 6 for
    /// Philox; the caller checks); `newState` has as many and may be `state` itself.
    public static func generate(_ algorithm: Algorithm, state: UnsafePointer<UInt32>, stateWords: Int,
                                output: UnsafeMutablePointer<UInt32>, wordCount: Int, newState: UnsafeMutablePointer<UInt32>) {
        let key = (state[0], state[1])
        var low = state[2], high = state[3]
        // Philox's counter is four words: the state's third 64-bit element, or the key again.
        let upper = stateWords == 6 ? (state[4], state[5]) : (state[0], state[1])
        var i = 0
        @inline(__always) func emit(_ w: UInt32) {
            if i < wordCount { output[i] = w; i += 1 }
        }
        while i < wordCount {
            switch algorithm {
            case .threefry:
                let r = threefry2x32(key: key, counter: (low, high))
                emit(r.0); emit(r.1)
            case .philox:
                let r = philox4x32(key: key, counter: (low, high, upper.0, upper.1))
                emit(r.0); emit(r.1); emit(r.2); emit(r.3)
            }
            low = low &+ 1
            if low == 0 { high = high &+ 1 }
        }
        newState[0] = key.0
        newState[1] = key.1
        newState[2] = low
        newState[3] = high
        if stateWords == 6 {
            newState[4] = upper.0
            newState[5] = upper.1
        }
    }
}
