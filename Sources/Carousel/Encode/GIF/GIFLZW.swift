/// GIF's LZW compression of a frame's indices, written the way giflib's `EGifPutLine`
/// writes it, bit for bit: a clear code first, a clear code whenever the code table is
/// full (giflib clears at 4095 codes rather than going on with a full table), codes
/// packed from the least significant bit, in sub-blocks of up to 255 bytes.
///
/// giflib's compressor looks each prefix and pixel up in a hash table through a function
/// call, and buffers every byte through another; here the same dictionary is kept inline.
/// The writer hands each sub-block to giflib as a raw code block (`EGifPutCode`) as soon
/// as it is full.
enum GIFLZW {
    /// The sub-blocks (each a length byte and its bytes, no terminator) of `indices`, coded
    /// with `minimumCodeSize` bits per pixel (2...8, the size written before the data).
    static func compress(_ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int) -> [UInt8] {
        var blocks: [UInt8] = []
        compress(indices, minimumCodeSize: minimumCodeSize) { blocks.append(contentsOf: $0) }
        return blocks
    }

    /// Compresses `indices` as ``compress(_:minimumCodeSize:)`` does, handing each sub-block
    /// (its length byte first) to `block` as soon as it is full, so no buffer grows with
    /// the frame.
    static func compress(_ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int,
                         block: (UnsafeBufferPointer<UInt8>) -> Void) {
        // The dictionary, (prefix code << 8 | pixel) to code by open addressing in 8192 slots
        // (at most 4095 codes are live, so it stays at most half full); an entry packs the
        // 20-bit key above the 12-bit code.
        let slots = UnsafeMutablePointer<UInt32>.allocate(capacity: 8192)
        slots.initialize(repeating: .max, count: 8192)
        // The sub-block being filled: its length, then up to 255 bytes.
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        out[0] = 0
        defer {
            slots.deallocate()
            out.deallocate()
        }
        @inline(__always) func slot(_ key: Int) -> Int { Int((UInt32(truncatingIfNeeded: key) &* 2_654_435_761) >> 19) }
        let clear = 1 << minimumCodeSize, end = clear + 1
        var next = end + 1, bits = minimumCodeSize + 1, limit = 1 << bits
        var accumulator = 0, pending = 0
        @inline(__always) func put(_ byte: UInt8) {
            if out[0] == 255 {
                block(UnsafeBufferPointer(start: out, count: 256))
                out[0] = 0
            }
            out[0] &+= 1
            out[Int(out[0])] = byte
        }
        @inline(__always) func emit(_ code: Int) {
            accumulator |= code << pending
            pending &+= bits
            while pending >= 8 {
                put(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                pending &-= 8
            }
            if next >= limit && code <= 4095 {
                bits &+= 1
                limit = 1 << bits
            }
        }
        emit(clear)
        var current = indices.isEmpty ? -1 : Int(indices[0])
        var i = 1
        while i < indices.count {
            let pixel = Int(indices[i])
            i &+= 1
            let key = current << 8 | pixel
            var s = slot(key), found = -1
            while slots[s] != .max {
                if Int(slots[s] >> 12) == key {
                    found = Int(slots[s] & 0xFFF)
                    break
                }
                s = (s &+ 1) & 8191
            }
            if found >= 0 {
                current = found
                continue
            }
            emit(current)
            current = pixel
            if next >= 4095 {
                emit(clear)
                next = end + 1
                bits = minimumCodeSize + 1
                limit = 1 << bits
                slots.update(repeating: .max, count: 8192)
            } else {
                // `s` is the empty slot the search ended on.
                slots[s] = UInt32(key) << 12 | UInt32(next)
                next &+= 1
            }
        }
        if current >= 0 { emit(current) }
        emit(end)
        // The last bits, padded to a byte.
        if pending > 0 { put(UInt8(truncatingIfNeeded: accumulator)) }
        if out[0] > 0 { block(UnsafeBufferPointer(start: out, count: Int(out[0]) + 1)) }
    }
}
