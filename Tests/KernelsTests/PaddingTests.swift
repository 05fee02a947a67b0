import Testing
import Kernels

@Suite struct PaddingTests {
    @Test func sameOutputIsCeilOfInputOverStride() {
        #expect(PaddingScheme.same.outputSize(input: 224, filter: 3, stride: 2) == 112)
        #expect(PaddingScheme.same.outputSize(input: 7, filter: 3, stride: 2) == 4)
    }

    @Test func validOutputAccountsForDilation() {
        #expect(PaddingScheme.valid.outputSize(input: 10, filter: 3, stride: 1) == 8)
        #expect(PaddingScheme.valid.outputSize(input: 10, filter: 3, stride: 1, dilation: 2) == 6)
        #expect(PaddingScheme.valid.outputSize(input: 2, filter: 3, stride: 1) == nil)
    }

    @Test func samePaddingPutsTheOddElementAfter() {
        // 224 -> 112 with a 3x3 stride-2 window needs one pad element, placed after.
        let p = PaddingScheme.same.padding(input: 224, filter: 3, stride: 2, output: 112)
        #expect(p == AxisPadding(before: 0, after: 1))
        let q = PaddingScheme.same.padding(input: 5, filter: 5, stride: 1, output: 5)
        #expect(q == AxisPadding(before: 2, after: 2))
    }
}
