#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The instruction-set extensions of the CPU this process runs on, read without C code.
///
/// On x86-64 Linux with glibc (2.33 or later) they come from glibc's own table
/// (`__x86_get_cpuid_feature_leaf`, the function behind `<sys/platform/x86.h>`): the CPUID
/// bits this process sees, each marked usable only when the OS saves the state it needs
/// (XGETBV). That is what the CPU really executes, also under an emulator or a hypervisor that
/// hides features, where `/proc/cpuinfo` shows the host's. Elsewhere on Linux (musl, static
/// executables) the `flags` line of `/proc/cpuinfo` is read; on Darwin, `sysctlbyname`.
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
        #if arch(x86_64)
        if let fromGlibc = readFromGlibc() { return fromGlibc }
        #endif
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

    #if os(Linux) && arch(x86_64)
    /// The usable features in glibc's CPUID table, by their `/proc/cpuinfo` names; nil when
    /// this C library has no such table.
    private static func readFromGlibc() -> Set<String>? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "__x86_get_cpuid_feature_leaf") else {
            return nil
        }
        // `const struct cpuid_feature *(unsigned int index)`: for CPUID leaf group `index`, the
        // registers eax, ebx, ecx, edx as read, then the same four with only the usable bits.
        typealias FeatureLeaf = @convention(c) (UInt32) -> UnsafeRawPointer?
        let leaf = unsafeBitCast(symbol, to: FeatureLeaf.self)
        // (name, leaf group: 0 = CPUID 1, 1 = CPUID 7, 2 = CPUID 0x80000001; register: 1 = ebx,
        // 2 = ecx; bit)
        let bits: [(String, UInt32, Int, Int)] = [
            ("fma", 0, 2, 12), ("movbe", 0, 2, 22), ("popcnt", 0, 2, 23), ("avx", 0, 2, 28), ("f16c", 0, 2, 29),
            ("bmi1", 1, 1, 3), ("avx2", 1, 1, 5), ("bmi2", 1, 1, 8), ("avx512f", 1, 1, 16), ("avx512dq", 1, 1, 17),
            ("avx512cd", 1, 1, 28), ("avx512bw", 1, 1, 30), ("avx512vl", 1, 1, 31), ("avx512_vnni", 1, 2, 11),
            ("abm", 2, 2, 5),
        ]
        var found: Set<String> = []
        for (name, group, register, bit) in bits {
            guard let registers = leaf(group) else { continue }
            let usable = registers.load(fromByteOffset: (4 + register) * 4, as: UInt32.self)
            if usable & (1 << UInt32(bit)) != 0 { found.insert(name) }
        }
        return found
    }
    #endif

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
