/// How `Image.resized(width:height:method:)` computes output pixels.
///
/// All methods use half-pixel centres: output pixel `x` (of `outW`) is centred at input
/// coordinate `(x + 0.5) * inW / outW`, where input pixel `i` covers `[i, i + 1)` and is
/// centred at `i + 0.5` (TensorFlow's `half_pixel_centers = true`, Pillow's convention).
public enum ResizeMethod: Sendable, Equatable, CaseIterable {
    /// The input pixel containing the output pixel's centre:
    /// `min(floor((x + 0.5) * inW / outW), inW - 1)`.
    case nearest
    /// Interpolation between the 2x2 input pixels around the output centre, with no
    /// antialiasing (TensorFlow's `resize_bilinear` with `half_pixel_centers`): sample at
    /// `(x + 0.5) * scale - 0.5`, clamped to the image, then rounded to the nearest value.
    case bilinear
    /// Pillow's `Image.resize(size, Image.BILINEAR)` reproduced exactly for 8-bit gray and
    /// RGB images: a triangle filter whose support grows with the downscale factor
    /// (antialiasing), 22-bit fixed-point weights, a horizontal then a vertical pass with
    /// the intermediate rounded to 8 bits. Alpha is resized like any other channel (Pillow
    /// premultiplies it), and 16-bit images run the same arithmetic at 16 bits.
    case pillowBilinear
}
