import CLibWebP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Animated WebP through libwebp's `WebPAnimEncoder` (spec section 5b): lossy at
/// ``quality`` with sharp RGB-to-YUV conversion, or lossless.
///
/// Frame timestamps are milliseconds by cumulative rounding (`round(1000 i / fps)` for
/// timeline frame i), so the whole animation lasts what the timeline does; identical
/// consecutive frames are already merged in the plan. The loop count means what
/// `--loop` means in every format: `forever` is WebP's 0, N plays is N.
///
/// A lossy frame after the first is a key frame: it covers the canvas and replaces it. As a
/// sub-frame, libwebp writes the rectangle that changed, with the 8x8 blocks similar to the
/// frame before made transparent to show the canvas through, blended with the loop filter
/// off; lossy coding of such a rectangle left thin lines of wrong colour where the
/// rectangle's edge had passed, and the frames after, whose pixels there had not changed,
/// kept them. A picture with horizontal bands beside another that slides in showed them for
/// the whole rest (docs/behaviour.md, *WebP key frames*). Lossless frames blend as before:
/// exact pixels leave nothing behind.
///
/// Where a frame shows a pixel that is not opaque, the file says it has alpha (the `VP8X`
/// chunk's alpha flag). libwebp derives that flag from the frames it writes, and it writes
/// the first frame as the rectangle of its pixels that are not transparent: a render of one
/// frame whose transparent pixels lie at the canvas's edges (a letterboxed page, or one page
/// and an empty footer, on a transparent background) could come out without the flag, and
/// Pillow, which trusts it, showed those pixels opaque black. The canvas those edges leave
/// uncovered is transparent, and on a background that is not opaque the animation's
/// background colour, a hint a viewer may paint there, says so (libwebp's default is
/// opaque white).
///
/// An animation is made in parts, each by its own `WebPAnimEncoder`, whose frame chunks are
/// joined into one file: libwebp's assembly of one animation takes time in the square of its
/// frames, and it keeps every frame it encoded until then. A part holds at most 1024 frames
/// and 2^24 pixels of them (72 frames at 640x360), and at least 16 frames. A part starts at
/// an opaque frame, which libwebp writes whole, so every frame shows as it would in one
/// part. Written to a file, each part's frames go to it as the part is assembled, and the
/// RIFF size is set at the end; on standard output they wait for it.
public struct WebPEncoder: AnimationEncoder {
    /// Lossy quality, 0...100; a value past either end is taken as that end, and NaN as 0,
    /// here and in ``init(quality:lossless:loop:)``.
    public var quality: Double {
        didSet { quality = WebPEncoder.clamped(quality) }
    }
    /// Lossless instead of lossy.
    public var lossless: Bool
    /// How many times the animation plays.
    public var loop: LoopMode

    /// The most plays a WebP's loop count (16 bits; 0 is endless) can say: one fewer than a GIF's.
    public static let maximumPlays = 65535

    /// Why a WebP cannot play `loop` times, or nil when it can.
    static func problem(with loop: LoopMode) -> String? {
        guard let plays = loop.plays, plays > maximumPlays else { return nil }
        return "a WebP plays at most \(maximumPlays) times (its loop count is 16 bits), got \(plays)"
    }

    /// The default quality: the sample banners score SSIMULACRA2 >= 85 on average at it.
    public static let defaultQuality = 97.0

    /// An encoder with the given quality, mode and loop.
    public init(quality: Double = WebPEncoder.defaultQuality, lossless: Bool = false, loop: LoopMode = .forever) {
        self.quality = WebPEncoder.clamped(quality)
        self.lossless = lossless
        self.loop = loop
    }

    static func clamped(_ quality: Double) -> Double { quality.isNaN ? 0 : min(100, max(0, quality)) }

    /// The largest width and height a WebP holds.
    public static let maximumDimension = 16383

    /// Encodes `plan` as an animated WebP on `sink`.
    public func encode(_ plan: FramePlan, to sink: any ByteSink, name: String,
                       progress: (Int, Int) -> Void) throws(CarouselError) {
        _ = try encodeReporting(plan, to: sink, name: name, progress: progress)
    }

