import CGifLib
import Carousel
import Foundation

/// Decodes a GIF with giflib's own decoder, for round-trip tests.
public struct DecodedGIF {
    /// The six-byte signature, e.g. "GIF89a".
    public var version: String
    public var width: Int
    public var height: Int
    /// NETSCAPE2.0 repeat count; `nil` when there is no loop block.
    public var loopCount: Int?
    /// Each frame composited on the canvas as a viewer shows it: over what the frames before
    /// left, after their disposal (2 clears a frame's rectangle to transparent once it has
    /// been shown, 3 puts back what was under it).
    public var frames: [RGBAImage]
    public var delays: [Int]
    /// Each frame's disposal method (0 when it has no graphic control block).
    public var disposals: [Int]
    /// Each frame's transparent index, `nil` where it has none.
    public var transparentIndices: [Int?]
    /// Local colour table sizes.
    public var paletteSizes: [Int]
    /// Each frame's colour table.
    public var palettes: [[RGBA]]
    /// Each frame's rectangle on the canvas: left, top, width, height.
    public var rects: [(left: Int, top: Int, width: Int, height: Int)]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Decodes `bytes`, compositing each frame on the canvas.
    public init(_ bytes: [UInt8]) throws {
        version = String(decoding: bytes.prefix(6), as: UTF8.self)
        let source = ByteSource(bytes)
        var error: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), readBytes, &error) else {
            throw Failure(description: "DGifOpen failed: \(error)")
        }
        defer { DGifCloseFile(gif, &error) }
        guard DGifSlurp(gif) == GIF_OK else { throw Failure(description: "DGifSlurp failed: \(gif.pointee.Error)") }
        width = Int(gif.pointee.SWidth)
        height = Int(gif.pointee.SHeight)
        loopCount = nil
        frames = []
        delays = []
        disposals = []
        transparentIndices = []
        paletteSizes = []
        palettes = []
        rects = []
        var canvas = RGBAImage(width: width, height: height)
        for i in 0..<Int(gif.pointee.ImageCount) {
            let saved = gif.pointee.SavedImages[i]
            for e in 0..<Int(saved.ExtensionBlockCount) {
                let block = saved.ExtensionBlocks[e]
                if block.Function == APPLICATION_EXT_FUNC_CODE, block.ByteCount == 11,
                   String(decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self) == "NETSCAPE2.0",
                   e + 1 < Int(saved.ExtensionBlockCount) {
                    let data = saved.ExtensionBlocks[e + 1]
                    loopCount = Int(data.Bytes[1]) | Int(data.Bytes[2]) << 8
                }
            }
            var gcb = GraphicsControlBlock()
            let hasGCB = DGifSavedExtensionToGCB(gif, Int32(i), &gcb) == GIF_OK
            delays.append(hasGCB ? Int(gcb.DelayTime) : 0)
            disposals.append(hasGCB ? Int(gcb.DisposalMode) : 0)
            transparentIndices.append(hasGCB && gcb.TransparentColor != NO_TRANSPARENT_COLOR ? Int(gcb.TransparentColor) : nil)
            let desc = saved.ImageDesc
            let under = canvas
            rects.append((Int(desc.Left), Int(desc.Top), Int(desc.Width), Int(desc.Height)))
            guard let map = desc.ColorMap ?? gif.pointee.SColorMap else { throw Failure(description: "frame \(i) has no colour map") }
            paletteSizes.append(Int(map.pointee.ColorCount))
            palettes.append((0..<Int(map.pointee.ColorCount)).map {
                let c = map.pointee.Colors[$0]
                return RGBA(r: c.Red, g: c.Green, b: c.Blue)
            })
            for y in 0..<Int(desc.Height) {
                for x in 0..<Int(desc.Width) {
                    let index = Int(saved.RasterBits[y * Int(desc.Width) + x])
                    if hasGCB && index == Int(gcb.TransparentColor) { continue }
                    let c = map.pointee.Colors[index]
                    canvas[Int(desc.Left) + x, Int(desc.Top) + y] = RGBA(r: c.Red, g: c.Green, b: c.Blue)
                }
            }
            frames.append(canvas)
            let disposal = disposals[disposals.count - 1]
            if disposal == 2 || disposal == 3 {
                for y in max(0, Int(desc.Top))..<min(height, Int(desc.Top) + Int(desc.Height)) {
                    for x in max(0, Int(desc.Left))..<min(width, Int(desc.Left) + Int(desc.Width)) {
                        canvas[x, y] = disposal == 2 ? RGBA(r: 0, g: 0, b: 0, a: 0) : under[x, y]
                    }
                }
            }
        }
    }
}

extension DecodedGIF {
    /// What keeps Pillow from reading the GIF's transparency as giflib and browsers do:
    /// a first frame without a transparent entry where a frame shows transparent pixels
    /// (Pillow composites every frame after such a first frame without alpha), and a frame
    /// cleared once shown (disposal 2) without one (Pillow clears it to the background
    /// colour, opaque). Empty when there is neither.
    public var pillowProblems: [String] {
        var problems: [String] = []
        let showsTransparency = frames.contains { frame in
            stride(from: 3, to: frame.pixels.count, by: 4).contains { frame.pixels[$0] == 0 }
        }
        if let first = transparentIndices.first, first == nil, showsTransparency {
            problems.append("frames show transparent pixels, but the first frame has no transparent entry")
        }
        for (i, (disposal, index)) in zip(disposals, transparentIndices).enumerated() where disposal == 2 && index == nil {
            problems.append("frame \(i) is cleared once shown but has no transparent entry")
        }
        return problems
    }

    /// What a viewer sees at each timeline frame of an animation at `fps`, frame `i` lasting
    /// ``FrameInfo/delay(frame:fps:)``: the decoded image shown when it starts.
    public func timelineFrames(fps: Int) -> [RGBAImage] {
        var out: [RGBAImage] = []
        var shown = 0, elapsed = 0
        for (frame, delay) in zip(frames, delays) {
            elapsed += delay
            while FrameInfo.delay(frame: out.count, fps: fps) + shown <= elapsed {
                shown += FrameInfo.delay(frame: out.count, fps: fps)
                out.append(frame)
            }
        }
        return out
    }

    /// How many pixels `shown` (a decoded image) has transparent where `exact` has alpha 128
    /// or more, or opaque where it has less: a GIF's pixel is transparent or opaque, and
    /// carousel's GIF shows alpha below 128 as transparent.
    public static func transparencyMismatches(_ exact: RGBAImage, _ shown: RGBAImage) -> Int {
        precondition(exact.width == shown.width && exact.height == shown.height, "images of different sizes")
        return stride(from: 3, to: exact.pixels.count, by: 4).count { (exact.pixels[$0] < 128) != (shown.pixels[$0] == 0) }
    }
}

private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

private func readBytes(_ file: UnsafeMutablePointer<GifFileType>?, _ out: UnsafeMutablePointer<GifByteType>?, _ count: Int32) -> Int32 {
    guard let file, let out, let user = file.pointee.UserData else { return 0 }
    let source = Unmanaged<ByteSource>.fromOpaque(user).takeUnretainedValue()
    let n = min(Int(count), source.bytes.count - source.offset)
    for i in 0..<n { out[i] = source.bytes[source.offset + i] }
    source.offset += n
    return Int32(n)
}
