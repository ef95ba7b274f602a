#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Animated PNG (spec section 5b): lossless, exact delays, frames cropped to what changed.
///
/// libpng writes each frame's image data (a PNG of the frame or of its changed
/// rectangle, encoded in memory); this encoder takes that PNG's IDAT payload and writes
/// the APNG chunks around it itself — `acTL` once, then per frame `fcTL` and the data,
/// as `IDAT` for frame 0 (the default image) and `fdAT` after. Debian's libpng has no
/// APNG support, so none of its APNG API is used.
///
/// Delays are exact fractions: a planned frame standing for `span` timeline frames shows
/// for `span / fps` seconds. Every frame after the first covers only the rectangle that
/// changed since the one before, replacing it (`dispose_op` none, `blend_op` source).
public struct APNGEncoder: AnimationEncoder {
    /// How many times the animation plays.
    public var loop: LoopMode

    /// An encoder with the given loop.
    public init(loop: LoopMode = .forever) {
        self.loop = loop
    }

    /// Encodes `plan` as an APNG on `sink`.
    public func encode(_ plan: FramePlan, to sink: any ByteSink, name: String,
                       progress: (Int, Int) -> Void) throws(CarouselError) {
        guard plan.width <= Int(UInt32.max), plan.height <= Int(UInt32.max) else {
            throw .output(name, "APNG dimensions \(plan.width)x\(plan.height) are too large")
        }
        var sequence: UInt32 = 0
        var previous: RGBAImage?
        for (k, frame) in plan.frames.enumerated() {
            let exact = plan.picture(frame.source)
            let rect = previous.map { exact.changedRect(from: $0) } ?? (0, 0, exact.width, exact.height)
            let (left, top, width, height) = rect.2 > 0 ? rect : (0, 0, 1, 1)
            let part = width == exact.width && height == exact.height ? exact
                : exact.cropped(x: left, y: top, width: width, height: height)
            let png: Data
            do {
                png = try PNGCodec.encode(part, name: name)
            } catch {
                throw .image(error)
            }
            let chunks = APNGEncoder.chunks(of: png)
            if k == 0 {
                try sink.write(Data(PNGWriter.signature))
                try sink.write(APNGEncoder.chunk("IHDR", chunks.first { $0.type == "IHDR" }?.body ?? Data()))
                // The colour space libpng marks the frame with (`sRGB`), as every PNG the
                // project writes has it, so a colour-managed viewer shows the APNG as it
                // shows `carousel frame`'s PNG.
                for data in chunks where APNGEncoder.colorSpaceChunks.contains(data.type) {
                    try sink.write(APNGEncoder.chunk(data.type, data.body))
                }
                var actl = Data()
                actl += APNGEncoder.be32(UInt32(plan.frames.count))
                actl += APNGEncoder.be32(UInt32(loop.plays ?? 0))
                try sink.write(APNGEncoder.chunk("acTL", actl))
            }
            var fctl = APNGEncoder.be32(sequence)
            sequence += 1
            fctl += APNGEncoder.be32(UInt32(width)) + APNGEncoder.be32(UInt32(height))
            fctl += APNGEncoder.be32(UInt32(left)) + APNGEncoder.be32(UInt32(top))
            let (num, den) = APNGEncoder.delay(span: frame.span, fps: plan.fps)
            fctl += APNGEncoder.be16(num) + APNGEncoder.be16(den)
            fctl += Data([0, 0])  // dispose_op none, blend_op source
            try sink.write(APNGEncoder.chunk("fcTL", fctl))
            for data in chunks where data.type == "IDAT" {
                if k == 0 {
                    try sink.write(APNGEncoder.chunk("IDAT", data.body))
                } else {
                    try sink.write(APNGEncoder.chunk("fdAT", APNGEncoder.be32(sequence) + data.body))
                    sequence += 1
                }
            }
            previous = exact
            progress(plan.framesDone(through: k), plan.timelineFrames)
        }
        try sink.write(APNGEncoder.chunk("IEND", Data()))
    }

    /// The chunks that say a PNG's colour space, which come before its image data.
    static let colorSpaceChunks: Set<String> = ["sRGB", "gAMA", "cHRM", "iCCP"]

    /// `span / fps` as a 16-bit fraction, reduced; spans too long for 16 bits are scaled.
    static func delay(span: Int, fps: Int) -> (UInt16, UInt16) {
        var num = span, den = fps
        var a = num, b = den
        while b != 0 { (a, b) = (b, a % b) }
        num /= max(1, a)
        den /= max(1, a)
        while num > Int(UInt16.max) {
            num = (num + 1) / 2
            den = max(1, (den + 1) / 2)
        }
        return (UInt16(num), UInt16(den))
    }

    /// The chunks of a PNG libpng wrote.
    static func chunks(of png: Data) -> [(type: String, body: Data)] {
        let bytes = [UInt8](png)
        var out: [(type: String, body: Data)] = []
        PNGChunks.forEach(in: bytes) { out.append(($0, Data(bytes[$1]))) }
        return out
    }

    static func chunk(_ type: String, _ body: Data) -> Data {
        Data(PNGWriter.chunk(type, [UInt8](body)))
    }

    static func be32(_ v: UInt32) -> Data { Data(PNGWriter.bigEndian(v)) }
    static func be16(_ v: UInt16) -> Data { Data([UInt8(v >> 8), UInt8(v & 0xFF)]) }
}
