@testable import Carousel
import Testing

struct RGBAImageTests {
    /// The changed rectangle is the bounding box of the differing pixels, against a scan of
    /// every pixel: single pixels at the corners and edges, pixels in different rows and
    /// columns, and none.
    @Test(arguments: [
        [(0, 0)], [(15, 0)], [(0, 9)], [(15, 9)], [(7, 4)],
        [(3, 2), (11, 7)], [(12, 1), (2, 8)], [(0, 5), (15, 5)], [(6, 0), (6, 9), (9, 3)], [],
    ])
    func changedRectBoundsTheDifferences(_ changed: [(Int, Int)]) {
        var before = RGBAImage(width: 16, height: 10)
        for y in 0..<10 {
            for x in 0..<16 { before[x, y] = RGBA(r: UInt8(x * 9), g: UInt8(y * 20), b: 77) }
        }
        var after = before
        for (x, y) in changed { after[x, y] = RGBA(r: 1, g: 2, b: 3) }
        let rect = after.changedRect(from: before)
        if changed.isEmpty {
            #expect(rect.width == 0)
            return
        }
        let xs = changed.map(\.0), ys = changed.map(\.1)
        #expect(rect.left == xs.min()! && rect.top == ys.min()!)
        #expect(rect.width == xs.max()! - xs.min()! + 1 && rect.height == ys.max()! - ys.min()! + 1)
    }

    /// A crop with rows of a colour below it is the crop pasted on an image filled with that
    /// colour (a frame with its footer band), with and without rows below, and with the
    /// clear colour.
    @Test(arguments: [(0, RGBA(r: 9, g: 80, b: 200)), (3, RGBA(r: 9, g: 80, b: 200)), (2, RGBA.clear)])
    func paddedCropIsTheCropOnAFill(_ padding: Int, _ fill: RGBA) {
        var strip = RGBAImage(width: 20, height: 6)
        for y in 0..<6 {
            for x in 0..<20 { strip[x, y] = RGBA(r: UInt8(x * 11), g: UInt8(y * 40), b: UInt8(x * y), a: UInt8(255 - x)) }
        }
        var expected = RGBAImage(width: 9, height: 6 + padding, fill: fill)
        expected.paste(strip.cropped(x: 7, width: 9, height: 6), x: 0, y: 0)
        #expect(strip.cropped(x: 7, width: 9, height: 6, padding: padding, fill: fill) == expected)
    }

    /// Pasting wholly outside, however far, changes nothing (`Int.max` overflowed).
    @Test func pasteFarOutside() {
        var image = RGBAImage(width: 4, height: 4, fill: .white)
        let before = image
        let dot = RGBAImage(width: 2, height: 2, fill: RGBA(r: 255, g: 0, b: 0))
        for (x, y) in [(Int.max, 0), (0, Int.max), (Int.min, 0), (0, Int.min), (4, 0), (-2, 0)] {
            image.paste(dot, x: x, y: y)
            #expect(image == before, "(\(x), \(y))")
        }
        image.paste(dot, x: 3, y: -1)
        #expect(image[3, 0] == RGBA(r: 255, g: 0, b: 0) && image[3, 1] == .white)
    }
}
