/// GIF's LZW compression of a frame's indices, written the way giflib's `EGifPutLine`
/// writes it, bit for bit: a clear code first, a clear code whenever the code table is
/// full (giflib clears at 4095 codes rather than going on with a full table), codes
/// packed from the least significant bit, in sub-blocks of up to 255 bytes.
///
/// giflib's compressor looks each prefix and pixel up in a hash table through a function
/// call, and buffers every byte through another; here the same dictionary is kept inline,
/// and the codes are packed into one buffer a word at a time, then cut into sub-blocks.
/// The writer hands each sub-block to giflib as a raw code block (`EGifPutCode`).
enum GIFLZW {
    /// The sub-blocks (each a length byte and its bytes, no terminator) of `indices`, coded
    /// with `minimumCodeSize` bits per pixel (2...8, the size written before the data).
    static func compress(_ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int) -> [UInt8] {
        var blocks: [UInt8] = []
        compress(indices, minimumCodeSize: minimumCodeSize) { blocks.append(contentsOf: $0) }
        return blocks
    }

    /// Compresses `indices` as ``compress(_:minimumCodeSize:)`` does, handing each sub-block
    /// (its length byte first) to `block`, in order.
    ///
    /// The codes are packed into a buffer sized for the frame (at most 12 bits a pixel):
    /// each code is or-ed into a 64-bit word that is stored whole, and the position moves on
    /// by the bytes it completed, without a branch per byte. Against a byte at a time, cut
    /// into sub-blocks as they filled, this took the compression of the benchmark GIFs'
    /// frames (timed alone, three passes) from 0.068–0.074 s to 0.060–0.062 s (sample
    /// banners), 0.138–0.148 s to 0.112–0.114 s (photos) and 0.406–0.418 s to
    /// 0.342–0.353 s (gradients), with the same bytes.
    ///
    /// A code is always the string that ends in the pixel before the one read, so where a
    /// pixel repeats that one (40 to 54% of the pixels of the benchmark GIFs' frames: runs
    /// of one colour, and the transparent runs of unchanged pixels) the code it extends to
    /// is kept by code in a table of 4096 (`repeated`), looked up without hashing or
    /// probing; other strings stay in the hash table, which then holds fewer. With the same
    /// bytes, the compressor's CPU samples in a gradients render (`perf record -e cpu-clock
    /// -F 4000`, four alternating runs) went from 289–315 to 275–299, about 6% less; the
    /// render's CPU time (least / mean of six alternating runs of `bench/render-cpu.py`)
    /// from 0.301 / 0.312 to 0.293 / 0.300 s on the sample banners and 1.878 / 1.913 to
    /// 1.833 / 1.869 s on the gradients, the photos the same (0.679 / 0.692 and
    /// 0.679 / 0.691 s); ten more runs on a busier machine: 0.302 / 0.346 against
    /// 0.296 / 0.334 s, 1.890 / 2.076 against 1.865 / 2.098 s and 0.680 / 0.773 against
    /// 0.689 / 0.787 s, within the noise.
    ///
    /// Ordered dithering alternates two entries along a row, so a pixel often repeats the one
    /// two before it: the second-to-last pixel of the current code's string, when the string
    /// has at least two (every code made after the roots does). Those extensions are kept by
    /// code too, in a second table of 4096 (`alternate`), and only the other pixels are hashed.
    /// Which table holds a string depends on the string alone (its last two pixels and the one
    /// read), so every lookup finds what the matching insertion stored. In the frames of the
    /// benchmark GIFs, 59% of the pixels that were hashed on the gradients and 71% on the sample
    /// banners repeat the pixel two before, 19% on the photographs. With the same bytes,
    /// `bench/lzw-time.swift` went from 5.25–5.28 to 4.61–4.62 ns a pixel on a gradients
    /// render's GIF, 5.45–5.46 to 4.53–4.58 on the sample banners' and 7.86–7.87 to 7.86–7.88
    /// on the photographs' (two runs each, the third pass). Twelve alternating runs of
    /// `bench/render-cpu.py` (medians of wall and CPU time): gradients 0.668 and 1.278 s before,
    /// 0.645 and 1.228 s after; sample banners 0.114 and 0.196 s, 0.110 and 0.188 s; photos
    /// 0.289 and 0.528 s, 0.290 and 0.535 s.
    ///
    /// The two tables' tests take one branch between them, the table chosen by a select: in
    /// texture a pixel repeats either neighbour unpredictably, and each test was a branch the
    /// processor mispredicted. With the same bytes, `bench/lzw-time.swift` (passes 4 and 5) went
    /// from 6.24–6.27 to 5.89–5.91 ns a pixel on the photographs' GIF, 3.35–3.37 to 3.24–3.26
    /// on the gradients' and 3.19–3.23 to 3.12 on the sample banners'.
    static func compress(_ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int,
                         block: (UnsafeBufferPointer<UInt8>) -> Void) {
        // The dictionary, (prefix code << 8 | pixel) to code by open addressing in 16384 slots
        // (at most 4095 codes are live, so it stays at most a quarter full); an entry packs the
        // 20-bit key above the 12-bit code. With the same bytes, `bench/lzw-time.swift` (third
        // pass, two runs each) on the benchmark's GIFs: photographs 7.27–7.28 ns a pixel with
        // 8192 slots (at most half full), 6.86–6.95 with 16384, 6.73–6.74 with 32768; the
        // photographs' and gradients' together 4.50–4.51, 4.34–4.36 and 4.30–4.31; the sample
        // banners 3.65–3.66, 3.60–3.61 and 3.60–3.61. Fewer probes pay for a table of 64 KiB
        // (twice a core's first-level data cache on the benchmark's machine); 32768 slots, 128
        // KiB set again at every clear code, gain a little more on photographs only.
        let slots = UnsafeMutablePointer<UInt32>.allocate(capacity: 16384)
        slots.initialize(repeating: .max, count: 16384)
        // A code extended by its own last pixel (the pixel before the one read, in a run of
        // one index) is kept apart, by code: `repeated[code]`, or .max when not yet made.
        let repeated = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
        repeated.initialize(repeating: .max, count: 4096)
        // A code extended by the pixel before its last (its string has at least two pixels, and
        // that one differs from its last) is kept apart too: `alternate[code]`.
        let alternate = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
        alternate.initialize(repeating: .max, count: 4096)
        // Every pixel emits at most one code of at most 12 bits, a clear code comes after at
        // least 3,837 others (4,095 less the 258 that 8-bit pixels start with), and an end
        // code closes: 1.5 bytes a pixel, a few more, and 8 bytes of room for the word stored
        // past the last.
        let capacity = indices.count + indices.count / 2 + indices.count / 1024 + 16
        let packed = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer {
            slots.deallocate()
            repeated.deallocate()
            alternate.deallocate()
            packed.deallocate()
        }
        @inline(__always) func slot(_ key: Int) -> Int { Int((UInt32(truncatingIfNeeded: key) &* 2_654_435_761) >> 18) }
        let clear = 1 << minimumCodeSize, end = clear + 1
        var next = end + 1, bits = minimumCodeSize + 1, limit = 1 << bits
        // The bits not yet complete bytes (fewer than 8) sit at the bottom of `accumulator`.
        var accumulator: UInt64 = 0, pending = 0, position = 0
        // Shifts by amounts known to be below 64 (`pending` < 8, at most 19 bits pending after a
        // code), masking shifts: no check for an amount past the width.
        @inline(__always) func emit(_ code: Int) {
            accumulator |= UInt64(truncatingIfNeeded: code) &<< UInt64(truncatingIfNeeded: pending)
            pending &+= bits
            packed.storeBytes(of: accumulator.littleEndian, toByteOffset: position, as: UInt64.self)
            let complete = pending &>> 3
            position &+= complete
            accumulator &>>= UInt64(truncatingIfNeeded: complete &<< 3)
            pending &= 7
            if next >= limit && code <= 4095 {
                bits &+= 1
                limit = 1 &<< bits
            }
        }
        emit(clear)
        var current = indices.isEmpty ? -1 : Int(indices[0])
        var last = current
        // `current` extended by the pixel read is not in the dictionary: emits `current` and
        // returns the code the longer string takes, or nil when the table is full, in which
        // case a clear code follows and both tables start again.
        @inline(__always) func miss() -> Int? {
            emit(current)
            guard next < 4095 else {
                emit(clear)
                next = end + 1
                bits = minimumCodeSize + 1
                limit = 1 << bits
                slots.update(repeating: .max, count: 16384)
                repeated.update(repeating: .max, count: 4096)
                alternate.update(repeating: .max, count: 4096)
                return nil
            }
            defer { next &+= 1 }
            return next
        }
        // `current` extended by `pixel` where `table` (one of the two kept by code) holds that
        // extension if it was made: the longer string's code, or a new one after `current`.
        @inline(__always) func extend(_ pixel: Int, in table: UnsafeMutablePointer<UInt16>) {
            let child = table[current]
            if child != .max {
                current = Int(child)
                return
            }
            if let code = miss() { table[current] = UInt16(truncatingIfNeeded: code) }
            current = pixel
        }
        var i = 1
        while i < indices.count {
            let pixel = Int(indices[i])
            i &+= 1
            // `current` ends in `last`: where `pixel` repeats it, the child by `pixel` is in
            // `repeated` or nowhere. A code above `end` was made by the compressor, so its string
            // has at least two pixels and ends in the pixel before the one read: where `pixel`
            // repeats the one before that (at i - 3), the child is in `alternate` or nowhere.
            // One branch for both, the table chosen by a select.
            let same = pixel == last
            let two = current > end && Int(indices[i &- 3]) == pixel
            last = pixel
            if same || two {
                extend(pixel, in: same ? repeated : alternate)
                continue
            }
            let key = current << 8 | pixel
            var s = slot(key), found = -1
            while slots[s] != .max {
                if Int(slots[s] >> 12) == key {
                    found = Int(slots[s] & 0xFFF)
                    break
                }
                s = (s &+ 1) & 16383
            }
            if found >= 0 {
                current = found
                continue
            }
            // `s` is the empty slot the search ended on.
            if let code = miss() { slots[s] = UInt32(key) << 12 | UInt32(code) }
            current = pixel
        }
        if current >= 0 { emit(current) }
        emit(end)
        // The last bits, padded to a byte.
        if pending > 0 { position &+= 1 }
        // Cut into sub-blocks: a length byte, then up to 255 bytes.
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        defer { out.deallocate() }
        var at = 0
        while at < position {
            let n = min(255, position - at)
            out[0] = UInt8(n)
            UnsafeMutableRawPointer(out + 1).copyMemory(from: packed + at, byteCount: n)
            block(UnsafeBufferPointer(start: out, count: n + 1))
            at += n
        }
    }
}
