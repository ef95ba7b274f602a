import CLibWebP
import Carousel
import Foundation

/// Decodes an animated WebP with libwebp's own demuxer and decoder, for round-trip tests.
public struct DecodedWebP {
    public var width: Int
    public var height: Int
    /// The loop count (0 = forever).
    public var loopCount: Int
    /// Each frame as a viewer shows it.
    public var frames: [RGBAImage]
    /// Each frame's end time in milliseconds.
    public var timestamps: [Int]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ data: Data) throws {
        var options = WebPAnimDecoderOptions()
        guard carousel_webp_anim_decoder_options_init(&options) != 0 else { throw Failure(description: "libwebp version") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        let bytes = [UInt8](data)
        var result: Result<(Int, Int, Int, [RGBAImage], [Int]), Failure> = .failure(Failure(description: "not decoded"))
        bytes.withUnsafeBufferPointer { buffer in
            var webp = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = carousel_webp_anim_decoder_new(&webp, &options) else {
                result = .failure(Failure(description: "WebPAnimDecoderNew failed"))
                return
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                result = .failure(Failure(description: "WebPAnimDecoderGetInfo failed"))
                return
            }
            let w = Int(info.canvas_width), h = Int(info.canvas_height)
            var frames: [RGBAImage] = [], times: [Int] = []
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
                    result = .failure(Failure(description: "WebPAnimDecoderGetNext failed"))
                    return
                }
                frames.append(RGBAImage(width: w, height: h, pixels: Array(UnsafeBufferPointer(start: pixels, count: w * h * 4))))
                times.append(Int(timestamp))
            }
            result = .success((w, h, Int(info.loop_count), frames, times))
        }
        let (w, h, loop, frames, times) = try result.get()
        width = w
        height = h
        loopCount = loop
        self.frames = frames
        timestamps = times
    }
}
