import Testing
@testable import TFLiteRuntime

@Suite struct DataTypeTests {
    /// The one list behind `DataType(_:)`, `schemaType` and `name` covers every schema type
    /// once, in code order.
    @Test func everySchemaTypeMapsToOneTypeAndBack() {
        #expect(DataType.allCases.count == Schema.TensorType.allCases.count)
        for code in Schema.TensorType.allCases {
            let type = DataType(code)
            #expect(type.schemaType == code, "\(code)")
            #expect(type.name == code.name)
        }
        #expect(Set(Schema.TensorType.allCases.map(DataType.init)).count == DataType.allCases.count)
        #expect(DataType.int8.name == "INT8" && DataType.bFloat16.name == "BFLOAT16")
    }
}
