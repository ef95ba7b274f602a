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

/// The mean difference, `a` less `b`, of each colour channel over every `size` x `size`
/// square of two images of the same size, tiled from the top left (a part square at the right
/// or bottom edge left out), row by row; nil for a square where `b` has a pixel that is not
/// opaque. A pattern dither averages out over a small square; posterized colour or a trail
/// of wrong pixels does not.
public func squareMeanDifferences(_ a: RGBAImage, _ b: RGBAImage, size: Int = 4) -> [(r: Double, g: Double, b: Double)?] {
    precondition(a.width == b.width && a.height == b.height && size > 0)
    var squares: [(r: Double, g: Double, b: Double)?] = []
    let n = Double(size * size)
    for top in stride(from: 0, through: a.height - size, by: size) {
        for left in stride(from: 0, through: a.width - size, by: size) {
            var sum = (0, 0, 0), opaque = true
            for y in top..<(top + size) {
                for x in left..<(left + size) {
                    let p = a[x, y], q = b[x, y]
                    opaque = opaque && q.a == 255
                    sum.0 += Int(p.r) - Int(q.r)
                    sum.1 += Int(p.g) - Int(q.g)
                    sum.2 += Int(p.b) - Int(q.b)
                }
            }
            squares.append(opaque ? (Double(sum.0) / n, Double(sum.1) / n, Double(sum.2) / n) : nil)
        }
    }
    return squares
}
