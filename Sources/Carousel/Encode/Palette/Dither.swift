/// How colours between palette entries are approximated when a frame needs more than its palette.
public enum Dither: String, CaseIterable, Codable, Sendable {
    /// Nearest palette colour, no pattern.
    case none
    /// A 2x2 Bayer pattern over four palette entries whose mean approximates each colour,
    /// fixed to the content: colours the palette holds exactly stay clean. The GIF encoder
    /// leaves pixels at edges and in texture undithered, at their nearest entry, and lays the
    /// four entries out one a row in moving frames, where they lie close together. The default
    /// of ``CarouselOptions`` and ``GIFEncoder`` (a ``Quantizer`` made alone takes `none`).
    case ordered
    /// Floyd–Steinberg error diffusion, serpentine scan.
    case diffusion
}


extension Dither {
    /// How colours are compared with this dithering: as the eye compares them when a
    /// pattern or diffusion spreads the error, in plain RGB for the compact encoding.
    public var weights: ChannelWeights { self == .none ? .rgb : .perceptual }

    /// Where colours are compared: in Oklab for the ordered pattern, whose four entries
    /// are chosen and whose error is carried there (see ``ColorSpace``); in RGB otherwise.
    public var space: ColorSpace { self == .ordered ? .oklab : .rgb }
}
