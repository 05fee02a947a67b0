#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DetectionPostProcess {
    /// Decodes centre-size box encodings against their anchors into corner boxes
    /// `(ymin, xmin, ymax, xmax)`.
    ///
    /// Each encoding row holds `codeSize` values of which the first four are `(y, x, h, w)`;
    /// anchors are `(y, x, h, w)` rows. The arithmetic runs in `Double` and rounds the centre
    /// and half extents to `Float` before the corners are formed, which is what TFLite does.
    public static func decodeBoxes(encodings: UnsafePointer<Float>, codeSize: Int, anchors: UnsafePointer<Float>,
                                   count: Int, params: DetectionPostProcessParams,
                                   into boxes: UnsafeMutablePointer<Float>) {
        let sy = Double(params.yScale), sx = Double(params.xScale)
        let sh = Double(params.hScale), sw = Double(params.wScale)
        for i in 0..<count {
            let e = encodings + i * codeSize, a = anchors + i * 4
            let ay = Double(a[0]), ax = Double(a[1]), ah = Double(a[2]), aw = Double(a[3])
            let yCenter = Float(Double(e[0]) / sy * ah + ay)
            let xCenter = Float(Double(e[1]) / sx * aw + ax)
            let halfH = Float(0.5 * exp(Double(e[2]) / sh) * ah)
            let halfW = Float(0.5 * exp(Double(e[3]) / sw) * aw)
            let b = boxes + i * 4
            b[0] = yCenter - halfH
            b[1] = xCenter - halfW
            b[2] = yCenter + halfH
            b[3] = xCenter + halfW
        }
    }

    /// Intersection over union of two corner boxes; 0 when either has no area.
    @inline(__always)
    static func intersectionOverUnion(_ boxes: UnsafePointer<Float>, _ i: Int, _ j: Int) -> Float {
        let a = boxes + i * 4, b = boxes + j * 4
        let areaA = (a[2] - a[0]) * (a[3] - a[1])
        let areaB = (b[2] - b[0]) * (b[3] - b[1])
        if areaA <= 0 || areaB <= 0 { return 0 }
        let ymin = max(a[0], b[0]), xmin = max(a[1], b[1])
        let ymax = min(a[2], b[2]), xmax = min(a[3], b[3])
        let intersection = max(ymax - ymin, 0) * max(xmax - xmin, 0)
        return intersection / (areaA + areaB - intersection)
    }
}
