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
        guard let encoder = carousel_webp_anim_encoder_new(Int32(plan.width), Int32(plan.height), &options) else {
            throw .output(name, "libwebp: cannot start an animation of \(plan.width)x\(plan.height)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
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
        for (k, frame) in plan.frames.enumerated() {
            let image = plan.picture(frame.source)
            translucent = translucent || !image.isOpaque
            var picture = WebPPicture()
            guard carousel_webp_picture_init(&picture) != 0 else { throw .output(name, "libwebp: version mismatch") }
            picture.width = Int32(image.width)
            picture.height = Int32(image.height)
            picture.use_argb = 1
            let imported = image.pixels.withUnsafeBufferPointer { pixels in
                WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(image.width * 4))
            }
            defer { WebPPictureFree(&picture) }
            guard imported != 0 else { throw .output(name, "libwebp: cannot take frame \(frame.source)") }
            guard WebPAnimEncoderAdd(encoder, &picture, Int32(WebPEncoder.milliseconds(frame.source, fps: plan.fps)), &config) != 0 else {
                throw .output(name, "libwebp: \(String(cString: WebPAnimEncoderGetError(encoder)))")
            }
            progress(plan.framesDone(through: k), plan.timelineFrames)
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(WebPEncoder.milliseconds(plan.timelineFrames, fps: plan.fps)), nil) != 0 else {
            throw .output(name, "libwebp: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw .output(name, "libwebp: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
        defer { WebPDataClear(&data) }
        let bytes = UnsafeRawBufferPointer(start: data.bytes, count: data.size)
        guard translucent, let flags = WebPEncoder.extendedFlags(bytes), bytes[flags] & WebPEncoder.alphaFlag == 0 else {
            try sink.write(bytes)
            return
        }
        try sink.write(UnsafeRawBufferPointer(rebasing: bytes[..<flags]))
        try withUnsafeBytes(of: bytes[flags] | WebPEncoder.alphaFlag) { (flag) throws(CarouselError) in try sink.write(flag) }
        try sink.write(UnsafeRawBufferPointer(rebasing: bytes[(flags + 1)...]))
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
