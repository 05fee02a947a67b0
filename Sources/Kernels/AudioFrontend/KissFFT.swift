#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A forward complex FFT with kiss-fft's structure: the length factored into radices 4, 2, 3
/// and 5 (in that order of preference), a recursive decimation in time, and one butterfly
/// per radix. The structure fixes where fixed-point rounding happens, so it is kept exactly.
/// Complex values are interleaved (real, imaginary) samples.
struct KissFFT<Scalar: KissFFTScalar>: Sendable {
    let count: Int
    /// Radix and remaining length of each stage: p1, m1, p2, m2, ... with p_k * m_k = m_(k-1).
    let factors: [Int]
    /// `exp(-2πi k / count)` for `k < count`, interleaved.
    let twiddles: [Scalar]

    /// kiss-fft's factorisation of `n`: fours first, then twos, then odd radices up to
    /// sqrt(n), then what remains; nil when a radix other than 2, 3, 4 or 5 is needed, which
    /// kiss-fft computes with a generic butterfly that TFLite Micro's build cannot run (its
    /// scratch allocator returns null).
    static func factors(of length: Int) -> [Int]? {
        guard length >= 2 else { return nil }
        var n = length, p = 4, factors: [Int] = []
        let floorSqrt = floor(sqrt(Double(n)))
        repeat {
            while n % p != 0 {
                switch p {
                case 4: p = 2
                case 2: p = 3
                default: p += 2
                }
                if Double(p) > floorSqrt { p = n }
            }
            guard p <= 5 else { return nil }
            n /= p
            factors += [p, n]
        } while n > 1
        return factors
    }

    init?(count: Int) {
        guard let factors = Self.factors(of: count) else { return nil }
        self.count = count
        self.factors = factors
        var twiddles: [Scalar] = []
        twiddles.reserveCapacity(2 * count)
        for i in 0..<count {
            let phase = -2 * Double.pi * Double(i) / Double(count)
            twiddles.append(Scalar.kissTwiddle(cos(phase)))
            twiddles.append(Scalar.kissTwiddle(sin(phase)))
        }
        self.twiddles = twiddles
    }

    /// Transforms `count` complex values from `input` into `output` (distinct buffers).
    func run(input: UnsafePointer<Scalar>, output: UnsafeMutablePointer<Scalar>) {
        twiddles.withUnsafeBufferPointer { tw in
            factors.withUnsafeBufferPointer { f in
                Self.work(output, input, stride: 1, stage: 0, factors: f.baseAddress!, twiddles: tw.baseAddress!)
            }
        }
    }

    /// One stage: `p` transforms of length `m` of every `p`-th input, then `m` butterflies
    /// combining them. `stride` is the input stride (and twiddle step) at this depth.
    static func work(_ out: UnsafeMutablePointer<Scalar>, _ input: UnsafePointer<Scalar>, stride: Int, stage: Int,
                     factors: UnsafePointer<Int>, twiddles tw: UnsafePointer<Scalar>) {
        let p = factors[2 * stage], m = factors[2 * stage + 1]
        if m == 1 {
            for j in 0..<p {
                out[2 * j] = input[2 * j * stride]
                out[2 * j + 1] = input[2 * j * stride + 1]
            }
        } else {
            for j in 0..<p {
                work(out + 2 * j * m, input + 2 * j * stride, stride: stride * p, stage: stage + 1, factors: factors, twiddles: tw)
            }
        }
        switch p {
        case 2: butterfly2(out, stride: stride, m: m, twiddles: tw)
        case 3: butterfly3(out, stride: stride, m: m, twiddles: tw)
        case 4: butterfly4(out, stride: stride, m: m, twiddles: tw)
        default: butterfly5(out, stride: stride, m: m, twiddles: tw)
        }
    }

    typealias S = Scalar

    @inline(__always)
    static func load(_ p: UnsafePointer<Scalar>, _ k: Int) -> (r: Scalar, i: Scalar) { (p[2 * k], p[2 * k + 1]) }

    @inline(__always)
    static func store(_ p: UnsafeMutablePointer<Scalar>, _ k: Int, _ v: (r: Scalar, i: Scalar)) {
        p[2 * k] = v.r
        p[2 * k + 1] = v.i
    }

    @inline(__always)
    static func divided(_ v: (r: Scalar, i: Scalar), by radix: Int) -> (r: Scalar, i: Scalar) {
        (S.kissDivide(v.r, by: radix), S.kissDivide(v.i, by: radix))
    }

    /// `C_MUL`: the complex product `a * b`.
    @inline(__always)
    static func product(_ a: (r: Scalar, i: Scalar), _ b: (r: Scalar, i: Scalar)) -> (r: Scalar, i: Scalar) {
        (S.kissMultiplySubtract(a.r, b.r, a.i, b.i), S.kissMultiplyAdd(a.r, b.i, a.i, b.r))
    }

    @inline(__always)
    static func sum(_ a: (r: Scalar, i: Scalar), _ b: (r: Scalar, i: Scalar)) -> (r: Scalar, i: Scalar) {
        (S.kissAdd(a.r, b.r), S.kissAdd(a.i, b.i))
    }

    @inline(__always)
    static func difference(_ a: (r: Scalar, i: Scalar), _ b: (r: Scalar, i: Scalar)) -> (r: Scalar, i: Scalar) {
        (S.kissSubtract(a.r, b.r), S.kissSubtract(a.i, b.i))
    }

