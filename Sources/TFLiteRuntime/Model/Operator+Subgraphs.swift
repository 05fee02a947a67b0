extension Schema.Operator {
    /// The subgraph indices this operator's options refer to (control flow and StableHLO
    /// regions), in the order the options list them.
    public var referencedSubgraphs: [Int] {
        var out: [Int] = []
        switch builtinOptions {
        case .ifOptions(let o): out += [Int(o.thenSubgraphIndex), Int(o.elseSubgraphIndex)]
        case .whileOptions(let o): out += [Int(o.condSubgraphIndex), Int(o.bodySubgraphIndex)]
        case .callOnceOptions(let o): out.append(Int(o.initSubgraphIndex))
        case .callOptions(let o): out.append(Int(o.subgraph))
        default: break
        }
        switch builtinOptions2 {
        case .stablehloWhileOptions(let o): out += [Int(o.condSubgraphIndex), Int(o.bodySubgraphIndex)]
        case .stablehloReduceOptions(let o): out.append(Int(o.bodySubgraphIndex))
        case .stablehloReduceWindowOptions(let o): out.append(Int(o.bodySubgraphIndex))
        case .stablehloSortOptions(let o): out.append(Int(o.comparatorSubgraphIndex))
        case .stablehloScatterOptions(let o): out.append(Int(o.updateComputationSubgraphIndex))
        case .stablehloCaseOptions(let o): out += o.branchSubgraphIndices.map { Int($0) }
        case .stableHLOCompositeOptions(let o): out.append(Int(o.decompositionSubgraphIndex))
        case .stablehloCustomCallOptions(let o): out += o.calledComputations.map { Int($0) }
        default: break
        }
        return out
    }
}
