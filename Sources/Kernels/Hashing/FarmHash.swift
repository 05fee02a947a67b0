/// FarmHash's 64-bit fingerprint (farmhashna::Hash64), the hash LSH_PROJECTION signs its
/// inputs with; a fingerprint is stable across platforms and releases, so a model's
/// projection bits are the same here as in LiteRT.
public enum FarmHash {
    static let k0: UInt64 = 0xC3A5_C85C_97CB_3127
    static let k1: UInt64 = 0xB492_B66F_BE98_F273
    static let k2: UInt64 = 0x9AE1_6A3B_2F90_404F

    public static func fingerprint64(_ s: UnsafeRawBufferPointer) -> UInt64 {
        let len = s.count
        if len <= 16 { return hashLen0to16(s) }
        if len <= 32 { return hashLen17to32(s) }
        if len <= 64 { return hashLen33to64(s) }
        return hashLong(s)
    }

    @inline(__always) static func fetch64(_ s: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: s.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    @inline(__always) static func fetch32(_ s: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: s.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }

    @inline(__always) static func rotate(_ v: UInt64, _ shift: UInt64) -> UInt64 {
        shift == 0 ? v : v >> shift | v << (64 - shift)
    }

    @inline(__always) static func shiftMix(_ v: UInt64) -> UInt64 { v ^ v >> 47 }

    @inline(__always) static func hashLen16(_ u: UInt64, _ v: UInt64, _ mul: UInt64) -> UInt64 {
        var a = (u ^ v) &* mul
        a ^= a >> 47
        var b = (v ^ a) &* mul
        b ^= b >> 47
        return b &* mul
    }

    static func hashLen0to16(_ s: UnsafeRawBufferPointer) -> UInt64 {
        let len = s.count
        if len >= 8 {
            let mul = k2 &+ UInt64(len) &* 2
            let a = fetch64(s, 0) &+ k2, b = fetch64(s, len - 8)
            let c = rotate(b, 37) &* mul &+ a, d = (rotate(a, 25) &+ b) &* mul
            return hashLen16(c, d, mul)
        }
        if len >= 4 {
            let mul = k2 &+ UInt64(len) &* 2
            return hashLen16(UInt64(len) &+ (fetch32(s, 0) << 3), fetch32(s, len - 4), mul)
        }
        if len > 0 {
            let a = UInt32(s[0]), b = UInt32(s[len >> 1]), c = UInt32(s[len - 1])
            let y = a &+ (b << 8), z = UInt32(len) &+ (c << 2)
            return shiftMix(UInt64(y) &* k2 ^ UInt64(z) &* k0) &* k2
        }
        return k2
    }

    static func hashLen17to32(_ s: UnsafeRawBufferPointer) -> UInt64 {
        let len = s.count, mul = k2 &+ UInt64(len) &* 2
        let a = fetch64(s, 0) &* k1, b = fetch64(s, 8)
        let c = fetch64(s, len - 8) &* mul, d = fetch64(s, len - 16) &* k2
        return hashLen16(rotate(a &+ b, 43) &+ rotate(c, 30) &+ d, a &+ rotate(b &+ k2, 18) &+ c, mul)
    }

    static func hashLen33to64(_ s: UnsafeRawBufferPointer) -> UInt64 {
        let len = s.count, mul = k2 &+ UInt64(len) &* 2
        let a = fetch64(s, 0) &* k2, b = fetch64(s, 8)
        let c = fetch64(s, len - 8) &* mul, d = fetch64(s, len - 16) &* k2
        let y = rotate(a &+ b, 43) &+ rotate(c, 30) &+ d
        let z = hashLen16(y, a &+ rotate(b &+ k2, 18) &+ c, mul)
        let e = fetch64(s, 16) &* mul, f = fetch64(s, 24)
        let g = (y &+ fetch64(s, len - 32)) &* mul, h = (z &+ fetch64(s, len - 24)) &* mul
        return hashLen16(rotate(e &+ f, 43) &+ rotate(g, 30) &+ h, e &+ rotate(f &+ a, 18) &+ g, mul)
    }

    @inline(__always)
    static func weakHashLen32(_ s: UnsafeRawBufferPointer, _ at: Int, _ seedA: UInt64, _ seedB: UInt64) -> (UInt64, UInt64) {
        let w = fetch64(s, at), x = fetch64(s, at + 8), y = fetch64(s, at + 16), z = fetch64(s, at + 24)
        var a = seedA &+ w
        var b = rotate(seedB &+ a &+ z, 21)
        let c = a
        a = a &+ x &+ y
        b = b &+ rotate(a, 44)
        return (a &+ z, b &+ c)
    }

    /// Inputs over 64 bytes: 64-byte blocks mixed into seven words, then the last 64 bytes.
    static func hashLong(_ s: UnsafeRawBufferPointer) -> UInt64 {
        let len = s.count, seed: UInt64 = 81
        var x = seed, y = seed &* k1 &+ 113, z = shiftMix(y &* k2 &+ 113) &* k2
        var v: (UInt64, UInt64) = (0, 0), w: (UInt64, UInt64) = (0, 0)
        x = x &* k2 &+ fetch64(s, 0)
        let end = ((len - 1) / 64) * 64, last64 = end + ((len - 1) & 63) - 63
        var p = 0
        repeat {
            x = rotate(x &+ y &+ v.0 &+ fetch64(s, p + 8), 37) &* k1
            y = rotate(y &+ v.1 &+ fetch64(s, p + 48), 42) &* k1
            x ^= w.1
            y = y &+ v.0 &+ fetch64(s, p + 40)
            z = rotate(z &+ w.0, 33) &* k1
            v = weakHashLen32(s, p, v.1 &* k1, x &+ w.0)
            w = weakHashLen32(s, p + 32, z &+ w.1, y &+ fetch64(s, p + 16))
            swap(&z, &x)
            p += 64
        } while p != end
        let mul = k1 &+ ((z & 0xFF) << 1)
        p = last64
        w.0 = w.0 &+ UInt64((len - 1) & 63)
        v.0 = v.0 &+ w.0
        w.0 = w.0 &+ v.0
        x = rotate(x &+ y &+ v.0 &+ fetch64(s, p + 8), 37) &* mul
        y = rotate(y &+ v.1 &+ fetch64(s, p + 48), 42) &* mul
        x ^= w.1 &* 9
        y = y &+ v.0 &* 9 &+ fetch64(s, p + 40)
        z = rotate(z &+ w.0, 33) &* mul
        v = weakHashLen32(s, p, v.1 &* mul, x &+ w.0)
        w = weakHashLen32(s, p + 32, z &+ w.1, y &+ fetch64(s, p + 16))
        swap(&z, &x)
        return hashLen16(hashLen16(v.0, w.0, mul) &+ shiftMix(y) &* k0 &+ z, hashLen16(v.1, w.1, mul) &+ x, mul)
    }
}
