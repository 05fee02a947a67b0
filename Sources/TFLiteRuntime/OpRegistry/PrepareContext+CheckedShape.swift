extension PrepareContext {
    /// Declares output `i`'s shape after checking that its element count fits an `Int`;
    /// `overflow` says what overflows when it does not.
    func setOutputShape(_ i: Int, checking shape: [Int], _ overflow: @autoclosure () -> String) throws(InterpreterError) {
        guard checkedProduct(shape) != nil else { throw invalid(overflow()) }
        try setOutputShape(i, shape)
    }
}
