import Foundation

/// libFuzzer target: the encoders, from small images and options read from the bytes
/// (`FuzzRender`). Any input must render or throw a one-line `CarouselError`; never crash,
/// read or write out of bounds, or leak. An APNG must start with PNG's signature and a WebP
/// with its RIFF header. A GIF must decode with giflib (the suite's `DecodedGIF`, compiled
/// in by `scripts/fuzz`) at the carousel's size, show an image at every timeline frame,
/// and show exactly the pixels the frame has opaque (alpha 128 or more). One frame, chosen
/// by the last byte, goes through `carousel frames`' PNG writer and back through libpng,
/// and must come back pixel for pixel.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEncode(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let rendered: (carousel: Carousel, format: OutputFormat, data: Data)
    do {
        rendered = try FuzzRender.render(Array(UnsafeBufferPointer(start: bytes, count: count)))
    } catch {
        precondition(!"\(error)".contains("\n"), "an error of more than one line: \(error)")
        return 0
    }
    let (carousel, data) = (rendered.carousel, rendered.data)
    let frame = carousel.frame(index: (count > 0 ? Int(bytes[count - 1]) : 0) % carousel.frameCount)
    do {
        let back = try PNGCodec.decode(try PNGWriter.encodeQuickly(frame), name: "frame.png")
        precondition(back == frame, "a frame's PNG does not decode to the frame")
    } catch {
        preconditionFailure("a frame's PNG: \(error)")
    }
    switch rendered.format {
    case .apng:
        precondition(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "an APNG without PNG's signature")
    case .webp:
        precondition(data.starts(with: Array("RIFF".utf8)) && data.dropFirst(8).starts(with: Array("WEBP".utf8)), "a WebP without its header")
    case .gif:
        let gif: DecodedGIF
        do { gif = try DecodedGIF([UInt8](data)) } catch { preconditionFailure("giflib cannot decode the GIF: \(error)") }
        precondition(gif.width == carousel.width && gif.height == carousel.height, "the GIF's canvas is not the carousel's size")
        let shown = gif.timelineFrames(fps: carousel.options.fps)
        precondition(shown.count == carousel.frameCount, "the GIF shows \(shown.count) timeline frames of \(carousel.frameCount)")
        for (k, image) in shown.enumerated() {
            let wrong = DecodedGIF.transparencyMismatches(carousel.frame(index: k), image)
            precondition(wrong == 0, "timeline frame \(k): \(wrong) pixels transparent in the GIF and not in the frame, or the reverse")
        }
    }
    return 0
}
