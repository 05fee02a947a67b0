import TestSupport
import TFLiteRuntime

extension TinyModel {
    /// Writes the table of a `builtin_options_2` member and returns its position. Field
    /// numbers follow `schema.fbs`; vectors follow their table, as forward offsets require.
    static func writeOptions2(_ options: Schema.BuiltinOptions2, into w: inout ForwardWriter) -> Int {
        /// A table of int64 vectors, then `scalars` as (byte size, value) fields.
        func table(vectors: [[Int64]], scalars: [(Int, Int64)] = []) -> Int {
            let t = w.table(vectors.map { _ in 4 } + scalars.map(\.0))
            for (k, (size, value)) in scalars.enumerated() {
                let at = t.fields[vectors.count + k]!
                switch size {
                case 1: w.set(Int8(truncatingIfNeeded: value), at: at)
                case 4: w.set(Int32(truncatingIfNeeded: value), at: at)
                default: w.set(value, at: at)
                }
            }
            for (k, v) in vectors.enumerated() { w.link(t.fields[k]!, to: w.vector(v)) }
            return t.position
        }
        switch options {
        case .stablehloPadOptions(let o):
            return table(vectors: [o.edgePaddingLow, o.edgePaddingHigh, o.interiorPadding])
        case .stablehloReduceWindowOptions(let o):
            return table(vectors: [o.windowDimensions, o.windowStrides, o.baseDilations, o.windowDilations, o.padding],
                         scalars: [(4, Int64(o.bodySubgraphIndex))])
        case .stablehloGatherOptions(let o):
            let t = w.table([4, 4, 4, 8, 4])
            w.set(o.indexVectorDim, at: t.fields[3]!)
            for (k, v) in [(0, o.offsetDims), (1, o.collapsedSliceDims), (2, o.startIndexMap), (4, o.sliceSizes)] {
                w.link(t.fields[k]!, to: w.vector(v))
            }
            return t.position
        case .stablehloScatterOptions(let o):
            let t = w.table([nil, 4, 4, 4, 8, nil, 4])
            w.set(o.indexVectorDim, at: t.fields[4]!)
            w.set(o.updateComputationSubgraphIndex, at: t.fields[6]!)
            for (k, v) in [(1, o.updateWindowDims), (2, o.insertedWindowDims), (3, o.scatterDimsToOperandDims)] {
                w.link(t.fields[k]!, to: w.vector(v))
            }
            return t.position
        case .stablehloCaseOptions(let o):
            let t = w.table([4])
            w.link(t.fields[0]!, to: w.vector(o.branchSubgraphIndices))
            return t.position
        case .stableHLOCompositeOptions(let o):
            let t = w.table([nil, 4])
            w.set(o.decompositionSubgraphIndex, at: t.fields[1]!)
            return t.position
        case .stablehloRngBitGeneratorOptions(let o):
            return table(vectors: [], scalars: [(1, Int64(o.algorithm.rawValue))])
        case .reduceWindowOptions(let o):
            return table(vectors: [], scalars: [(4, Int64(o.reduceFunction.rawValue))])
        default:
            return w.table([]).position
        }
    }
}
