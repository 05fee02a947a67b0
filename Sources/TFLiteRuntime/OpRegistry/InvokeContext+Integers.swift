extension InvokeContext {
    /// The first `count` values of the int64 (`wide`) or int32 tensor `tensor`: a shape or a
    /// slice specification computed at run time.
    func integers(_ tensor: Int, count: Int, wide: Bool) -> [Int] {
        (0..<count).map { wide ? Int(truncatingIfNeeded: data(tensor, as: Int64.self)[$0]) : Int(data(tensor, as: Int32.self)[$0]) }
    }
}
