/// QUANTIZE between 8-bit types through a 256-entry table: the result depends only on the
/// input byte, so prepare evaluates ``Quantize/Quantized/requantize(input:inputZeroPoint:output:outputZeroPoint:multiplier:count:)``
/// once per possible byte and every invocation is one lookup per element (the uint8 image
/// input of a quantised classifier is 150,000 elements of the fixed-point rescale otherwise).
/// Equal to `requantize` by construction.
public struct ByteRequantizationTable<In: QuantizedElement, Out: QuantizedElement>: Sendable {
    /// `table[Int(UInt8(truncatingIfNeeded: x))]` is the output for input byte `x`.
    @usableFromInline let table: [Out]
    /// The constant `k` when every output byte is its input byte plus `k` (mod 256), as in
    /// the commonest case: a uint8 image input converted to int8 at an unchanged scale, whose
    /// zero points differ by 128. Then a vector add replaces the lookups.
    public let byteShift: UInt8?

    /// Tabulates the rescale; nil unless both types are 8-bit.
    public init?(inputZeroPoint: Int32, outputZeroPoint: Int32, multiplier: QuantizedMultiplier) {
        guard In.bitWidth == 8, Out.bitWidth == 8 else { return nil }
        let inputs = (0..<256).map { In(truncatingIfNeeded: $0) }
        var outputs = [Out](repeating: 0, count: 256)
        inputs.withUnsafeBufferPointer { i in
            outputs.withUnsafeMutableBufferPointer { o in
                Quantize.Quantized.requantize(input: i.baseAddress!, inputZeroPoint: inputZeroPoint, output: o.baseAddress!,
                                              outputZeroPoint: outputZeroPoint, multiplier: multiplier, count: 256)
            }
        }
        table = outputs
        let shift = UInt8(truncatingIfNeeded: outputs[0]) &- UInt8(truncatingIfNeeded: inputs[0])
        byteShift = zip(inputs, outputs).allSatisfy {
            UInt8(truncatingIfNeeded: $1) == UInt8(truncatingIfNeeded: $0) &+ shift
        } ? shift : nil
    }

    /// Rescales `count` elements. Inlinable so that callers in other modules get a loop
    /// specialised to their element types rather than generic code.
    @inlinable
    public func apply(input: UnsafePointer<In>, output: UnsafeMutablePointer<Out>, count: Int) {
        if let byteShift {
            let source = UnsafeRawPointer(input), destination = UnsafeMutableRawPointer(output)
            let shift = SIMD32<UInt8>(repeating: byteShift)
            var i = 0
            while i &+ 32 <= count {
                destination.storeBytes(of: source.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self) &+ shift,
                                       toByteOffset: i, as: SIMD32<UInt8>.self)
                i &+= 32
            }
            while i < count {
                destination.storeBytes(of: source.load(fromByteOffset: i, as: UInt8.self) &+ byteShift,
                                       toByteOffset: i, as: UInt8.self)
                i &+= 1
            }
            return
        }
        table.withUnsafeBufferPointer { t in
            let bytes = UnsafeRawPointer(input).assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { output[i] = t[Int(bytes[i])] }
        }
    }
}
