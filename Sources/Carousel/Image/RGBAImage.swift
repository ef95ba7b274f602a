#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An 8-bit RGBA image with straight (non-premultiplied) alpha, rows top to bottom.
///
/// Pixels are plain values: a flat buffer of `width * height * 4` bytes, so every
/// stage of the pipeline can hand images around, compare them with `==` and test
/// them in memory.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels, `[r, g, b, a]` per pixel, row after row with no padding.
    ///
    /// Settable inside the library only, so no caller can break `count == width * height * 4`.
    public internal(set) var pixels: [UInt8]

    /// Creates an image from its pixels.
    ///
    /// - Precondition: `width >= 0 && height >= 0`, and `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        precondition(width >= 0 && height >= 0 && !overflow && area <= Int.max / 4 && pixels.count == area * 4,
                     "RGBAImage: pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates an image filled with one colour.
    ///
    /// - Precondition: `width >= 0 && height >= 0`, and its bytes fit in an `Int`.
    public init(width: Int, height: Int, fill: RGBA = .clear) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        precondition(width >= 0 && height >= 0 && !overflow && count <= Int.max / 4,
                     "RGBAImage: an image is at least 0x0 and its bytes fit in an Int, got \(width)x\(height)")
        self.width = width
        self.height = height
        guard fill != .clear else {
            pixels = [UInt8](repeating: 0, count: count * 4)
            return
        }
        pixels = [UInt8].written(count * 4) { buffer in
            RGBAImage.fill(UnsafeMutableRawPointer(buffer.baseAddress!), pixels: count, with: fill)
        }
    }

    /// Writes `color` to the `count` pixels (bytes r, g, b, a) from `start`, a pixel (four
    /// bytes) at a time: a loop the compiler vectorizes.
    static func fill(_ start: UnsafeMutableRawPointer, pixels count: Int, with color: RGBA) {
        let word = color.word
        for i in 0..<count { start.storeBytes(of: word.littleEndian, toByteOffset: i &* 4, as: UInt32.self) }
    }

    /// The colour at column `x`, row `y`.
    ///
    /// - Precondition: `0 <= x < width` and `0 <= y < height` (a column past the row's end
    ///   would otherwise read the next row).
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "RGBAImage: (\(x), \(y)) lies outside \(width)x\(height)")
            let i = (y * width + x) * 4
            return RGBA(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "RGBAImage: (\(x), \(y)) lies outside \(width)x\(height)")
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// Copies the `width x height` block at (`x`, `y`) of this image into a new image.
    ///
    /// The block must lie inside the image; the renderer's geometry guarantees it.
    public func cropped(x: Int, y: Int = 0, width w: Int, height h: Int) -> RGBAImage {
        cropped(x: x, y: y, width: w, height: h, padding: 0, fill: .clear)
    }

    /// ``cropped(x:y:width:height:)`` with `padding` rows of `fill` below the block: what the
    /// crop pasted on a filled image gives, in one buffer written once (a frame with a footer
    /// band; the crop, the fill and the paste wrote three).
    func cropped(x: Int, y: Int = 0, width w: Int, height h: Int, padding: Int, fill: RGBA) -> RGBAImage {
        precondition(x >= 0 && y >= 0 && x + w <= width && y + h <= height && padding >= 0,
                     "RGBAImage.cropped: \(w)x\(h) at (\(x), \(y)) is outside \(width)x\(height)")
        let out = [UInt8].written(w * (h + padding) * 4) { dst in
            pixels.withUnsafeBufferPointer { src in
                for row in 0..<h {
                    let from = ((y + row) * width + x) * 4
                    (dst.baseAddress! + row * w * 4).initialize(from: src.baseAddress! + from, count: w * 4)
                }
            }
            if padding > 0 {
                RGBAImage.fill(UnsafeMutableRawPointer(dst.baseAddress! + w * h * 4), pixels: w * padding, with: fill)
            }
        }
        return RGBAImage(width: w, height: h + padding, pixels: out)
    }

    /// Copies `source` into this image with its top-left corner at (`x`, `y`), replacing pixels.
    ///
    /// Parts of `source` that fall outside this image are dropped.
    public mutating func paste(_ source: RGBAImage, x: Int, y: Int) {
        // Wholly outside: nothing to paste (and the sums below stay within Int).
        guard x < width, y < height, x > -source.width, y > -source.height else { return }
        let x0 = max(0, x), x1 = min(width, x + source.width)
        let y0 = max(0, y), y1 = min(height, y + source.height)
        guard x0 < x1, y0 < y1 else { return }
        let count = (x1 - x0) * 4
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for row in y0..<y1 {
                    let from = ((row - y) * source.width + (x0 - x)) * 4
                    let to = (row * width + x0) * 4
                    (dst.baseAddress! + to).update(from: src.baseAddress! + from, count: count)
                }
            }
        }
    }

    /// Whether every pixel's alpha is 255.
    var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            // Every alpha 255, without a branch a pixel.
            var all: UInt8 = 255
            for i in stride(from: 3, to: p.count, by: 4) { all &= p[i] }
            return all == 255
        }
    }

    /// Composites every pixel over an opaque-or-not `background` (Porter-Duff "over").
    ///
    /// With an opaque background the result is opaque; this is how transparent
    /// pixels of an item take the carousel's background colour. An opaque image is
    /// returned as it is, without a copy.
    public func composited(over background: RGBA) -> RGBAImage {
        if isOpaque { return self }
        var out = self
        out.pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] != 255 {
                let pixel = RGBA(r: p[i], g: p[i + 1], b: p[i + 2], a: p[i + 3])
                let c = pixel.over(background)
                p[i] = c.r
                p[i + 1] = c.g
                p[i + 2] = c.b
                p[i + 3] = c.a
            }
        }
        return out
    }

    /// Whether the `count` pixels of row `y` from column `a` are those from column `b`.
    func pixelsMatch(row y: Int, _ a: Int, _ b: Int, count: Int) -> Bool {
        precondition(y >= 0 && y < height && min(a, b) >= 0 && max(a, b) + count <= width && count >= 0,
                     "RGBAImage.pixelsMatch: columns outside the image")
        return pixels.withUnsafeBytes { raw in
            let row = raw.baseAddress! + y * width * 4
            return memcmp(row + a * 4, row + b * 4, count * 4) == 0
        }
    }

    /// The bounding box of the pixels that differ from `other` (of the same size), as
    /// (left, top, width, height); width 0 when none do.
    public func changedRect(from other: RGBAImage) -> (left: Int, top: Int, width: Int, height: Int) {
        precondition(other.width == width && other.height == height, "changedRect compares images of the same size")
        return pixels.withUnsafeBytes { ra in
            other.pixels.withUnsafeBytes { rb in
                let pa = ra.bindMemory(to: UInt32.self).baseAddress, pb = rb.bindMemory(to: UInt32.self).baseAddress
                let w = width
                return RGBAImage.changedRect(width: w, height: height) { y in (UnsafePointer(pa! + y * w), UnsafePointer(pb! + y * w)) }
            }
        }
    }

    /// The bounding box of the pixels where two pictures of `width x height` differ, as
    /// (left, top, width, height), width 0 when none do; `rows(y)` gives row y of each (its
    /// pixels as words). A row both give at one address is unchanged without a look.
    static func changedRect(width: Int, height: Int,
                            rows: (Int) -> (UnsafePointer<UInt32>, UnsafePointer<UInt32>)) -> (left: Int, top: Int, width: Int, height: Int) {
        guard width > 0 && height > 0 else { return (0, 0, 0, 0) }
        var x0 = width, x1 = -1, y0 = height, y1 = -1
        for y in 0..<height {
            let (pa, pb) = rows(y)
            // An unchanged row in one comparison; a changed one from each end to its first difference.
            if pa == pb || memcmp(pa, pb, width * 4) == 0 { continue }
            var first = 0, last = width - 1
            while pa[first] == pb[first] { first += 1 }
            while pa[last] == pb[last] { last -= 1 }
            x0 = min(x0, first)
            x1 = max(x1, last)
            y0 = min(y0, y)
            y1 = y
        }
        return x1 < 0 ? (0, 0, 0, 0) : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }
}