    static func butterfly2(_ out: UnsafeMutablePointer<Scalar>, stride: Int, m: Int, twiddles tw: UnsafePointer<Scalar>) {
        let out2 = out + 2 * m
        for k in 0..<m {
            let a = divided(load(out, k), by: 2), b = divided(load(out2, k), by: 2)
            let t = product(b, load(tw, k * stride))
            store(out2, k, difference(a, t))
            store(out, k, sum(a, t))
        }
    }

    static func butterfly3(_ out: UnsafeMutablePointer<Scalar>, stride: Int, m: Int, twiddles tw: UnsafePointer<Scalar>) {
        let epi3 = load(tw, stride * m)
        for k in 0..<m {
            let f0 = divided(load(out, k), by: 3)
            let f1 = divided(load(out, k + m), by: 3)
            let f2 = divided(load(out, k + 2 * m), by: 3)
            let s1 = product(f1, load(tw, k * stride)), s2 = product(f2, load(tw, 2 * k * stride))
            let s3 = sum(s1, s2)
            var s0 = difference(s1, s2)
            let mid = (S.kissSubtract(f0.r, S.kissHalf(s3.r)), S.kissSubtract(f0.i, S.kissHalf(s3.i)))
            s0 = (S.kissMultiply(s0.r, epi3.i), S.kissMultiply(s0.i, epi3.i))
            store(out, k, sum(f0, s3))
            store(out, k + 2 * m, (S.kissAdd(mid.0, s0.i), S.kissSubtract(mid.1, s0.r)))
            store(out, k + m, (S.kissSubtract(mid.0, s0.i), S.kissAdd(mid.1, s0.r)))
        }
    }

    static func butterfly4(_ out: UnsafeMutablePointer<Scalar>, stride: Int, m: Int, twiddles tw: UnsafePointer<Scalar>) {
        for k in 0..<m {
            let f0 = divided(load(out, k), by: 4)
            let f1 = divided(load(out, k + m), by: 4)
            let f2 = divided(load(out, k + 2 * m), by: 4)
            let f3 = divided(load(out, k + 3 * m), by: 4)
            let s0 = product(f1, load(tw, k * stride))
            let s1 = product(f2, load(tw, 2 * k * stride))
            let s2 = product(f3, load(tw, 3 * k * stride))
            let s5 = difference(f0, s1)
            let first = sum(f0, s1)
            let s3 = sum(s0, s2), s4 = difference(s0, s2)
            store(out, k + 2 * m, difference(first, s3))
            store(out, k, sum(first, s3))
            store(out, k + m, (S.kissAdd(s5.r, s4.i), S.kissSubtract(s5.i, s4.r)))
            store(out, k + 3 * m, (S.kissSubtract(s5.r, s4.i), S.kissAdd(s5.i, s4.r)))
        }
    }

    static func butterfly5(_ out: UnsafeMutablePointer<Scalar>, stride: Int, m: Int, twiddles tw: UnsafePointer<Scalar>) {
        let ya = load(tw, stride * m), yb = load(tw, 2 * stride * m)
        for u in 0..<m {
            let f0 = divided(load(out, u), by: 5)
            let f1 = divided(load(out, u + m), by: 5)
            let f2 = divided(load(out, u + 2 * m), by: 5)
            let f3 = divided(load(out, u + 3 * m), by: 5)
            let f4 = divided(load(out, u + 4 * m), by: 5)
            let s1 = product(f1, load(tw, u * stride)), s2 = product(f2, load(tw, 2 * u * stride))
            let s3 = product(f3, load(tw, 3 * u * stride)), s4 = product(f4, load(tw, 4 * u * stride))
            let s7 = sum(s1, s4), s10 = difference(s1, s4)
            let s8 = sum(s2, s3), s9 = difference(s2, s3)
            store(out, u, (S.kissAdd(f0.r, S.kissAdd(s7.r, s8.r)), S.kissAdd(f0.i, S.kissAdd(s7.i, s8.i))))

            let s5 = (S.kissAdd(S.kissAdd(f0.r, S.kissMultiply(s7.r, ya.r)), S.kissMultiply(s8.r, yb.r)),
                      S.kissAdd(S.kissAdd(f0.i, S.kissMultiply(s7.i, ya.r)), S.kissMultiply(s8.i, yb.r)))
            let s6 = (S.kissAdd(S.kissMultiply(s10.i, ya.i), S.kissMultiply(s9.i, yb.i)),
                      S.kissSubtract(S.kissNegate(S.kissMultiply(s10.r, ya.i)), S.kissMultiply(s9.r, yb.i)))
            store(out, u + m, difference(s5, s6))
            store(out, u + 4 * m, sum(s5, s6))

            let s11 = (S.kissAdd(S.kissAdd(f0.r, S.kissMultiply(s7.r, yb.r)), S.kissMultiply(s8.r, ya.r)),
                       S.kissAdd(S.kissAdd(f0.i, S.kissMultiply(s7.i, yb.r)), S.kissMultiply(s8.i, ya.r)))
            let s12 = (S.kissAdd(S.kissNegate(S.kissMultiply(s10.i, yb.i)), S.kissMultiply(s9.i, ya.i)),
                       S.kissSubtract(S.kissMultiply(s10.r, yb.i), S.kissMultiply(s9.r, ya.i)))
            store(out, u + 2 * m, sum(s11, s12))
            store(out, u + 3 * m, difference(s11, s12))
        }
    }
}
