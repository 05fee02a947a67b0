extension AudioFrontend {
    /// The tables of a mel filter bank (`SignalFilterBank`'s constant inputs 1 to 5). Channel
    /// `c` sums `widths[c]` spectrum bins from `frequencyStarts[c]`, weighted by
    /// `weights[weightStarts[c]...]`; the complementary `unweights` of the same bins go to
    /// channel `c + 1`, so the triangles overlap. Entry 0 of the per-channel tables is an
    /// extra channel whose weighted sum is discarded.
    public struct FilterBankTables {
        public var weights: UnsafeBufferPointer<Int16>
        public var unweights: UnsafeBufferPointer<Int16>
        public var frequencyStarts: UnsafeBufferPointer<Int16>
        public var weightStarts: UnsafeBufferPointer<Int16>
        public var widths: UnsafeBufferPointer<Int16>

        public init(weights: UnsafeBufferPointer<Int16>, unweights: UnsafeBufferPointer<Int16>,
                    frequencyStarts: UnsafeBufferPointer<Int16>, weightStarts: UnsafeBufferPointer<Int16>,
                    widths: UnsafeBufferPointer<Int16>) {
            self.weights = weights
            self.unweights = unweights
            self.frequencyStarts = frequencyStarts
            self.weightStarts = weightStarts
            self.widths = widths
        }

        /// Why the tables cannot serve `channels` channels over `bins` spectrum bins (a
        /// table too short, or a band reaching outside the spectrum or the weights); nil when
        /// every read ``filterBank(spectrum:tables:output:)`` makes is in bounds.
        public func problem(channels: Int, bins: Int) -> String? {
            for (name, table) in [("frequency starts", frequencyStarts), ("weight starts", weightStarts), ("widths", widths)]
                where table.count < channels + 1 {
                return "\(name) hold \(table.count) entries, \(channels + 1) needed for \(channels) channels"
            }
            let weightCount = min(weights.count, unweights.count)
            for c in 0...channels {
                let start = Int(frequencyStarts[c]), weightStart = Int(weightStarts[c]), width = Int(widths[c])
                guard width > 0 else { continue }
                guard start >= 0, start + width <= bins else {
                    return "channel \(c) reads bins \(start)..<\(start + width) of \(bins)"
                }
                guard weightStart >= 0, weightStart + width <= weightCount else {
                    return "channel \(c) reads weights \(weightStart)..<\(weightStart + width) of \(weightCount)"
                }
            }
            return nil
        }
    }

    /// `SignalFilterBank`: accumulates the energy spectrum into `output.count` mel channels in
    /// uint64. TFLite Micro converts each int16 weight to uint64 before multiplying, so a
    /// negative weight wraps; the sums wrap the same way.
    /// - Precondition: `tables.problem(channels: output.count, bins: spectrum.count) == nil`.
    public static func filterBank(spectrum: UnsafeBufferPointer<UInt32>, tables: FilterBankTables,
                                  output: UnsafeMutableBufferPointer<UInt64>) {
        var weighted: UInt64 = 0, unweighted: UInt64 = 0
        for c in 0...output.count {
            let start = Int(tables.frequencyStarts[c]), weightStart = Int(tables.weightStarts[c])
            let width = Int(tables.widths[c])
            for j in 0..<max(width, 0) {
                let energy = UInt64(spectrum[start + j])
                weighted &+= UInt64(bitPattern: Int64(tables.weights[weightStart + j])) &* energy
                unweighted &+= UInt64(bitPattern: Int64(tables.unweights[weightStart + j])) &* energy
            }
            if c > 0 { output[c - 1] = weighted }
            weighted = unweighted
            unweighted = 0
        }
    }
}