    /// Encodes `plan` as ``encode(_:to:name:progress:)`` does, and says how many parts it took.
    func encodeReporting(_ plan: FramePlan, to sink: any ByteSink, name: String,
                         progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) -> PartsReport {
        guard plan.width <= WebPEncoder.maximumDimension, plan.height <= WebPEncoder.maximumDimension else {
            throw .output(name, "a WebP is at most \(WebPEncoder.maximumDimension) pixels each way; this one would be \(plan.width)x\(plan.height)")
        }
        if let reason = WebPEncoder.problem(with: loop) { throw .output(name, reason) }
        var options = WebPAnimEncoderOptions()
        guard carousel_webp_anim_encoder_options_init(&options) != 0 else { throw .output(name, "libwebp: version mismatch") }
        options.anim_params.loop_count = Int32(loop.plays ?? 0)
        if plan.background.a < 255 { options.anim_params.bgcolor = 0 }
        options.allow_mixed = 0
        // Lossy: every frame a key frame (libwebp's kmax 1), whole and not blended over the one
        // before. Lossless: frames blend over the canvas, which is exact there.
        options.kmin = 0
        options.kmax = lossless ? 0 : 1
        var config = WebPConfig()
        guard carousel_webp_config_init(&config) != 0 else { throw .output(name, "libwebp: version mismatch") }
        config.lossless = lossless ? 1 : 0
        // Lossless keeps every pixel's colour, a fully transparent one's too (libwebp would
        // otherwise change what no one sees, and the file would not give back the frames).
        // Only a background with alpha lets a frame have such pixels: on an opaque one, the
        // setting would keep the colours under the transparent pixels libwebp writes for what
        // did not change, 4.5% more bytes for the sample banners, the same pixels decoded.
        config.exact = lossless && plan.background.a < 255 ? 1 : 0
        config.quality = Float(lossless ? 75 : quality)
        config.method = 4
        config.use_sharp_yuv = 1
        return try encodeParts(plan, options: options, config: config, to: sink, name: name, progress: progress)
    }

    /// Frames given to one of libwebp's animation encoders before its part of the file is
    /// assembled, at most. libwebp's mux walks its list of frames to the end for every frame
    /// it adds, so one assembly takes time in the square of its frames: 120,000 distinct
    /// frames took 188 s in one part.
    static let defaultFramesPerPart = 1024

    /// The pixels of a part's frames, at most, where that leaves a part
    /// ``leastFramesPerPart`` frames or more: libwebp keeps a part's encoded frames until it
    /// assembles them, and the assembled part beside them, so a part of large frames takes
    /// fewer of them (72 at 640x360).
    static let defaultPixelsPerPart = 1 << 24

    /// The fewest frames the pixel limit leaves a part.
    static let leastFramesPerPart = 16

    /// Frames in a part, at most (``defaultFramesPerPart``; tests make it small).
    var framesPerPart = WebPEncoder.defaultFramesPerPart

    /// The pixels of a part's frames, at most (``defaultPixelsPerPart``; tests make it small).
    var pixelsPerPart = WebPEncoder.defaultPixelsPerPart

    /// The bytes of frame chunks that wait in memory for the file's size, on an output that
    /// cannot be written over (standard output, a pipe); past them they wait in a temporary
    /// file (tests make it small).
    var heldInMemory = 4 << 20

    /// How many frames of `width` by `height` a part takes.
    func partFrames(width: Int, height: Int) -> Int {
        min(framesPerPart, max(WebPEncoder.leastFramesPerPart, pixelsPerPart / max(1, width * height)))
    }

    /// What an encoding did that its bytes do not show (for tests): the parts libwebp
    /// assembled, and how many of them it wrote as a still image.
    struct PartsReport: Equatable {
        var parts = 0
        var stillParts = 0
        /// Whether frame chunks waited in a temporary file.
        var spilled = false
    }

