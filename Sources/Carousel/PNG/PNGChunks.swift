import CLibPNG

/// Walks the chunks of a PNG file in place: each chunk's type and where its body lies. The
/// one reader of chunk framing for the files carousel takes apart (an interlaced 16-bit PNG
/// it rewrites, an APNG it decodes, libpng's PNGs whose image data an APNG carries) and for
/// the check of every PNG it reads (``defect(in:)``).
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

    /// The width and height of the PNG file `bytes` (signature included) as its first chunk,
    /// an `IHDR` of 13 bytes whose CRC matches, declares them; nil for any other start.
    static func headerSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count >= 33, bytes[8] == 0, bytes[9] == 0, bytes[10] == 0, bytes[11] == 13,
              String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR" else { return nil }
        func word(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let computed = crc32(0, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + 12, 17)
        guard UInt32(truncatingIfNeeded: computed) == UInt32(word(29)) else { return nil }
        return (word(16), word(20))
    }

    /// What is wrong with the chunks of the PNG file `bytes` (signature included), or nil: a
    /// chunk whose CRC does not match its type and body (`tRNS: CRC error`, ancillary chunks
    /// too, which libpng would drop and decode without), a chunk that runs past the end, or
    /// no `IEND` (the file cut short). What follows `IEND` is not read.
    static func defect(in bytes: UnsafeRawBufferPointer) -> String? {
        var found: String?
        var ended = false, next = 8
        let whole = forEach(in: bytes) { type, range in
            next = range.upperBound + 4
            guard found == nil else { return }
            // PNG's limit; zlib's crc32 takes at most 4 GiB.
            guard range.count <= 0x7FFF_FFFF else {
                found = "\(type): chunk of \(range.count) bytes, more than a PNG chunk may hold"
                return
            }
            let end = range.upperBound
            let stored = UInt32(bytes[end]) << 24 | UInt32(bytes[end + 1]) << 16 | UInt32(bytes[end + 2]) << 8 | UInt32(bytes[end + 3])
            let computed = crc32(0, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + range.lowerBound - 4, uInt(range.count + 4))
            if UInt32(truncatingIfNeeded: computed) != stored { found = "\(type): CRC error" }
            if type == "IEND" { ended = true }
        }
        if let found { return found }
        // The walk stopped at a chunk whose length runs past the end: its type is at `next + 4`.
        guard whole else { return "truncated file (\(String(decoding: bytes[(next + 4)..<(next + 8)], as: UTF8.self)) chunk cut short)" }
        return ended ? nil : "truncated file (no IEND chunk)"
    }
}
