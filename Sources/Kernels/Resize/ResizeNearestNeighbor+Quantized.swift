extension Resize.Quantized {
    /// RESIZE_NEAREST_NEIGHBOR for quantised tensors (a copy of stored values; input and output
    /// share their quantisation), with TFLite's source-index rule: `floor((i + offset) * scale)`
    /// (rounded instead when aligning corners), clamped to the input.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func nearestNeighbor<T: QuantizedElement>(
        _ options: ResizeOptions,
        input: UnsafePointer<T>, inputShape: NHWC,
        output: UnsafeMutablePointer<T>, outputShape: NHWC
    ) {
        func source(_ value: Int, _ inSize: Int, _ outSize: Int) -> Int {
            let scale = options.alignCorners && outSize > 1 ? Float(inSize - 1) / Float(outSize - 1) : Float(inSize) / Float(outSize)
            let offset: Float = options.halfPixelCenters ? 0.5 : 0
            let position = (Float(value) + offset) * scale
            var index = min(options.alignCorners ? Int(position.rounded(.toNearestOrAwayFromZero)) : Int(position.rounded(.down)), inSize - 1)
            if options.halfPixelCenters { index = max(0, index) }
            return index
        }
        let depth = inputShape.channels
        for b in 0..<outputShape.batch {
            for y in 0..<outputShape.height {
                let sy = source(y, inputShape.height, outputShape.height)
                for x in 0..<outputShape.width {
                    let sx = source(x, inputShape.width, outputShape.width)
                    let from = input + ((b * inputShape.height + sy) * inputShape.width + sx) * depth
                    let to = output + ((b * outputShape.height + y) * outputShape.width + x) * depth
                    to.update(from: from, count: depth)
                }
            }
        }
    }
}