    /// Encodes the animation in parts of at most ``partFrames(width:height:)`` frames, one
    /// libwebp encoder each, joined as each is assembled (``PartJoiner``); a file of one part is
    /// written as libwebp assembled it, unless libwebp made it a still image. A part after
    /// the first starts at an opaque frame with another after it: libwebp writes a file's
    /// first frame as the rectangle of its pixels that are not transparent, which for an
    /// opaque one is the whole canvas, replacing everything the parts before left; lossy
    /// frames are all key frames, whole, in any part.
    private func encodeParts(_ plan: FramePlan, options: WebPAnimEncoderOptions, config: WebPConfig, to sink: any ByteSink,
                     name: String, progress: (Int, Int) -> Void) throws(CarouselError) -> PartsReport {
        var config = config
        var report = PartsReport()
        var translucent = false
        var joiner: PartJoiner?
        // Hands on a part, the frames from plan frame `first` until `end` milliseconds;
        // `last` where no frame follows it.
        func deliver(_ part: AssembledPart, first: Int, end: Int, last: Bool) throws(CarouselError) {
            report.parts += 1
            let animation = WebPEncoder.animation(part.bytes)
            // A file of one part is written as libwebp assembled it, where that is an
            // animation; a still image (one distinct frame) goes through the joiner, so the
            // file keeps its loop count and its length as a GIF or an APNG of it does.
            if joiner == nil && last && animation != nil {
                try WebPEncoder.write(part.bytes, translucent: translucent, to: sink)
                return
            }
            if joiner == nil {
                joiner = PartJoiner(sink: sink, width: plan.width, height: plan.height, options: options,
                                    memoryLimit: heldInMemory, name: name)
            }
            if let animation {
                try joiner!.add(animation, of: part.bytes)
            } else {
                // libwebp writes a part of one frame (every frame after the part's first
                // within its lossy tolerance of the one before) as a still image, made from
                // that frame decoded; the part's first frame is encoded again, as libwebp
                // encodes a key frame, to be that part's one frame chunk.
                report.stillParts += 1
                let source = plan.frames[first].source
                let start = WebPEncoder.milliseconds(source, fps: plan.fps)
                let still = try WebPEncoder.still(plan.picture(source), frame: source, config: &config, name: name)
                try joiner!.add(WebPEncoder.frameChunk(still: still, duration: end - start, width: plan.width, height: plan.height,
                                                       name: name))
            }
            if last {
                try joiner!.finish(translucent: translucent)
                report.spilled = joiner!.spilled
            }
        }
        let partFrames = partFrames(width: plan.width, height: plan.height)
        var part: AnimationPart! = try AnimationPart(width: plan.width, height: plan.height, options: options, name: name)
        var first = 0
        for (k, frame) in plan.frames.enumerated() {
            let image = plan.picture(frame.source)
            translucent = translucent || !image.isOpaque
            let start = WebPEncoder.milliseconds(frame.source, fps: plan.fps)
            if part.frames >= partFrames && image.isOpaque && k + 1 < plan.frames.count {
                let assembled = try part.assemble(endingAt: start, name: name)
                part = nil  // its encoded frames freed before the next part's come
                try deliver(assembled, first: first, end: start, last: false)
                part = try AnimationPart(width: plan.width, height: plan.height, options: options, name: name)
                first = k
            }
            try part.add(image, at: start, config: &config, frame: frame.source, name: name)
            progress(plan.framesDone(through: k), plan.timelineFrames)
        }
        let end = WebPEncoder.milliseconds(plan.timelineFrames, fps: plan.fps)
        let assembled = try part.assemble(endingAt: end, name: name)
        part = nil
        try deliver(assembled, first: first, end: end, last: true)
        return report
    }

    /// Writes `file`, with the `VP8X` chunk's alpha flag set where a frame is `translucent`
    /// and libwebp left it clear.
    private static func write(_ bytes: UnsafeRawBufferPointer, translucent: Bool, to sink: any ByteSink) throws(CarouselError) {
        guard translucent, let flags = WebPEncoder.extendedFlags(bytes), bytes[flags] & WebPEncoder.alphaFlag == 0 else {
            try sink.write(bytes)
            return
        }
        try sink.write(UnsafeRawBufferPointer(rebasing: bytes[..<flags]))
        try withUnsafeBytes(of: bytes[flags] | WebPEncoder.alphaFlag) { (flag) throws(CarouselError) in try sink.write(flag) }
        try sink.write(UnsafeRawBufferPointer(rebasing: bytes[(flags + 1)...]))
    }

    /// The chunks of an animation as libwebp assembles one: where its `VP8X` and `ANIM`
    /// chunks lie, and its `ANMF` frame chunks, one after another; nil where the file is not
    /// those chunks in that order (libwebp writes an animation of one frame as a still image).
    static func animation(_ file: UnsafeRawBufferPointer) -> (head: Range<Int>, frames: Range<Int>)? {
        guard let list = chunks(file), list.count >= 3, list[0].fourCC == "VP8X", list[1].fourCC == "ANIM",
              list.dropFirst(2).allSatisfy({ $0.fourCC == "ANMF" }) else { return nil }
        return (list[0].range.lowerBound..<list[1].range.upperBound, list[2].range.lowerBound..<list[list.count - 1].range.upperBound)
    }

