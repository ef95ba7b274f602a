import CLibPNG
import Foundation

/// `data` with every whole chunk's CRC made right, or nil where they all were: the png and
/// apng targets decode both, so mutated chunk bodies get past the CRC check to the decoders.
func withChunkCRCsFixed(_ data: Data) -> Data? {
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
    return fixed != [UInt8](data) ? Data(fixed) : nil
}
