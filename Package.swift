// swift-tools-version:6.0
// A pure-Swift TensorFlow Lite runtime: no C targets, no package dependencies.
import PackageDescription

let package = Package(
    name: "SwiftTFLite",
    // The thread pool hands jobs to its workers through the Synchronization module's atomics.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "FlatBuffers", targets: ["FlatBuffers"]),
        .library(name: "Kernels", targets: ["Kernels"]),
        .library(name: "TFLiteRuntime", targets: ["TFLiteRuntime"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "TFLiteTasks", targets: ["TFLiteTasks"]),
        .executable(name: "tflite", targets: ["TFLiteCLI"]),
    ],
    targets: [
        // Core modules: standard library and the platform C library only.
        .target(name: "FlatBuffers"),
        .target(name: "Kernels"),
        .target(name: "TFLiteRuntime", dependencies: ["FlatBuffers", "Kernels"]),
        .target(name: "Imaging"),
        // Foundation is allowed from here up.
        .target(name: "TFLiteTasks", dependencies: ["TFLiteRuntime", "Imaging"]),
        .executableTarget(name: "TFLiteCLI", dependencies: ["TFLiteTasks", "TFLiteRuntime", "Imaging"]),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FlatBuffersTests", dependencies: ["FlatBuffers", "TestSupport"]),
        .testTarget(name: "KernelsTests", dependencies: ["Kernels", "TestSupport"]),
        .testTarget(name: "TFLiteRuntimeTests", dependencies: ["TFLiteRuntime", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TFLiteRuntime", "TestSupport"]),
        .testTarget(name: "TFLiteTasksTests", dependencies: ["TFLiteTasks", "TestSupport"]),
        .testTarget(name: "ConformanceTests", dependencies: ["TFLiteRuntime", "TFLiteTasks", "TestSupport"]),
    ]
)
