import Imaging
import TFLiteRuntime

/// How an image becomes the bytes of a model's image input `[1, height, width, channels]`.
///
/// The displayed (oriented) image is converted to RGB, optionally cut to its centred
/// square, and resized to the input size with Imaging's Pillow-compatible bilinear filter
/// (`ResizeMethod.pillowBilinear`; gray inputs take Pillow's luma conversion) (ML Kit
/// scales the whole image to the model input; that is the default here too). With
/// ``mediaPipeFit`` set, the image is mapped into the input as MediaPipe's
/// `ImageToTensorCalculator` maps it instead (stretched or letterboxed, sampled with OpenCV's
/// bilinear warp as MediaPipe samples it), for models whose results are meant to match MediaPipe's. Values then
/// follow the input type, as the TFLite Task Library does: uint8 inputs take the raw pixels
/// and int8 inputs `pixel - 128` (quantised models expect the raw range; metadata
/// normalisation describes their float twin); float inputs take `(pixel - mean) / std` with
/// the metadata's normalisation, or `pixel / 255` (the [0, 1] convention) without it.
public struct ImagePreprocessor: Sendable {
    /// Input height and width.
    public let height: Int, width: Int
    /// Input channels: 3 (RGB) or 1 (gray, the mean of R, G, B).
    public let channels: Int
    /// The input tensor's type.
    public let dataType: DataType
    /// The input's quantisation, for integer inputs.
    public let quantization: QuantizationParameters?
    /// Normalisation from the metadata, if any.
    public let normalization: Normalization?
    /// Cut the image to its centred square before resizing.
    public var cropsToSquare: Bool
    /// Map the image into the input as MediaPipe does (``cropsToSquare`` is then ignored);
    /// nil: resize it with the Pillow-style filter.
    public var mediaPipeFit: MediaPipeFit?

    /// Reads the input's layout from `tensor`; throws unless it is `[1, H, W, 1 or 3]` of a
    /// supported type.
    public init(tensor: Tensor, normalization: Normalization?, cropsToSquare: Bool = false) throws(TaskError) {
        let s = tensor.shape
        guard s.count == 4, s[0] == 1, s[1] > 0, s[2] > 0, s[3] == 3 || s[3] == 1 else {
            throw .unsupportedModel("input '\(tensor.name)' has shape \(s); an image input must be [1, height, width, 3 or 1]")
        }
        guard [.uInt8, .int8, .float32].contains(tensor.dataType) else {
            throw .unsupportedModel("input '\(tensor.name)' has type \(tensor.dataType); image inputs must be UINT8, INT8 or FLOAT32")
        }
        if let n = normalization {
            guard !n.mean.isEmpty, !n.std.isEmpty, n.std.allSatisfy({ $0 != 0 }),
                  [1, s[3]].contains(n.mean.count), [1, s[3]].contains(n.std.count) else {
                throw .unsupportedModel("input '\(tensor.name)': metadata normalisation mean \(n.mean) / std \(n.std) does not fit \(s[3]) channels")
            }
        }
        height = s[1]
        width = s[2]
        channels = s[3]
        dataType = tensor.dataType
        quantization = tensor.quantizationParameters
        self.normalization = normalization
        self.cropsToSquare = cropsToSquare
    }

    /// The resized 8-bit pixels (`height x width x channels`) for `image`.
    public func pixels(for image: VisionImage) throws(TaskError) -> [UInt8] {
        var rgb = image.orientedRGB()
        if cropsToSquare && mediaPipeFit == nil { rgb = rgb.centerSquareCropped() }
        do {
            var resized: Image
            switch mediaPipeFit {
            case nil:
                resized = try rgb.resized(width: width, height: height, method: .pillowBilinear)
            case .stretch?:
                resized = try MediaPipeResampler.warp(rgb, roiX: 0, roiY: 0, roiWidth: Double(rgb.width), roiHeight: Double(rgb.height),
                                                      outWidth: width, outHeight: height)
            case .letterbox?:
                let box = letterbox(forWidth: rgb.width, height: rgb.height)
                resized = try MediaPipeResampler.warp(rgb, roiX: box.roiX, roiY: box.roiY, roiWidth: box.roiWidth, roiHeight: box.roiHeight,
                                                      outWidth: width, outHeight: height)
            }
            if channels == 1 { resized = resized.converted(to: .gray) }
            return resized.pixels8 ?? []
        } catch {
            throw .invalidImage("cannot resize the \(rgb.width)x\(rgb.height) image to \(width)x\(height): \(error)")
        }
    }

    /// Where an image of this size lands in the input with ``MediaPipeFit/letterbox``.
    public func letterbox(forWidth imageWidth: Int, height imageHeight: Int) -> Letterbox {
        Letterbox(imageWidth: imageWidth, imageHeight: imageHeight, inputWidth: width, inputHeight: height)
    }

    /// The input tensor's bytes for `image`.
    public func tensorBytes(for image: VisionImage) throws(TaskError) -> [UInt8] {
        let p = try pixels(for: image)
        switch dataType {
        case .float32:
            var out = [UInt8]()
            out.reserveCapacity(p.count * 4)
            for i in p.indices {
                var v = Float(p[i])
                if let n = normalization {
                    let c = i % channels
                    v = (v - n.mean[n.mean.count == 1 ? 0 : c]) / n.std[n.std.count == 1 ? 0 : c]
                } else {
                    v /= 255
                }
                withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) }
            }
            return out
        case .int8:
            return p.map { UInt8(bitPattern: Int8(Int($0) - 128)) }
        default:
            return p
        }
    }
}