    /// `image` encoded alone with `config`, as a WebP file (`VP8 `, `VP8L`, or `VP8X`,
    /// `ALPH` and `VP8 ` where lossy with alpha).
    static func still(_ image: RGBAImage, frame: Int, config: inout WebPConfig, name: String) throws(CarouselError) -> [UInt8] {
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = try withPicture(of: image, frame: frame, name: name) { picture in
            picture.writer = WebPMemoryWrite
            return withUnsafeMutablePointer(to: &writer) { pointer -> Bool in
                picture.custom_ptr = UnsafeMutableRawPointer(pointer)
                return WebPEncode(&config, &picture) != 0
            }
        }
        guard encoded else { throw .output(name, "libwebp: cannot encode frame \(frame)") }
        return Array(UnsafeRawBufferPointer(start: writer.mem, count: writer.size))
    }

    /// Runs `body` with `image`, timeline frame `frame`, as a picture libwebp takes (ARGB),
    /// freed after.
    static func withPicture<Result>(of image: RGBAImage, frame: Int, name: String,
                                    _ body: (inout WebPPicture) -> Result) throws(CarouselError) -> Result {
        var picture = WebPPicture()
        guard carousel_webp_picture_init(&picture) != 0 else { throw .output(name, "libwebp: version mismatch") }
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        picture.use_argb = 1
        let imported = image.pixels.withUnsafeBufferPointer { pixels in
            WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(image.width * 4))
        }
        defer { WebPPictureFree(&picture) }
        guard imported != 0 else { throw .output(name, "libwebp: cannot take frame \(frame)") }
        return body(&picture)
    }

    /// An `ANMF` chunk showing the still image `still` over the whole canvas for `duration`
    /// milliseconds, not blended and not disposed, as libwebp writes a key frame: the
    /// image's chunks less its `VP8X`.
    static func frameChunk(still: [UInt8], duration: Int, width: Int, height: Int, name: String) throws(CarouselError) -> [UInt8] {
        let parsed = still.withUnsafeBytes { chunks($0) }
        guard let parsed, let image = parsed.last, ["VP8 ", "VP8L"].contains(image.fourCC) else {
            throw .output(name, "libwebp: cannot encode a frame as a still image")
        }
        let body = parsed.filter { $0.fourCC == "ALPH" || $0.fourCC == "VP8 " || $0.fourCC == "VP8L" }
        // Offset 0, 0; width and height less one; the duration; blending: do not blend;
        // disposal: none.
        let fields: [Int] = [0, 0, width - 1, height - 1, duration]
        var payload: [UInt8] = fields.flatMap { littleEndian($0, bytes: 3) } + [0x02]
        for chunk in body { payload += still[chunk.range] }
        return Array("ANMF".utf8) + littleEndian(payload.count, bytes: 4) + payload
    }

    /// `value`'s low `bytes` bytes, least significant first.
    static func littleEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// The largest RIFF size a WebP file may give (libwebp's `MAX_CHUNK_PAYLOAD`, 2^32 - 10).
    static let maximumRIFFSize = Int(UInt32.max) - 9

    /// The chunks of a WebP file after its RIFF header, each with its padding, or nil where
    /// the file is not a whole RIFF of them.
    static func chunks(_ file: UnsafeRawBufferPointer) -> [(fourCC: String, range: Range<Int>)]? {
        guard file.count >= 12, file.starts(with: Array("RIFF".utf8)), file[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        var list: [(fourCC: String, range: Range<Int>)] = []
        var offset = 12
        while offset < file.count {
            guard offset + 8 <= file.count else { return nil }
            let size = (0..<4).reduce(0) { $0 | Int(file[offset + 4 + $1]) << (8 * $1) }
            let end = offset + 8 + size + (size & 1)
            guard end <= file.count else { return nil }
            list.append((String(decoding: file[offset..<(offset + 4)], as: UTF8.self), offset..<end))
            offset = end
        }
        return list
    }

    /// The `VP8X` chunk's alpha flag (the WebP container's "L" bit).
    static let alphaFlag: UInt8 = 0x10

    /// Where the flags byte of a WebP file's `VP8X` chunk lies (byte 20: the chunk comes first,
    /// after the RIFF header), or nil when the file has no such chunk (a simple image, whose
    /// bitstream says whether it has alpha).
    static func extendedFlags(_ file: UnsafeRawBufferPointer) -> Int? {
        guard file.count > 20, file.starts(with: Array("RIFF".utf8)),
              file[8..<16].elementsEqual("WEBPVP8X".utf8) else { return nil }
        return 20
    }

    /// When timeline frame `i` starts, in whole milliseconds: `round(1000 i / fps)`, half up.
    static func milliseconds(_ i: Int, fps: Int) -> Int {
        (2000 * i + fps) / (2 * fps)
    }
}

