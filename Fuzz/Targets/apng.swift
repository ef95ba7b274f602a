import CLibPNG
import Foundation

/// libFuzzer target: APNG decoding (`APNGDecoder`, what the `.animation()` snapshot strategy
/// reads its references with): chunks, frame controls, each frame through libpng, blending
/// and disposal. Any input must decode or throw `PNGError`; never crash, hang or leak.
///
/// As the png target does, each input is decoded as it is and again with every chunk's CRC
/// made right, so mutated frame controls and image data reach the decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // A small budget keeps each run fast; the budget itself is checked before any frame is decoded.
    _ = try? APNGDecoder(data, name: "fuzz.apng", maximumPixels: 1 << 20)
    var fixed = [UInt8](data)
    var at = 8
    while fixed.count - at >= 12 {
        let length = Int(fixed[at]) << 24 | Int(fixed[at + 1]) << 16 | Int(fixed[at + 2]) << 8 | Int(fixed[at + 3])
        guard length <= fixed.count - at - 12 else { break }
        let crc = fixed.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress! + at + 4, uInt(length + 4))) }
        let end = at + 8 + length
        for k in 0..<4 { fixed[end + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
        at = end + 4
    }
    if fixed != [UInt8](data) { _ = try? APNGDecoder(Data(fixed), name: "fuzz.apng", maximumPixels: 1 << 20) }
    return 0
}
