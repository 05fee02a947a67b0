// swift-tools-version:6.2
// A pure-Swift TensorFlow Lite runtime: no C targets, no package dependencies.
import PackageDescription

/// The optimised kernels (`Sources/Kernels/PerISA`) compiled once more per x86-64 instruction
/// set, each module with its own `-target-cpu`; `KernelSelection` picks one at run time from
/// the detected CPU. `Kernels` itself holds the baseline copy. Tools-version 6.2 accepts these
/// per-target flags in a package used as a versioned dependency. Other architectures (arm64:
/// NEON is the baseline) build no variant modules. A variant compiled for a CPU it does not
/// fit (a cross build) is never chosen: the choice is made from the running CPU's features.
struct KernelVariant {
    let module: String
    let targetCPU: String
    let defines: [String]
    /// Whether the variant calls instructions of `X86Intrinsics` (which LLVM does not form from
    /// plain Swift).
    var intrinsics = false
}

#if arch(x86_64)
let kernelVariants = [
    KernelVariant(module: "KernelsAVX2", targetCPU: "haswell", defines: ["TFLITE_AVX2", "TFLITE_FMA"]),
    KernelVariant(module: "KernelsAVX512", targetCPU: "skylake-avx512", defines: ["TFLITE_AVX512", "TFLITE_FMA"],
                  intrinsics: true),
    KernelVariant(module: "KernelsAVX512VNNI", targetCPU: "cascadelake", defines: ["TFLITE_AVX512", "TFLITE_FMA", "TFLITE_VNNI"],
                  intrinsics: true),
]
#else
let kernelVariants: [KernelVariant] = []
#endif

let variantTargets: [Target] = kernelVariants.map { v in
    .target(name: v.module, dependencies: ["Kernels"] + (v.intrinsics ? ["X86Intrinsics"] : []),
            swiftSettings: (["TFLITE_ISA_MODULE"] + v.defines).map { .define($0) }
                // Not for the Apple device platforms, which are arm64 even when built on an
                // Intel Mac (the manifest sees the host's architecture, not the target's).
                + [.unsafeFlags(["-target-cpu", v.targetCPU], .when(platforms: [.linux, .macOS, .windows]))])
}

/// Wrappers of the instructions behind `Builtin` (the standard library's view of LLVM), for the
/// variants that need them. Compiled for the widest variant's CPU: its bodies are emitted into
/// the calling variant (`@_alwaysEmitIntoClient`), and nothing in it runs on its own.
#if arch(x86_64)
let intrinsicsTargets: [Target] = [
    .target(name: "X86Intrinsics",
            swiftSettings: [.unsafeFlags(["-parse-stdlib"]),
                            .unsafeFlags(["-target-cpu", "cascadelake"], .when(platforms: [.linux, .macOS, .windows]))]),
]
#else
let intrinsicsTargets: [Target] = []
#endif

