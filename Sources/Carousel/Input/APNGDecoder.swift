import CLibPNG
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads an animated PNG: its frames as a viewer shows them, and their delays.
///
/// Each frame's image data is decoded through libpng as a standalone PNG of the frame's
/// rectangle, then placed on the canvas by its blend operation and cleared or restored
/// after by its dispose operation. Used by snapshot tests of whole animations.
public struct APNGDecoder: Sendable {
    /// Canvas width.
    public let width: Int
    /// Canvas height.
    public let height: Int
    /// `num_plays` (0 = forever).
    public let plays: Int
    /// Each frame as shown.
    public let frames: [RGBAImage]
    /// Each frame's delay in seconds, as (numerator, denominator).
    public let delays: [(numerator: Int, denominator: Int)]

    /// The most pixels the frames may hold in all, each frame a whole canvas (1 GiB of RGBA):
    /// four times a still's limit, 358 distinct frames of 1125x665 (342 of 1125x697, with the
    /// dots' footer).
    public static let maximumPixels = 4 * PNGCodec.maximumPixels

    /// Whether `reason`, a decoding error's, is this decoder's refusal of frames past the
    /// `maximumPixels` it was given (a canvas, or all the frames), which a larger one lifts,
    /// rather than a file it cannot read or a canvas past a picture's own cap.
    package static func isPastLimit(_ reason: String) -> Bool {
        reason.contains(" over the limit of ")
    }

    /// Decodes `data`; `name` is used in errors. The frames, each a whole canvas, may hold
    /// `maximumPixels` in all (``maximumPixels`` by default).
    public init(_ data: Data, name: String = "<memory>", maximumPixels: Int = APNGDecoder.maximumPixels) throws(PNGError) {
        let bytes = [UInt8](data)
        func fail(_ reason: String) -> PNGError { .invalid(file: name, reason: reason) }
        func u32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw fail("Not a PNG file") }
        var header: Range<Int>?
        var plays = 0
        var controls: [Range<Int>] = []
        var payloads: [[UInt8]] = []
        let whole = PNGChunks.forEach(in: bytes) { type, body in
            switch type {
            case "IHDR": header = body
            case "acTL" where body.count == 8: plays = u32(body.lowerBound + 4)
            case "fcTL" where body.count == 26:
                controls.append(body)
                payloads.append([])
            case "IDAT" where !payloads.isEmpty: payloads[payloads.count - 1] += bytes[body]
            case "fdAT" where !payloads.isEmpty && body.count >= 4: payloads[payloads.count - 1] += bytes[(body.lowerBound + 4)..<body.upperBound]
            default: break
            }
        }
        guard whole else { throw fail("truncated file") }
        guard let header, header.count == 13, !controls.isEmpty else { throw fail("not an animated PNG (no acTL and fcTL)") }
        width = u32(header.lowerBound)
        height = u32(header.lowerBound + 4)
        guard width > 0, height > 0, !width.multipliedReportingOverflow(by: height).overflow,
              width * height <= PNGCodec.maximumPixels else {
            throw fail("a canvas of \(width)x\(height) is more than a picture may hold (\(PNGCodec.maximumPixels) pixels)")
        }
        guard width * height <= maximumPixels else {
            throw fail("a canvas of \(width)x\(height) is over the limit of \(maximumPixels) pixels")
        }
        // Every frame is kept as a whole canvas: a file of a few kilobytes can name hundreds of
        // frames of a large canvas, each frame a pixel.
        let (total, overflow) = width.multipliedReportingOverflow(by: height).partialValue.multipliedReportingOverflow(by: controls.count)
        guard !overflow, total <= maximumPixels else {
            throw fail("\(controls.count) frames of \(width)x\(height) are over the limit of \(maximumPixels) pixels in all")
        }
        self.plays = plays
        var canvas = RGBAImage(width: width, height: height)
        var frames: [RGBAImage] = []
        var delays: [(numerator: Int, denominator: Int)] = []
        for (control, payload) in zip(controls, payloads) {
            let c = control.lowerBound
            let w = u32(c + 4), h = u32(c + 8), x = u32(c + 12), y = u32(c + 16)
            let num = Int(bytes[c + 20]) << 8 | Int(bytes[c + 21]), den = Int(bytes[c + 22]) << 8 | Int(bytes[c + 23])
            let dispose = bytes[c + 24], blend = bytes[c + 25]
            guard w > 0, h > 0, x + w <= width, y + h <= height else { throw fail("frame \(frames.count) lies outside the canvas") }
            var ihdr = Array(bytes[header])
            for k in 0..<4 { ihdr[k] = UInt8(w >> (24 - 8 * k) & 0xFF); ihdr[4 + k] = UInt8(h >> (24 - 8 * k) & 0xFF) }
            let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + APNGEncoder.chunk("IHDR", Data(ihdr))
                + APNGEncoder.chunk("IDAT", Data(payload)) + APNGEncoder.chunk("IEND", Data())
            let part = try PNGCodec.decode(Data(png), name: name)
            let before = canvas
            for py in 0..<h {
                for px in 0..<w {
                    canvas[x + px, y + py] = blend == 0 ? part[px, py] : part[px, py].over(canvas[x + px, y + py])
                }
            }
            frames.append(canvas)
            delays.append((num, den == 0 ? 100 : den))
            if dispose == 1 {
                for py in 0..<h { for px in 0..<w { canvas[x + px, y + py] = .clear } }
            } else if dispose == 2 {
                canvas = before
            }
        }
        self.frames = frames
        self.delays = delays
    }
}