/// Joins the frame chunks of an animation's parts into one file: the first part's `VP8X`
/// (its flags taking every part's) and `ANIM` chunks, then every part's `ANMF` frame chunks
/// in order, in one RIFF. On a sink that can write over what it wrote (the temporary file an
/// output is written to, or memory), a part's frame chunks are written as it comes, and the
/// RIFF size and the flags are set at the end, so each part is freed before the next is
/// assembled; on standard output, a pipe or a device, whose file starts with the RIFF size,
/// the frame chunks wait until it is known: in memory up to ``WebPEncoder/heldInMemory``
/// bytes, then in a temporary file in `TMPDIR` or `/tmp`, removed from its folder as soon as
/// it is made, so nothing is left behind however the run ends (in memory still where no
/// such file can be made).
final class PartJoiner {
    private let sink: any ByteSink
    private let rewritable: (any RewritableSink)?
    private let name: String
    /// The RIFF header, `VP8X` and `ANIM`; the RIFF size and flags set at the end.
    private var header: [UInt8]
    /// Whether a part has come, and with it the header.
    private var started = false
    /// Where the file starts on a sink written over.
    private var base = 0
    /// The frame chunks' bytes so far.
    private var frameBytes = 0
    /// Frame chunks waiting for the RIFF size in memory, on a sink that cannot be written over.
    private var held: [[UInt8]] = []
    /// The bytes of frame chunks that may wait in memory.
    private let memoryLimit: Int
    /// The temporary file frame chunks wait in past ``memoryLimit``, and a sink over it
    /// named for errors.
    private var spill: (fd: Int32, sink: FileDescriptorSink)?
    /// Whether frame chunks passed ``memoryLimit``, and went to a temporary file where one
    /// could be made (for tests).
    private(set) var spilled = false

    /// A joiner writing to `sink`; its header, until a part gives libwebp's, is made for a
    /// canvas of `width` by `height` with `options`' background colour and loop count, as
    /// libwebp writes them.
    init(sink: any ByteSink, width: Int, height: Int, options: WebPAnimEncoderOptions, memoryLimit: Int, name: String) {
        self.sink = sink
        self.memoryLimit = memoryLimit
        if let sink = sink as? any RewritableSink, sink.canRewrite { rewritable = sink } else { rewritable = nil }
        self.name = name
        header = PartJoiner.header(width: width, height: height, options: options)
    }

    /// The RIFF header (its size left 0), `VP8X` with the animation flag, and `ANIM`, as
    /// libwebp writes them.
    static func header(width: Int, height: Int, options: WebPAnimEncoderOptions) -> [UInt8] {
        let le = WebPEncoder.littleEndian
        let vp8x = Array("VP8X".utf8) + le(10, 4) + [0x02, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3)
        let anim = Array("ANIM".utf8) + le(6, 4) + le(Int(options.anim_params.bgcolor), 4) + le(Int(options.anim_params.loop_count), 2)
        return Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + vp8x + anim
    }

    /// Adds a part libwebp assembled as an animation (``WebPEncoder/animation(_:)``): its
    /// frame chunks, and its header where it is the first.
    func add(_ animation: (head: Range<Int>, frames: Range<Int>), of file: UnsafeRawBufferPointer) throws(CarouselError) {
        if !started { header = Array(header[..<12]) + file[animation.head] }
        let flags = file[animation.head.lowerBound + 8]
        try start()
        header[20] |= flags
        try append(UnsafeRawBufferPointer(rebasing: file[animation.frames]))
    }

    /// Adds one frame chunk.
    func add(_ frame: [UInt8]) throws(CarouselError) {
        try start()
        let result: Result<Void, CarouselError> = frame.withUnsafeBytes { raw in
            Result { () throws(CarouselError) in try append(raw) }
        }
        try result.get()
    }

    private func start() throws(CarouselError) {
        guard !started else { return }
        started = true
        if let rewritable {
            base = rewritable.written
            try sink.write(header)
        }
    }

    private func append(_ bytes: UnsafeRawBufferPointer) throws(CarouselError) {
        frameBytes += bytes.count
        guard header.count - 8 + frameBytes <= WebPEncoder.maximumRIFFSize else {
            throw .output(name, "the animation would pass the 4 GiB a WebP file holds")
        }
        if rewritable != nil { try sink.write(bytes) } else { try hold(bytes) }
    }

