#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// The encoder of the options' GIF: `colors`, `dither` and `loop`.
    public var gifEncoder: GIFEncoder {
        GIFEncoder(colors: options.colors, dither: options.dither, loop: options.loop)
    }

    /// Encodes every frame with `encoder` on `sink`; `name` is used in errors, `progress`
    /// gets (frames done, total).
    public func write(with encoder: any AnimationEncoder, to sink: any ByteSink, name: String,
                      progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        try encoder.encode(plan(), to: sink, name: name, progress: progress)
    }

    /// The looping GIF as bytes: ``data(format:)`` with `.gif`, so WebP's `quality` and
    /// `lossless` are refused here too.
    public func gifData() throws(CarouselError) -> Data {
        try data(format: .gif)
    }

    /// Writes the looping GIF to `path` atomically (a temporary file beside it, renamed into
    /// place): ``write(toFile:format:progress:)`` with `.gif`. A `path` of `-` is standard
    /// output.
    public func writeGIF(toFile path: String, progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        try write(toFile: path, format: .gif, progress: progress)
    }

    /// Writes every frame as PNG and `frames.json` into the folder `path`, atomically: built
    /// beside it and swapped in. An existing folder is replaced only when it is empty or
    /// holds a previous frames output.
    public func writeFrames(toFolder path: String, progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        try AtomicOutput.writeFolder(at: path, isReplaceable: FramesFolder.isOwnFile) { folder throws(CarouselError) in
            try FramesFolder.write(self, to: folder, name: path, progress: progress)
        }
    }

    /// Every frame in order, made as they are read (a frame is a crop of the strip).
    public var frames: LazyMapSequence<Range<Int>, RGBAImage> {
        (0..<frameCount).lazy.map { frame(index: $0) }
    }

    /// Every frame's description, as `frames.json` lists them.
    public var frameInfos: [FrameInfo] {
        (0..<frameCount).map { info(index: $0) }
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
