import CLibPNG
import Foundation

/// libFuzzer target: PNG decoding (libpng's simplified API and the interlaced 16-bit rewrite).
/// Any input must decode or throw `PNGError`; never crash, hang or leak.
///
/// Each input is decoded as it is, which the chunk check (`PNGChunks.defect(in:)`) mostly
/// refuses once a mutation lands inside a chunk, and again with every chunk's CRC made right,
/// so mutated chunk bodies still reach libpng and the rewrite.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // A small cap keeps each run fast; the cap itself is checked from the header.
    _ = try? PNGCodec.decode(data, name: "fuzz.png", maximumPixels: 1 << 20)
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
    if fixed != [UInt8](data) { _ = try? PNGCodec.decode(Data(fixed), name: "fuzz.png", maximumPixels: 1 << 20) }
    return 0
}
