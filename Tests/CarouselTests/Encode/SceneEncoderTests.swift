@testable import Carousel
import Testing

@Suite struct SceneEncoderTests {
    /// A rest's pixel counts in its palette once, and once more for every frame after the
    /// rest that shows the same colour there, up to the limit: checked against the exact
    /// timeline frames.
    @Test func restPixelsCountByHowLongTheyStay() throws {
        let options = Fixtures.shortMoves(duration: 1.2)
        // The left half of each item one flat colour (it stays while the item slides), the
        // right half a different colour every pixel (it changes with every frame).
        let items = Fixtures.halfStillItems(height: 40) { k, _ in RGBA(r: UInt8(40 + k * 60), g: 90, b: 200) }
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
