extension DetectionPostProcess {
    /// The bytes of working memory ``run(params:boxes:numBoxes:scores:classesWithBackground:outputs:workspace:)``
    /// needs for `numBoxes` anchors: the candidate lists, scores and merge buffers of the
    /// suppression, sized once at prepare so that running allocates nothing.
    public static func workspaceBytes(params: DetectionPostProcessParams, numBoxes: Int) -> Int {
        Workspace.layout(params: params, numBoxes: numBoxes).byteCount
    }

    /// One detection of regular NMS's merged list.
    struct Detection {
        var anchor: Int
        var cls: Int
        var score: Float
    }

    /// The suppression's working arrays, carved from one block of ``workspaceBytes(params:numBoxes:)``.
    struct Workspace {
        /// Candidate anchors of one suppression, best first (`numBoxes`).
        let candidates: UnsafeMutablePointer<Int>
        /// Whether each candidate is still in play (`numBoxes`).
        let active: UnsafeMutablePointer<Bool>
        /// The anchors one suppression keeps (`maxDetections`).
        let selected: UnsafeMutablePointer<Int>
        /// One score per anchor: its best class (fast NMS) or the current class (regular NMS).
        let boxScores: UnsafeMutablePointer<Float>
        /// One anchor's classes ranked by score (`numClasses`).
        let classOrder: UnsafeMutablePointer<Int>
        /// Regular NMS's merged detections and the next merge (`maxDetections` each).
        let merged: UnsafeMutablePointer<Detection>
        let next: UnsafeMutablePointer<Detection>

        /// Byte offsets of each array from an 8-byte aligned start, and the total with slack for
        /// aligning an arbitrary start.
        static func layout(params: DetectionPostProcessParams, numBoxes: Int)
            -> (candidates: Int, selected: Int, classOrder: Int, merged: Int, next: Int, boxScores: Int, active: Int, byteCount: Int) {
            // Eight-byte elements first, so every array starts aligned.
            let candidates = 0
            let selected = candidates + numBoxes * MemoryLayout<Int>.stride
            let classOrder = selected + params.maxDetections * MemoryLayout<Int>.stride
            let merged = classOrder + params.numClasses * MemoryLayout<Int>.stride
            let next = merged + params.maxDetections * MemoryLayout<Detection>.stride
            let boxScores = next + params.maxDetections * MemoryLayout<Detection>.stride
            let active = boxScores + numBoxes * MemoryLayout<Float>.stride
            let end = active + numBoxes * MemoryLayout<Bool>.stride
            return (candidates, selected, classOrder, merged, next, boxScores, active, end + MemoryLayout<Int>.alignment - 1)
        }

        init(_ memory: UnsafeMutableRawPointer, params: DetectionPostProcessParams, numBoxes: Int) {
            let base = memory.alignedUp(for: Int.self)
            let l = Self.layout(params: params, numBoxes: numBoxes)
            candidates = (base + l.candidates).bindMemory(to: Int.self, capacity: numBoxes)
            selected = (base + l.selected).bindMemory(to: Int.self, capacity: params.maxDetections)
            classOrder = (base + l.classOrder).bindMemory(to: Int.self, capacity: params.numClasses)
            merged = (base + l.merged).bindMemory(to: Detection.self, capacity: params.maxDetections)
            next = (base + l.next).bindMemory(to: Detection.self, capacity: params.maxDetections)
            boxScores = (base + l.boxScores).bindMemory(to: Float.self, capacity: numBoxes)
            active = (base + l.active).bindMemory(to: Bool.self, capacity: numBoxes)
        }
    }
}
