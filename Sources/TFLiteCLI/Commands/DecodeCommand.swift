import Foundation
import Imaging
import TFLiteRuntime

/// `tflite decode`: decodes a PNG, JPEG or PNM file with the pure-Swift decoders and writes
/// the pixels as an HxWxC `.npy` array.
struct DecodeCommand: Command {
    static let name = "decode"
    static let summary = "decode a PNG/JPEG/PNM image to an HxWxC .npy array"
    static let help = """
        Usage: tflite decode IMAGE --output OUT.npy [--orient] [--bench N]

        Decodes IMAGE (PNG, JPEG, PBM/PGM/PPM) and writes its pixels as an HxWxC array:
        uint8, or uint16 for 16-bit PNG/PNM sources. Palette PNGs become RGB (RGBA with
        tRNS); 1/2/4-bit gray is scaled to 8 bits.

        Options:
          --output PATH   where to write the .npy (required unless --bench is given)
          --orient        apply the file's EXIF orientation (default: stored pixels)
          --bench N       decode N times and print the median decode time (thread CPU
                          time, which a busy machine disturbs less than wall time, and
                          wall time), the fastest, and MB/s of decoded pixels

        Example:
          tflite decode photo.jpg --output photo.npy --orient
        """

    static func run(_ arguments: inout Arguments) throws {
        let output = try arguments.option("--output")
        let orient = arguments.flag("--orient")
        let bench = try arguments.intOption("--bench", in: 1...1_000_000)
        let path = try arguments.positionals(exactly: "IMAGE")[0]
        guard output != nil || bench != nil else { throw UsageError("--output is required") }

        let bytes = try FileIO.read(path)
        var decoded = try ImageDecoder.decode(bytes: bytes)
        if let runs = bench {
            var cpu: [Double] = [], wall: [Double] = []
            for _ in 0..<runs {
                let (startCPU, startWall) = (threadCPUMilliseconds(), DispatchTime.now().uptimeNanoseconds)
                decoded = try ImageDecoder.decode(bytes: bytes)
                cpu.append(threadCPUMilliseconds() - startCPU)
                wall.append(Double(DispatchTime.now().uptimeNanoseconds - startWall) / 1e6)
            }
            cpu.sort()
            wall.sort()
            let median = cpu[cpu.count / 2]
            let image = decoded.image
            let megabytes = Double(image.width * image.height * image.channels * image.bitDepth / 8) / 1e6
            print(String(format: "%@: %dx%dx%d %@ decode median %.3f ms cpu (%.3f ms wall), min %.3f ms cpu, %.1f MB/s (%d runs)",
                         path, image.width, image.height, image.channels, decoded.format.rawValue,
                         median, wall[wall.count / 2], cpu[0], megabytes / (median / 1e3), runs))
        }
        guard let output else { return }
        let image = orient ? decoded.orientedImage : decoded.image
        let shape = [image.height, image.width, image.channels]
        let array: NPYArray
        switch image.samples {
        case .uInt8(let s): array = try NPYArray(s, dtype: .uInt8, shape: shape)
        case .uInt16(let s): array = try NPYArray(s, dtype: .uInt16, shape: shape)
        }
        try array.write(to: output)
    }
}

/// CPU time consumed by the calling thread, in milliseconds.
private func threadCPUMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}