let package = Package(
    name: "SwiftTFLite",
    // The thread pool hands jobs to its workers through the Synchronization module's atomics.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "FlatBuffers", targets: ["FlatBuffers"]),
        .library(name: "Kernels", targets: ["Kernels", "KernelSelection"]),
        .library(name: "TFLiteRuntime", targets: ["TFLiteRuntime"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "TFLiteTasks", targets: ["TFLiteTasks"]),
        .library(name: "TensorFlowLite", targets: ["TensorFlowLite"]),
        .library(name: "MLKit", targets: ["MLKit"]),
        .executable(name: "tflite", targets: ["TFLiteCLI"]),
    ],
    targets: variantTargets + intrinsicsTargets + [
        // Core modules: standard library and the platform C library only.
        .target(name: "FlatBuffers"),
        .target(name: "Kernels"),
        .target(name: "KernelSelection", dependencies: ["Kernels"] + kernelVariants.map { .target(name: $0.module) }),
        .target(name: "TFLiteRuntime", dependencies: ["FlatBuffers", "Kernels", "KernelSelection"]),
        .target(name: "Imaging"),
        // Foundation is allowed from here up.
        .target(name: "TFLiteTasks", dependencies: ["TFLiteRuntime", "Imaging"]),
        // TensorFlowLiteSwift's API (`import TensorFlowLite`) over the runtime.
        .target(name: "TensorFlowLite", dependencies: ["TFLiteRuntime"]),
        // ML Kit's custom-model API (`import MLKit`) over the tasks.
        .target(name: "MLKit", dependencies: ["TFLiteTasks", "Imaging"]),
        .executableTarget(name: "TFLiteCLI", dependencies: ["TFLiteTasks", "TFLiteRuntime", "Imaging"]),
        // Complete programs for the documentation's snippets, built and run by .ci/run; not
        // products, so packages depending on this one never see them.
        .executableTarget(name: "MLKitLabelingExample", dependencies: ["MLKit"], path: "Examples/MLKitLabeling"),
        .executableTarget(name: "MLKitAutoMLLabelingExample", dependencies: ["MLKit"], path: "Examples/MLKitAutoMLLabeling"),
        .executableTarget(name: "MLKitRemoteLabelingExample", dependencies: ["MLKit"], path: "Examples/MLKitRemoteLabeling"),
        .executableTarget(name: "MLKitModelInterpreterExample", dependencies: ["MLKit", "Imaging"], path: "Examples/MLKitModelInterpreter",
                          exclude: ["labels.txt"]),
        .executableTarget(name: "TFLiteObjectDetectionExample", dependencies: ["TensorFlowLite", "Imaging"], path: "Examples/TFLiteObjectDetection"),
        // MediaPipe's custom operators, written with the custom-operator API (not in the
        // runtime's own registry), and a program running the model that needs them.
        .target(name: "MediaPipeOps", dependencies: ["TFLiteRuntime", "FlatBuffers"], path: "Examples/MediaPipeOps"),
        .executableTarget(name: "FaceLandmarksWithAttentionExample", dependencies: ["MediaPipeOps", "TFLiteRuntime", "Imaging"],
                          path: "Examples/FaceLandmarksWithAttention"),
        .executableTarget(name: "CustomOperatorExample", dependencies: ["MediaPipeOps", "TFLiteRuntime", "FlatBuffers", "Imaging"],
                          path: "Examples/CustomOperator"),
        .executableTarget(name: "FacesAndSegmentationExample", dependencies: ["TFLiteTasks", "Imaging"], path: "Examples/FacesAndSegmentation"),
        .executableTarget(name: "TasksExample", dependencies: ["TFLiteTasks", "Imaging"], path: "Examples/Tasks"),
        .executableTarget(name: "RunAnyModelExample", dependencies: ["TFLiteRuntime"], path: "Examples/RunAnyModel"),
        .executableTarget(name: "RemoteModelsExample", dependencies: ["TFLiteTasks"], path: "Examples/RemoteModels"),
        .executableTarget(name: "ImagingBasicsExample", dependencies: ["Imaging"], path: "Examples/ImagingBasics"),
        .executableTarget(name: "TensorFlowLiteClassifierExample", dependencies: ["TensorFlowLite"], path: "Examples/TensorFlowLiteClassifier"),
        .executableTarget(name: "LowLevelExample", dependencies: ["FlatBuffers", "Kernels", "KernelSelection"], path: "Examples/LowLevel"),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FlatBuffersTests", dependencies: ["FlatBuffers", "TestSupport"]),
        .testTarget(name: "KernelsTests", dependencies: ["Kernels", "KernelSelection", "TestSupport"]),
        .testTarget(name: "TFLiteRuntimeTests", dependencies: ["TFLiteRuntime", "Kernels", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TFLiteRuntime", "TestSupport"]),
        .testTarget(name: "TFLiteTasksTests", dependencies: ["TFLiteTasks", "MLKit", "TestSupport"]),
        .testTarget(name: "TensorFlowLiteTests", dependencies: ["TensorFlowLite", "TestSupport"]),
        .testTarget(name: "MLKitTests", dependencies: ["MLKit", "TestSupport"]),
        .testTarget(name: "MediaPipeOpsTests", dependencies: ["MediaPipeOps", "TFLiteRuntime", "Imaging", "TestSupport"]),
        .testTarget(name: "ConformanceTests", dependencies: ["TFLiteRuntime", "TFLiteTasks", "TestSupport"]),
    ]
)
