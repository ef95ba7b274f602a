import Foundation

extension Carousel {
    /// Loads the PNG files at `urls` and lays them out with `options`.
    ///
    /// Errors name the file: `CarouselError.image(.invalid(file:reason:))` and the like.
    public init(contentsOf urls: [URL], options: CarouselOptions = CarouselOptions()) throws(CarouselError) {
        try self.init(images: ImageInputs.load(urls), options: options)
    }

    /// Loads PNG files and folders (a folder gives its `*.png` in natural order), as the command line does.
    public init(paths: [String], options: CarouselOptions = CarouselOptions()) throws(CarouselError) {
        try self.init(contentsOf: ImageInputs.resolve(paths), options: options)
    }

    /// The looping GIF as bytes.
    public func gifData() throws(CarouselError) -> Data {
        let sink = MemorySink()
        try writeGIF(to: sink, name: "<memory>")
        return sink.data
    }

    /// Writes the looping GIF to `path` atomically (a temporary file beside it, renamed into place).
    public func writeGIF(toFile path: String, progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        try AtomicOutput.write(to: path) { sink throws(CarouselError) in
            try writeGIF(to: sink, name: path, progress: progress)
        }
    }

    /// The frame shown at `seconds` (frame `floor(seconds * fps)`), exactly as the GIF shows it
    /// before palette reduction; throws when `seconds` is outside the timeline.
    public func frame(at seconds: Double) throws(CarouselError) -> RGBAImage {
        frame(try frameIndex(at: seconds))
    }

    /// Every frame in order, made as they are read (a frame is a crop of the strip).
    public var frames: LazyMapSequence<Range<Int>, RGBAImage> {
        (0..<frameCount).lazy.map { frame($0) }
    }

    /// Every frame's description, as `frames.json` lists them.
    public var frameInfos: [FrameInfo] {
        (0..<frameCount).map(info)
    }
}

extension RGBAImage {
    /// This image as an 8-bit RGBA PNG.
    public func pngData() throws(CarouselError) -> Data {
        do {
            return try PNGCodec.encode(self)
        } catch {
            throw .image(error)
        }
    }
}

extension CarouselOptions {
    /// The options a `--config FILE.json` gives, over the defaults.
    public init(configFile path: String) throws(CarouselError) {
        self.init()
        try ConfigFile(path: path).apply(to: &self)
    }
}
