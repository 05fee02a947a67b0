/// PAD / PADV2 for quantised tensors: copies the input into the middle of the output and fills
/// the rest with `padValue`, which is the output zero point for PAD (real zero) and the stored
/// constant for PADV2. Works on any rank; input and output share their quantisation.
///
/// - Parameters:
///   - before: elements added before the input along each axis (`paddings[i][0]`).
///   - outputShape: `inputShape[i] + before[i] + after[i]` per axis, as prepare computed it.
@_specialize(exported: true, where T == Int8)
@_specialize(exported: true, where T == UInt8)
@_specialize(exported: true, where T == Int16)
public func quantizedPad<T: QuantizedElement>(
    input: UnsafePointer<T>, inputShape: [Int], before: [Int],
    padValue: T, output: UnsafeMutablePointer<T>, outputShape: [Int]
) {
    let total = outputShape.reduce(1, *)
    output.update(repeating: padValue, count: total)
    let rank = inputShape.count
    let inputCount = inputShape.reduce(1, *)
    guard inputCount > 0 else { return }
    if rank == 0 {
        output[0] = input[0]
        return
    }
    var outputStrides = [Int](repeating: 1, count: rank)
    for axis in stride(from: rank - 2, through: 0, by: -1) {
        outputStrides[axis] = outputStrides[axis + 1] * outputShape[axis + 1]
    }
    // Copy innermost rows one at a time; the odometer walks the outer axes.
    let rowLength = inputShape[rank - 1]
    var counter = [Int](repeating: 0, count: rank)
    var source = 0
    while source < inputCount {
        var target = 0
        for axis in 0..<rank {
            target += (counter[axis] + before[axis]) * outputStrides[axis]
        }
        (output + target).update(from: input + source, count: rowLength)
        source += rowLength
        if rank >= 2 {
            counter.withUnsafeMutableBufferPointer { stepOdometer($0.baseAddress!, extents: inputShape, lastAxis: rank - 2) }
        }
    }
}
