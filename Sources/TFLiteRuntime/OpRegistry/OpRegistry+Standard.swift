extension OpRegistry {
    /// Every op family this runtime implements.
    static let standard: OpRegistry = {
        var r = OpRegistry()
        r.registerReshapeOps()
        r.registerConvOps()
        r.registerPoolingOps()
        r.registerArithmeticOps()
        r.registerQuantizeOps()
        r.registerActivationOps()
        r.registerSoftmaxOps()
        r.registerReduceOps()
        r.registerComparisonOps()
        r.registerDetectionPostProcess()
        return r
    }()
}
