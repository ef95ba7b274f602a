import Foundation

/// libFuzzer target: the encoders, from small images and options read from the bytes
/// (`FuzzRender`). Any input must render or throw a one-line `CarouselError`; never crash,
/// read or write out of bounds, or leak; the file must have none of `FuzzRender.problems`
/// (a GIF or a WebP is decoded by the suite's giflib or libwebp reader, which `scripts/fuzz`
/// compiles in; an APNG by the library's own `APNGDecoder`). One
/// frame, chosen by the last byte, goes through `carousel frames`' PNG writer and back
/// through libpng, and must come back pixel for pixel.
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
    let problems = FuzzRender.problems(carousel, format: rendered.format, data: data)
    precondition(problems.isEmpty, problems.joined(separator: "; "))
    return 0
}
