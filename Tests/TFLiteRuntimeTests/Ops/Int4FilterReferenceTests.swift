import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// The op-zoo models with int4 convolution and FULLY_CONNECTED filters through the reference
/// kernels (the op-zoo suite runs the optimised ones): the widened filter must give LiteRT's
/// outputs there too.
@Suite struct Int4FilterReferenceTests {
    @Test(arguments: [
        "opzoo_conv2d_int4_filter", "opzoo_conv2d_int4_filter_stride2_relu", "opzoo_conv2d_hybrid_int4_filter",
        "opzoo_depthwise_conv2d_int4_filter", "opzoo_depthwise_conv2d_int4_filter_valid",
        "opzoo_fc_int8_int4_per_channel", "opzoo_fc_int8_int4_per_tensor_relu",
    ])
    func referenceKernelsGiveLiteRTsOutputs(_ name: String) throws {
        let folder = Fixtures.opZoo.appendingPathComponent("cases/\(name)")
        var options = Interpreter.Options(threadCount: 1)
        options.useReferenceKernels = true
        let interpreter = try Interpreter(modelPath: Fixtures.opZoo.appendingPathComponent("models/\(name).tflite").path, options: options)
        try interpreter.allocateTensors()
        try interpreter.copy(NPYArray(contentsOf: folder.appendingPathComponent("in0.npy").path).data, toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        let golden = try NPYArray(contentsOf: folder.appendingPathComponent("out0.npy").path)
        #expect(output.shape == golden.shape)
        if output.dataType == .float32 {
            for (ours, theirs) in zip(output.values(as: Float.self), golden.values(as: Float.self)) {
                #expect(abs(ours - theirs) <= 1e-5 * max(1, abs(theirs)))
            }
        } else {
            #expect(output.data == golden.data)
        }
    }
}
