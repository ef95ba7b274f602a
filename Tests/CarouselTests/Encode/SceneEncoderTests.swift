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

    /// When dithering, moving frames share a palette two by two where both views are mostly
    /// texture, and keep one each over smooth pictures; the compact encoding keeps one
    /// group per move.
    @Test func texturedMovesPairTheirFrames() throws {
        var options = CarouselOptions()
        options.fps = 10
        options.hold = 0.3
        options.duration = 0.6
        options.size = PixelSize(width: 80, height: 32)
        options.itemWidth = 64
        options.spacing = 6
        let busy = try Carousel(images: CarouselRenderTests.busyItems(4), options: options).plan()
        let paired = SceneEncoder(plan: busy, colors: 256, dither: .ordered).groups.filter(\.isMoving)
        #expect(paired.contains { $0.frames.count == 2 })
        #expect(paired.allSatisfy { $0.frames.count <= 2 })
        // Every moving frame is in one group, in order.
        #expect(paired.flatMap { Array($0.frames) } == busy.scenes.filter(\.isMoving).flatMap { Array($0.frames) })
        let smooth = try Carousel(images: CarouselRenderTests.flatItems(4, width: 64, height: 32), options: options).plan()
        #expect(SceneEncoder(plan: smooth, colors: 256, dither: .ordered).groups.filter(\.isMoving)
            .allSatisfy { $0.frames.count == 1 })
        let compact = SceneEncoder(plan: busy, colors: 256, dither: .none).groups.filter(\.isMoving)
        #expect(compact.map(\.frames) == busy.scenes.filter(\.isMoving).map(\.frames))
    }
}
