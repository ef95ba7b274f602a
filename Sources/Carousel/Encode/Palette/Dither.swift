/// How colours between palette entries are approximated when a frame needs more than its palette.
public enum Dither: String, CaseIterable, Codable, Sendable {
    /// Nearest palette colour, no pattern.
    case none
    /// An 8x8 Bayer threshold pattern, fixed to the frame's pixel grid.
    case ordered
    /// Floyd–Steinberg error diffusion, serpentine scan.
    case diffusion
}

/// The 8x8 Bayer matrix, values 0..<64.
let bayer8: [Int] = {
    var m = [Int](repeating: 0, count: 64)
    for y in 0..<8 {
        for x in 0..<8 {
            var v = 0
            var xc = x ^ y, yc = y
            for bit in 0..<3 {
                v |= ((yc & 1) << (2 * (2 - bit) + 0)) | ((xc & 1) << (2 * (2 - bit) + 1))
                xc >>= 1
                yc >>= 1
            }
            m[y * 8 + x] = v
        }
    }
    return m
}()
