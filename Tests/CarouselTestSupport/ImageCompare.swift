import Carousel

/// How many pixels differ between two images of the same size (all of them when sizes differ),
/// so a failing comparison reports a count instead of two pixel buffers.
public func differingPixels(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    guard a.width == b.width, a.height == b.height else { return max(a.width * a.height, b.width * b.height) }
    var count = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4)
    where a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1]
        || a.pixels[i + 2] != b.pixels[i + 2] || a.pixels[i + 3] != b.pixels[i + 3] {
        count += 1
    }
    return count
}

/// The largest difference of any channel of any pixel (255 when sizes differ).
public func maximumChannelDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    guard a.width == b.width, a.height == b.height else { return 255 }
    var worst = 0
    for i in 0..<a.pixels.count { worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
    return worst
}
