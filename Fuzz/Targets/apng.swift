import Foundation

/// libFuzzer target: APNG decoding (`APNGDecoder`, what the `.animation()` snapshot strategy
/// reads its references with): chunks, frame controls, each frame through libpng, blending
/// and disposal. Any input must decode or throw `PNGError`; never crash, hang or leak.
///
/// As the png target does, each input is decoded as it is and again with every chunk's CRC
/// made right (`withChunkCRCsFixed`, Fuzz/Support), so mutated frame controls and image data reach the decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // A small budget keeps each run fast; the budget itself is checked before any frame is decoded.
    _ = try? APNGDecoder(data, name: "fuzz.apng", maximumPixels: 1 << 20)
    if let fixed = withChunkCRCsFixed(data) { _ = try? APNGDecoder(fixed, name: "fuzz.apng", maximumPixels: 1 << 20) }
    return 0
}
