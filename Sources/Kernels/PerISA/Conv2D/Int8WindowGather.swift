#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The im2col row of one output pixel of an int8 convolution: the input values under the
/// filter window in filter order (`ky`, `kx`, channel), with taps outside the input set to a
/// padding value. Generic over the stored element so that the pair kernels (int16 rows) and
/// the quad kernels (offset bytes) gather alike; `convert` copies a run of int8 values into
/// that element type.
struct Int8WindowGather {
    let geometry: ConvGeometry
    let inputShape: NHWC
    let kernelHeight: Int
    let kernelWidth: Int
    /// A 1x1 filter with stride 1 and no padding: the row is the input pixel itself.
    let pointwise: Bool

    init(geometry g: ConvGeometry, filterShape: NHWC, inputShape: NHWC) {
        geometry = g
        self.inputShape = inputShape
        kernelHeight = filterShape.height
        kernelWidth = filterShape.width
        pointwise = Conv2D.isPointwise(geometry: g, filterShape: filterShape)
    }

    /// Writes the row of output pixel `pixel`, at (`b`, `oy`, `ox`), to `s`: `kernelHeight *
    /// kernelWidth * channels` elements.
    @inline(__always)
    func gather<T>(_ input: UnsafePointer<Int8>, pixel: Int, _ b: Int, _ oy: Int, _ ox: Int,
                   into s: UnsafeMutablePointer<T>, pad: T,
                   convert: (UnsafePointer<Int8>, Int, UnsafeMutablePointer<T>) -> Void) {
        let g = geometry, channels = inputShape.channels, kw = kernelWidth
        if pointwise {
            convert(input + pixel * channels, channels, s)
            return
        }
        let ix0 = ox * g.strideWidth - g.paddingWidth.before
        var k = 0
        for ky in 0..<kernelHeight {
            let iy = oy * g.strideHeight - g.paddingHeight.before + ky * g.dilationHeight
            let rowInside = iy >= 0 && iy < inputShape.height
            if g.dilationWidth == 1 {
                // Undilated taps of one filter row are adjacent input pixels: one conversion
                // for the in-bounds run (a 3-channel first layer would otherwise convert 3
                // values per call).
                let first = rowInside ? min(max(0, -ix0), kw) : kw
                let end = rowInside ? max(first, min(kw, inputShape.width - ix0)) : first
                if first > 0 { (s + k).update(repeating: pad, count: first * channels) }
                if end > first {
                    convert(input + ((b * inputShape.height + iy) * inputShape.width + ix0 + first) * channels,
                            (end - first) * channels, s + k + first * channels)
                }
                if end < kw { (s + k + end * channels).update(repeating: pad, count: (kw - end) * channels) }
                k += kw * channels
                continue
            }
            for kx in 0..<kw {
                let ix = ix0 + kx * g.dilationWidth
                if !rowInside || ix < 0 || ix >= inputShape.width {
                    (s + k).update(repeating: pad, count: channels)
                } else {
                    convert(input + ((b * inputShape.height + iy) * inputShape.width + ix) * channels, channels, s + k)
                }
                k += channels
            }
        }
    }
}

/// Output pixels in order, their coordinates advanced one step at a time instead of found by
/// three divisions a pixel.
struct OutputPixelWalk {
    private let width: Int
    private let height: Int
    private(set) var b: Int
    private(set) var oy: Int
    private(set) var ox: Int

    /// Starts at pixel `first` of an output `shape`.
    init(first: Int, shape: NHWC) {
        width = shape.width
        height = shape.height
        ox = first % shape.width
        oy = (first / shape.width) % shape.height
        b = first / (shape.width * shape.height)
    }

    @inline(__always)
    mutating func advance() {
        ox += 1
        if ox == width {
            ox = 0
            oy += 1
            if oy == height { oy = 0; b += 1 }
        }
    }
}
