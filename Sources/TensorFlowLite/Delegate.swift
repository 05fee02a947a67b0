/// A hardware accelerator an ``Interpreter`` could hand parts of the graph to.
///
/// This runtime has no accelerator back end: every operator runs on its own CPU kernels
/// (SIMD, multi-threaded), so delegates passed to an interpreter are kept in
/// ``Interpreter/delegates`` and otherwise ignored, as LiteRT does with the operators a
/// delegate declines. The protocol exists so that code written for TensorFlowLiteSwift
/// compiles; there are no Metal or Core ML delegates to conform.
public protocol Delegate: AnyObject {}
