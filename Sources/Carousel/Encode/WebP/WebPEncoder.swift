import CLibWebP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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
/// An animation of more than 1024 frames is made in parts of 1024, each by its own
/// `WebPAnimEncoder`, whose frame chunks are joined into one file: libwebp's assembly of one
/// animation takes time in the square of its frames. A part starts at an opaque frame,
/// which libwebp writes whole, so every frame shows as it would in one part.
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
        var translucent = false
        var parts = try encodeParts(plan, options: options, config: &config, partLimit: framesPerPart, translucent: &translucent,
                                    name: name, progress: progress)
        if parts.count > 1 {
            defer { withExtendedLifetime(parts) {} }
            if let joined = WebPEncoder.joined(parts.map(\.bytes)) {
                guard joined.riffSize <= WebPEncoder.maximumRIFFSize else {
                    throw .output(name, "libwebp: the animation would pass the 4 GiB a WebP file holds")
                }
                try joined.write(to: sink, translucent: translucent)
                return
            }
            // A part libwebp wrote as a still image (one frame) has no frame chunk to join:
            // the animation is made again in one part, as a file of up to that many frames is.
            parts.removeAll()
            parts = try encodeParts(plan, options: options, config: &config, partLimit: .max, translucent: &translucent,
                                    name: name, progress: progress)
        }
        try WebPEncoder.write(parts[0].bytes, translucent: translucent, to: sink)
        withExtendedLifetime(parts) {}
    }

    /// Frames given to one of libwebp's animation encoders before its part of the file is
    /// assembled. libwebp's mux walks its list of frames to the end for every frame it adds,
    /// so one assembly takes time in the square of its frames: 120,000 distinct frames took
    /// 188 s in one part.
    static let defaultFramesPerPart = 1024

    /// Frames in a part (``defaultFramesPerPart``; tests make it small).
    var framesPerPart = WebPEncoder.defaultFramesPerPart

    /// The animation as files of at most `partLimit` frames each, one encoder each. A part
    /// after the first starts at an opaque frame with another after it: libwebp writes a
    /// file's first frame as the rectangle of its pixels that are not transparent, which for
    /// an opaque one is the whole canvas, replacing everything the parts before left; lossy
    /// frames are all key frames, whole, in any part.
    private func encodeParts(_ plan: FramePlan, options: WebPAnimEncoderOptions, config: inout WebPConfig, partLimit: Int,
                             translucent: inout Bool, name: String,
                             progress: (Int, Int) -> Void) throws(CarouselError) -> [AssembledPart] {
        var parts: [AssembledPart] = []
        var part: AnimationPart! = try AnimationPart(width: plan.width, height: plan.height, options: options, name: name)
        for (k, frame) in plan.frames.enumerated() {
            let image = plan.picture(frame.source)
            translucent = translucent || !image.isOpaque
            let start = WebPEncoder.milliseconds(frame.source, fps: plan.fps)
            if part.frames >= partLimit && image.isOpaque && k + 1 < plan.frames.count {
                parts.append(try part.assemble(endingAt: start, name: name))
                part = nil  // its encoded frames freed before the next part's come
                part = try AnimationPart(width: plan.width, height: plan.height, options: options, name: name)
            }
            try part.add(image, at: start, config: &config, frame: frame.source, name: name)
            progress(plan.framesDone(through: k), plan.timelineFrames)
        }
        parts.append(try part.assemble(endingAt: WebPEncoder.milliseconds(plan.timelineFrames, fps: plan.fps), name: name))
        return parts
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

    /// The parts of one animation, each a file libwebp assembled, as one file: the first
    /// part's header chunks (`VP8X`, whose flags take every part's, and `ANIM`) and every
    /// part's `ANMF` frame chunks in order, in one RIFF; nil where a part is not `VP8X`,
    /// `ANIM` and frame chunks, as libwebp writes an animation.
    static func joined(_ parts: [UnsafeRawBufferPointer]) -> JoinedParts? {
        guard let first = parts.first, let head = chunks(first) else { return nil }
        var flags: UInt8 = 0
        var frames: [Range<Int>] = []
        for part in parts {
            guard let list = chunks(part), list.count >= 3, list[0].fourCC == "VP8X", list[1].fourCC == "ANIM",
                  list.dropFirst(2).allSatisfy({ $0.fourCC == "ANMF" }) else { return nil }
            flags |= part[list[0].range.lowerBound + 8]
            frames.append(list[2].range.lowerBound..<list[list.count - 1].range.upperBound)
        }
        let body = 4 + head[0].range.count + head[1].range.count + frames.reduce(0) { $0 + $1.count }
        var header: [UInt8] = Array("RIFF".utf8)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: body).littleEndian) { header += $0 }
        header += Array("WEBP".utf8)
        header += first[head[0].range]
        header[20] = flags
        header += first[head[1].range]
        return JoinedParts(parts: parts, header: header, frames: frames, riffSize: body)
    }

    /// The largest RIFF size a WebP file may give (libwebp's `MAX_CHUNK_PAYLOAD`, 2^32 - 10).
    static let maximumRIFFSize = Int(UInt32.max) - 9

    /// An animated WebP made of parts (``joined(_:)``), written a chunk at a time from the
    /// parts themselves.
    struct JoinedParts {
        /// The parts, each a file, alive while this is written.
        let parts: [UnsafeRawBufferPointer]
        /// The RIFF header, `VP8X` and `ANIM`.
        let header: [UInt8]
        /// Where each part's frame chunks lie in it, one after another.
        let frames: [Range<Int>]
        /// The RIFF header's size: the file's bytes after the first eight. Past
        /// ``WebPEncoder/maximumRIFFSize`` the file cannot be written.
        let riffSize: Int

        /// Writes the file, with the alpha flag set where a frame is `translucent`.
        func write(to sink: any ByteSink, translucent: Bool) throws(CarouselError) {
            var header = header
            if translucent { header[20] |= WebPEncoder.alphaFlag }
            try sink.write(header)
            for (part, range) in zip(parts, frames) {
                try sink.write(UnsafeRawBufferPointer(rebasing: part[range]))
            }
        }
    }

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
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(milliseconds), &config) != 0 else {
            throw .output(name, "libwebp: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
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
