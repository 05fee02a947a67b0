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
        r.registerScanOps()
        r.registerTopKOps()
        r.registerIndexOps()
        r.registerSegmentOps()
        r.registerScatterOps()
        r.registerMatrixOps()
        r.registerConv3DOps()
        r.registerBitwiseOps()
        r.registerAtan2AddNOps()
        r.registerSelectOps()
        r.registerNonMaxSuppressionOps()
        r.registerGenerateOps()
        r.registerValueShapedOps()
        r.registerSignalOps()
        r.registerSequenceOps()
        return r
    }()
}
