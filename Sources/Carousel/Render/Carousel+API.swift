#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Carousel {
    /// Loads the PNG files at `urls` and lays them out with `options`.
    ///
    /// Errors name the file: `CarouselError.image(.invalid(file:reason:))` and the like; the
    /// first file in order that cannot be read is named before any option is refused.
    ///
    /// The first file's header gives the viewport's size where `options` gives none; every
    /// picture is then decoded, fitted to its item and dropped, a core's worth at a time, so
    /// the decoded pictures are never all held at once: six pictures of 4032x3024 rendered at
    /// 393x852 peak at 156 MiB, where decoding them all first took 327 MiB
    /// (`bench/large-inputs.py`).
    public init(contentsOf urls: [URL], options: CarouselOptions = CarouselOptions()) throws(CarouselError) {
        guard let firstURL = urls.first else {
            try self.init(images: [], options: options)
            return
        }
        let firstData: Data, firstSize: (width: Int, height: Int)
        do throws(PNGError) {
            firstData = try PNGCodec.contents(of: firstURL)
            firstSize = try PNGCodec.size(of: firstData, name: firstURL.relativePath)
        } catch {
            throw .image(error)
        }
        let image: @Sendable (Int) -> Result<RGBAImage, CarouselError> = { k in
            Result { () throws(CarouselError) in
                do throws(PNGError) {
                    return k == 0 ? try PNGCodec.decode(firstData, name: firstURL.relativePath) : try PNGCodec.decode(contentsOf: urls[k])
                } catch {
                    throw .image(error)
                }
            }
        }
        try self.init(count: urls.count, firstSize: firstSize, options: options, imageFailure: { () throws(CarouselError) in
            // Every picture decoded and dropped at once, for the first that fails.
            for result in Array(0..<urls.count).parallelMap({ k in image(k).map { _ in () } }) { try result.get() }
        }, image: image)
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
    /// holds a previous frames output. An empty `path` and `-` are refused, as the command
    /// line refuses them.
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
