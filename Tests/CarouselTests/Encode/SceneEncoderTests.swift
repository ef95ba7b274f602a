@testable import Carousel
import Testing

@Suite struct SceneEncoderTests {
    /// A rest's pixel counts in its palette once, and once more for every frame after the
    /// rest that shows the same colour there, up to the limit: checked against the exact
    /// timeline frames.
    @Test func restPixelsCountByHowLongTheyStay() throws {
        var options = CarouselOptions()
        options.fps = 20
        options.hold = 0.2
        options.duration = 1.2
        options.dots.placement = .none
        // The left half of each item one flat colour (it stays while the item slides), the
        // right half a different colour every pixel (it changes with every frame).
        let items = (0..<3).map { k in
            var image = RGBAImage(width: 64, height: 40)
            for y in 0..<40 {
                for x in 0..<64 {
                    let n = UInt32(truncatingIfNeeded: (k * 40 + y) * 64 + x) &* 2_654_435_761
                    image[x, y] = x < 32 ? RGBA(r: UInt8(40 + k * 60), g: 90, b: 200)
                        : RGBA(r: UInt8(truncatingIfNeeded: n >> 8), g: UInt8(truncatingIfNeeded: n >> 16),
                               b: UInt8(truncatingIfNeeded: n >> 24))
                }
            }
            return image
        }
        let carousel = try Carousel(images: items, options: options)
        let plan = carousel.plan()
        let encoder = SceneEncoder(plan: plan, colors: 256, dither: .ordered)
        let rest = try #require(encoder.groups.first { !$0.isMoving })
        let counts = encoder.restCounts(rest)
        #expect(counts.count == plan.width * plan.layer.height)
        let last = plan.frames[rest.frames.upperBound - 1]
        let restTime = last.source + last.span - 1
        let shown = carousel.frame(index: restTime)
        let later = (restTime + 1..<min(carousel.frameCount, restTime + SceneEncoder.restStaysLimit))
            .map { carousel.frame(index: $0) }
        var once = 0, most = 0
        for y in 0..<plan.layer.height {
            for x in 0..<plan.width {
                var expected = 1
                for frame in later {
                    guard frame[x, y] == shown[x, y] else { break }
                    expected += 1
                }
                #expect(Int(counts[y * plan.width + x]) == expected, "pixel (\(x), \(y))")
                if expected == 1 { once += 1 }
                if expected == SceneEncoder.restStaysLimit { most += 1 }
            }
        }
        #expect(once > 0, "some pixels change with the first moving frame")
        #expect(most > 0, "some pixels stay for the whole limit")
    }
}
