/// Heap memory holding a copy of an array, alive as long as the object, so tests can hand
/// kernels plain pointers without nesting `withUnsafe...` closures. Always bind a buffer to a
/// name before taking its pointer: a temporary may be freed before the kernel runs.
final class TestBuffer<Element> {
    let pointer: UnsafeMutablePointer<Element>
    let count: Int

    init(_ values: [Element]) {
        count = values.count
        pointer = .allocate(capacity: Swift.max(1, values.count))
        if !values.isEmpty { pointer.initialize(from: values, count: values.count) }
    }

    convenience init(repeating value: Element, count: Int) {
        self.init([Element](repeating: value, count: count))
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }

    var constant: UnsafePointer<Element> { UnsafePointer(pointer) }
    var raw: UnsafeRawPointer { UnsafeRawPointer(pointer) }
    var mutableRaw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
    var array: [Element] { Array(UnsafeBufferPointer(start: pointer, count: count)) }
}
