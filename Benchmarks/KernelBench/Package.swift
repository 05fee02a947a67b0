// swift-tools-version:6.2
// Micro-benchmarks of single kernels (the float GEMM, the depthwise convolution and the int8
// pointwise convolution) on the shapes of real layers, apart from the runtime: see
// Benchmarks/README.md. A package of its own, so the main package's build and tests never
// compile it.
import PackageDescription

let package = Package(
    name: "KernelBench",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftTFLite", path: "../..")],
    targets: [
        .executableTarget(name: "kernelbench", dependencies: [.product(name: "Kernels", package: "SwiftTFLite")]),
    ]
)
