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
    if let fixed = withChunkCRCsFixed(data) { _ = try? PNGCodec.decode(fixed, name: "fuzz.png", maximumPixels: 1 << 20) }
    return 0
}
