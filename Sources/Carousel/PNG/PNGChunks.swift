/// Walks the chunks of a PNG file in place: each chunk's type and where its body lies. The
/// one reader of chunk framing for the files carousel takes apart (an interlaced 16-bit PNG
/// it rewrites, an APNG it decodes, libpng's PNGs whose image data an APNG carries).
enum PNGChunks {
    /// Calls `body` with each chunk after the 8-byte signature, in order: its type and the
    /// range of its body in `bytes` (the CRC is the 4 bytes after it, over the type and the
    /// body). Stops after `IEND`, or before fewer than 12 bytes, a chunk's least. Returns
    /// false where a chunk's length runs past the end of `bytes` (a truncated file), after
    /// the chunks before it.
    @discardableResult
    static func forEach<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, _ body: (_ type: String, _ range: Range<Int>) -> Void) -> Bool
        where Bytes.Index == Int {
        var at = bytes.startIndex + 8
        while bytes.endIndex - at >= 12 {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length <= bytes.endIndex - at - 12 else { return false }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let range = (at + 8)..<(at + 8 + length)
            at = range.upperBound + 4
            body(type, range)
            if type == "IEND" { break }
        }
        return true
    }
}
