/// HASHTABLE_LOOKUP (the static lookup op, not the resource hash tables): for each query, the
/// value row whose key equals it, found by binary search over the keys (which the model keeps
/// sorted), or a zero row; `hits` says which queries were found. The search probes the keys in
/// the C library's `bsearch` order, so even unsorted keys give LiteRT's answer.
public enum HashtableLookup {
    public static func run(queries: UnsafePointer<Int32>, count: Int, keys: UnsafePointer<Int32>, rows: Int,
                           values: UnsafeRawPointer, rowBytes: Int, output: UnsafeMutableRawPointer, hits: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count {
            let target = output + i * rowBytes
            if let row = find(queries[i], in: keys, count: rows) {
                target.copyMemory(from: values + row * rowBytes, byteCount: rowBytes)
                hits[i] = 1
            } else {
                target.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
                hits[i] = 0
            }
        }
    }

    static func find(_ key: Int32, in keys: UnsafePointer<Int32>, count: Int) -> Int? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if key < keys[mid] { hi = mid } else if key > keys[mid] { lo = mid + 1 } else { return mid }
        }
        return nil
    }
}
