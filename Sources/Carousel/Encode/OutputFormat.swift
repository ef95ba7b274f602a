/// The animated formats `render` writes (spec section 5b).
public enum OutputFormat: String, CaseIterable, Sendable, Codable {
    /// GIF89a: every viewer plays it; 256 colours a frame, centisecond delays.
    case gif
    /// Animated WebP: full colour, lossy or lossless, millisecond delays; GitHub shows it in READMEs.
    case webp
    /// Animated PNG: lossless, exact delays; browsers play it.
    case apng

    /// The format an output file's extension names (`.png` is APNG for `render`), or `nil`.
    public init?(extensionOf path: String) {
        self.init(fileExtension: OutputFormat.fileExtension(path))
    }

    /// The format an extension (lowercased) names, or `nil`.
    private init?(fileExtension: String?) {
        switch fileExtension {
        case "gif": self = .gif
        case "webp": self = .webp
        case "apng", "png": self = .apng
        default: return nil
        }
    }

    /// The format `render` writes to `path`: its extension's, or GIF, the default (spec 5b),
    /// when its name has none (`/dev/stdout`, a FIFO, `banner`); `nil` for an extension no
    /// format has (`.bmp`), which is more likely a mistake than a wish for a GIF.
    public init?(path: String) {
        guard let fileExtension = OutputFormat.fileExtension(path) else {
            self = .gif
            return
        }
        self.init(fileExtension: fileExtension)
    }

    /// The extension of `path`'s name, lowercased: what follows its last dot, unless that
    /// dot begins the name (`.gif` is a hidden file's whole name) or ends it (`..`, `banner.`);
    /// nil when there is none.
    package static func fileExtension(_ path: String) -> String? {
        let name = Paths.split(path).name
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Carousel {
    /// The encoder for `format` with the options' loop, palette and quality settings.
    ///
    /// Throws ``CarouselError/invalidOption(key:reason:)`` for settings the format does not
    /// have (`quality` or `lossless` with a GIF or APNG) and for a size or a number of plays
    /// it cannot hold: a size too large is the ``OptionKey/dots`` key's where only the dots'
    /// footer takes the output past the format's limit, and the ``OptionKey/size`` key's
    /// otherwise.
    public func encoder(for format: OutputFormat) throws(CarouselError) -> any AnimationEncoder {
        if format != .webp {
            if options.lossless { throw .invalidOption(key: .lossless, reason: "applies to WebP only, not \(format.rawValue)") }
            if options.quality != nil { throw .invalidOption(key: .quality, reason: "applies to WebP only, not \(format.rawValue)") }
        }
        if let refusal = options.sizeRefusal(format, width: width, height: height) { throw refusal }
        switch format {
        case .gif:
            return gifEncoder
        case .webp:
            if options.lossless, options.quality != nil {
                throw .invalidOption(key: .quality, reason: "give either quality or lossless, not both")
            }
            if let reason = WebPEncoder.problem(with: options.loop) { throw .invalidOption(key: .loop, reason: reason) }
            return WebPEncoder(quality: options.quality ?? WebPEncoder.defaultQuality, lossless: options.lossless, loop: options.loop)
        case .apng:
            return APNGEncoder(loop: options.loop)
        }
    }


    /// The animation in `format`, as bytes.
    public func data(format: OutputFormat) throws(CarouselError) -> Data {
        let sink = MemorySink()
        try write(with: encoder(for: format), to: sink, name: "<memory>")
        return sink.data
    }

    /// Writes the animation in `format` to `path` atomically. Without `format`, the options'
    /// ``CarouselOptions/format`` is taken, as `render --format` is; without either, the
    /// format the extension names (GIF when the name has none). A `path` of `-` is standard
    /// output, as on the command line, and takes a GIF when no format is named (where the
    /// command line asks for `--format`). An empty `path` is refused.
    public func write(toFile path: String, format: OutputFormat? = nil,
                      progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        guard let format = format ?? options.format ?? OutputFormat(path: path) else {
            throw .output(path, "unknown extension; use .gif, .webp, .apng or .png, or name the format")
        }
        let encoder = try encoder(for: format)
        try AtomicOutput.write(to: path) { sink throws(CarouselError) in
            try write(with: encoder, to: sink, name: path, progress: progress)
        }
    }
}

extension CarouselOptions {
    /// Why an output of `width x height` (the viewport and the dots' footer) cannot be
    /// `format`, or nil when it fits (an APNG always does here). The dots' footer is named
    /// where the viewport alone would fit (a GIF's viewport always does: the options hold it
    /// to 65535); otherwise the size, saying so where the viewport took the first image's
    /// size because none was given.
    func sizeRefusal(_ format: OutputFormat, width: Int, height: Int) -> CarouselError? {
        let (name, limit) = switch format {
        case .gif: ("a GIF", GIFWriter.maximumDimension)
        case .webp: ("a WebP", WebPEncoder.maximumDimension)
        case .apng: ("an APNG", Int.max)
        }
        guard width > limit || height > limit else { return nil }
        if width <= limit, height - dots.extraHeight <= limit {
            return .invalidOption(key: .dots, reason: "\(name) is at most \(limit) pixels each way, and the footer's "
                                  + "\(dots.extraHeight) rows make the output \(width)x\(height)")
        }
        return .invalidOption(key: .size, reason: "\(name) is at most \(limit) pixels each way; the output would be "
                              + "\(width)x\(height)" + (size == nil ? " (the viewport is the first image's size)" : ""))
    }

    /// ``Carousel/encoder(for:)``'s refusal of a size `format` cannot hold, said before any
    /// picture is read where ``size`` gives the viewport: `render --size 65535x500 -o x.webp`
    /// read and laid out its pictures first, 2.0 s and 1.5 GB, to say the same. Nil when the
    /// output fits, or when the viewport is the first image's size, which the render checks.
    package func sizeRefusal(_ format: OutputFormat) -> CarouselError? {
        guard let size else { return nil }
        return sizeRefusal(format, width: size.width, height: size.height + dots.extraHeight)
    }
}