    deinit { if let spill { close(spill.fd) } }

    /// Keeps `bytes` for the end: in memory, or past ``memoryLimit`` in the temporary file,
    /// where what waited in memory goes first.
    private func hold(_ bytes: UnsafeRawBufferPointer) throws(CarouselError) {
        // Where no temporary file can be made, the frame chunks stay in memory.
        if !spilled && frameBytes > memoryLimit {
            spilled = true
            if let (fd, folder) = PartJoiner.unlinkedTemporary() {
                let sink = FileDescriptorSink(fd: fd, name: "\(name): the frames waiting in \(folder)")
                spill = (fd, sink)
                for frames in held { try sink.write(frames) }
                held.removeAll()
            }
        }
        if let spill { try spill.sink.write(bytes) } else { held.append(Array(bytes)) }
    }

    /// A new file in `TMPDIR` (or `/tmp`), open to read and write and already removed from
    /// the folder, so it goes when it is closed or the process ends; nil where none can be made.
    static func unlinkedTemporary() -> (fd: Int32, folder: String)? {
        var folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        if folder.isEmpty { folder = "/tmp" }
        var fd: Int32 = -1
        let path = TemporaryFiles.make(isFolder: false) { () -> String? in
            var template = Array((folder + "/.carousel-webp-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return nil }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard let path else { return nil }
        unlink(path)
        TemporaryFiles.unregister(path)
        return (fd, folder)
    }

    /// Sets the RIFF size and the flags, with the alpha flag where a frame is `translucent`,
    /// and writes what waited for them.
    func finish(translucent: Bool) throws(CarouselError) {
        if translucent { header[20] |= WebPEncoder.alphaFlag }
        header.replaceSubrange(4..<8, with: WebPEncoder.littleEndian(header.count - 8 + frameBytes, bytes: 4))
        if let rewritable {
            try rewritable.rewrite(Array(header[4..<8]), at: base + 4)
            try rewritable.rewrite([header[20]], at: base + 20)
            return
        }
        try sink.write(header)
        for frames in held { try sink.write(frames) }
        held.removeAll()
        guard let spill else { return }
        let spillName = spill.sink.name
        guard lseek(spill.fd, 0, SEEK_SET) == 0 else { throw .output(spillName, FileErrors.posixReason(errno)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var left = frameBytes
        while left > 0 {
            let n = buffer.withUnsafeMutableBytes { read(spill.fd, $0.baseAddress!, min($0.count, left)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .output(spillName, n < 0 ? FileErrors.posixReason(errno) : "ended before its frames did") }
            try sink.write(Array(buffer[..<n]))
            left -= n
        }
    }
}

/// One of libwebp's animation encoders, deleted with it: one part of a WebP.
private final class AnimationPart {
    private let encoder: OpaquePointer
    /// Frames added.
    private(set) var frames = 0

    init(width: Int, height: Int, options: WebPAnimEncoderOptions, name: String) throws(CarouselError) {
        var options = options
        guard let encoder = carousel_webp_anim_encoder_new(Int32(width), Int32(height), &options) else {
            throw .output(name, "libwebp: cannot start an animation of \(width)x\(height)")
        }
        self.encoder = encoder
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds `image`, timeline frame `frame`, shown from `milliseconds`.
    func add(_ image: RGBAImage, at milliseconds: Int, config: inout WebPConfig, frame: Int, name: String) throws(CarouselError) {
        let added = try WebPEncoder.withPicture(of: image, frame: frame, name: name) { picture in
            WebPAnimEncoderAdd(encoder, &picture, Int32(milliseconds), &config) != 0
        }
        guard added else { throw .output(name, "libwebp: \(String(cString: WebPAnimEncoderGetError(encoder)))") }
        frames += 1
    }

    /// The part as a file, its last frame shown until `milliseconds`.
    func assemble(endingAt milliseconds: Int, name: String) throws(CarouselError) -> AssembledPart {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(milliseconds), nil) != 0 else {
            throw .output(name, "libwebp: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
        let part = AssembledPart()
        guard WebPAnimEncoderAssemble(encoder, &part.data) != 0 else {
            throw .output(name, "libwebp: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
        return part
    }
}

/// A file libwebp assembled, freed with it.
private final class AssembledPart {
    var data = WebPData()

    /// The file's bytes, valid while this lives.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: data.bytes, count: data.size) }

    deinit { WebPDataClear(&data) }
}
