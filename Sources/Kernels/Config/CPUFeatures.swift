#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The instruction-set extensions of the CPU this process runs on, read without C code: on
/// Linux from the `flags` line of `/proc/cpuinfo` (which lists only what the kernel enabled,
/// so AVX state the OS does not save is not reported), on Darwin from `sysctlbyname`.
public enum CPUFeatures {
    /// The detected features, by their `/proc/cpuinfo` names; empty where nothing can be read
    /// (the baseline variant then runs).
    public static let detected: Set<String> = readFeatures()

    /// The features named in a `/proc/cpuinfo` text: the words of its first `flags` line.
    public static func parse(cpuinfo text: Substring) -> Set<String> {
        for line in text.split(separator: "\n") where line.hasPrefix("flags") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
        }
        return []
    }

    private static func readFeatures() -> Set<String> {
        #if os(Linux)
        guard let text = readFile("/proc/cpuinfo") else { return [] }
        return parse(cpuinfo: text[...])
        #elseif canImport(Darwin) && arch(x86_64)
        // Intel Macs: the vector extensions from the kernel's hw.optional flags. Every Mac with
        // AVX2 is a Haswell or later, so it has the scalar extensions that come with it too.
        let names: [(String, String)] = [
            ("avx", "hw.optional.avx1_0"), ("avx2", "hw.optional.avx2_0"), ("fma", "hw.optional.fma"),
            ("avx512f", "hw.optional.avx512f"), ("avx512cd", "hw.optional.avx512cd"),
            ("avx512bw", "hw.optional.avx512bw"), ("avx512dq", "hw.optional.avx512dq"),
            ("avx512vl", "hw.optional.avx512vl"), ("avx512_vnni", "hw.optional.avx512vnni"),
        ]
        var found: Set<String> = []
        for (flag, key) in names {
            var value: Int32 = 0
            var size = MemoryLayout<Int32>.size
            if sysctlbyname(key, &value, &size, nil, 0) == 0, value != 0 { found.insert(flag) }
        }
        if found.contains("avx2") { found.formUnion(["f16c", "bmi1", "bmi2", "movbe", "popcnt", "abm"]) }
        return found
        #else
        return []
        #endif
    }

    #if os(Linux)
    /// The whole of a small file read with `read(2)` (`/proc` files report a size of zero).
    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < 1 << 24 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    #endif
}
