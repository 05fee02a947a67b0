/// The container formats the decoder recognises.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    case pnm = "PNM"
}
