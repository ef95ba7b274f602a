import Carousel
import Foundation

/// Reads an animated PNG for round-trip tests, independently of the encoder: chunks,
/// sequence numbers and CRCs checked, every frame's data decoded as a standalone PNG
/// through libpng and composed on the canvas by its dispose and blend operations.
public struct DecodedAPNG {
    public var width: Int
    public var height: Int
    /// `acTL`'s num_plays (0 = forever).
    public var plays: Int
    /// Each frame as a viewer shows it.
    public var frames: [RGBAImage]
    /// Each frame's delay as (numerator, denominator) seconds.
    public var delays: [(Int, Int)]
    /// Each frame's rectangle: left, top, width, height.
    public var rects: [(Int, Int, Int, Int)]

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure(description: "not a PNG") }
        func u32(_ a: ArraySlice<UInt8>, _ i: Int) -> Int {
            let s = a.startIndex + i
            return Int(a[s]) << 24 | Int(a[s + 1]) << 16 | Int(a[s + 2]) << 8 | Int(a[s + 3])
        }
        var at = 8
        var ihdr: ArraySlice<UInt8> = []
        var count = -1
        plays = -1
        var controls: [ArraySlice<UInt8>] = []
        var payloads: [[UInt8]] = []
        var expectedSequence = 0
        while at + 12 <= bytes.count {
            let length = u32(bytes[...], at)
            guard at + 12 + length <= bytes.count else { throw Failure(description: "truncated chunk") }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = bytes[(at + 8)..<(at + 8 + length)]
            let crc = UInt32(u32(bytes[...], at + 8 + length))
            guard crc == PNGBytes.crc32(Data(bytes[(at + 4)..<(at + 8 + length)])) else { throw Failure(description: "\(type): CRC error") }
            at += 12 + length
            switch type {
            case "IHDR": ihdr = body
            case "acTL":
                count = u32(body, 0)
                plays = u32(body, 4)
            case "fcTL":
                guard u32(body, 0) == expectedSequence else { throw Failure(description: "fcTL: sequence \(u32(body, 0)), expected \(expectedSequence)") }
                expectedSequence += 1
                controls.append(body)
                payloads.append([])
            case "IDAT":
                guard !payloads.isEmpty else { throw Failure(description: "IDAT before the first fcTL: the default image is not frame 0") }
                payloads[payloads.count - 1] += body
            case "fdAT":
                guard u32(body, 0) == expectedSequence else { throw Failure(description: "fdAT: sequence \(u32(body, 0)), expected \(expectedSequence)") }
                expectedSequence += 1
                payloads[payloads.count - 1] += body.dropFirst(4)
            case "IEND": at = bytes.count
            default: break
            }
        }
        guard ihdr.count == 13, count == controls.count, count > 0 else { throw Failure(description: "acTL says \(count) frames, found \(controls.count)") }
        width = u32(ihdr, 0)
        height = u32(ihdr, 4)
        var canvas = RGBAImage(width: width, height: height)
        frames = []
        delays = []
        rects = []
        for (control, payload) in zip(controls, payloads) {
            let w = u32(control, 4), h = u32(control, 8), x = u32(control, 12), y = u32(control, 16)
            let s = control.startIndex
            let num = Int(control[s + 20]) << 8 | Int(control[s + 21]), den = Int(control[s + 22]) << 8 | Int(control[s + 23])
            let dispose = control[s + 24], blend = control[s + 25]
            guard x + w <= width, y + h <= height else { throw Failure(description: "frame outside the canvas") }
            var header = Data(ihdr)
            header.replaceSubrange(0..<8, with: PNGBytes.be32(w) + PNGBytes.be32(h))
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + PNGBytes.chunk("IHDR", header)
                + PNGBytes.chunk("IDAT", Data(payload)) + PNGBytes.chunk("IEND", Data())
            let part = try PNGCodec.decode(png, name: "frame \(frames.count)")
            let before = canvas
            for py in 0..<h {
                for px in 0..<w {
                    canvas[x + px, y + py] = blend == 0 ? part[px, py] : part[px, py].over(canvas[x + px, y + py])
                }
            }
            frames.append(canvas)
            delays.append((num, den == 0 ? 100 : den))
            rects.append((x, y, w, h))
            if dispose == 1 {
                for py in 0..<h { for px in 0..<w { canvas[x + px, y + py] = .clear } }
            } else if dispose == 2 {
                canvas = before
            }
        }
    }
}
