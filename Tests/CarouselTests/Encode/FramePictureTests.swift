@testable import Carousel
import Testing

/// A planned frame's picture read from the layer where it lies, with only its overlay and
/// footer rows made, is the plan's picture to the byte.
@Suite struct FramePictureTests {
    /// Carousels with each thing that draws over the layer: dots over it, dots in a footer
    /// below it, none, and a finger's touch indicator (anywhere in the picture) with dots.
    static func carousels() throws -> [(name: String, carousel: Carousel)] {
        let items = CarouselRenderTests.busyItems(3, width: 80, height: 48)
        var cases: [(String, Carousel)] = []
        for dots in [DotsPlacement.overlay, .footer, .none] {
            var options = Fixtures.shortMoves(duration: 0.3)
            options.dots.placement = dots
            cases.append(("dots \(dots)", try Carousel(images: items, options: options)))
        }
        var options = Fixtures.shortMoves(duration: 0.3)
        options.dots.placement = .overlay
        options.script = try Script(parsing: "hold 0.2; drag -30 0.4; release; hold 0.5")
        cases.append(("touches", try Carousel(images: items, options: options)))
        return cases
    }

    @Test func picturesAreThePlansPictures() throws {
        for (name, carousel) in try Self.carousels() {
            let plan = carousel.plan()
            #expect(plan.frames.count > 4, "\(name)")
            var partial = 0
            for k in plan.frames.indices {
                let picture = FramePicture(plan, frame: k)
                let same = picture.image == plan.picture(plan.frames[k].source)
                #expect(same, "\(name): frame \(k)")
                #expect(picture.made.height == plan.height - picture.top)
                if picture.top > 0 && picture.top < plan.height { partial += 1 }
                // Only overlay and footer rows are made.
                let boxTop = plan.frames[k].overlayBoxes.map { max(0, $0.y0) }.min() ?? plan.height
                #expect(picture.top == min(boxTop, plan.layer.height), "\(name): frame \(k)")
            }
            if name != "dots none" { #expect(partial > 0, "\(name): some pictures read most rows from the layer") }
        }
    }

    @Test func changedRectIsTheImagesChangedRect() throws {
        for (name, carousel) in try Self.carousels() {
            let plan = carousel.plan()
            let pictures = plan.frames.indices.map { FramePicture(plan, frame: $0) }
            let images = pictures.map(\.image)
            var changes = 0
            for k in 1..<pictures.count {
                for j in [0, k - 1] {
                    let rect = pictures[k].changedRect(from: pictures[j])
                    #expect(rect == images[k].changedRect(from: images[j]), "\(name): frames \(j), \(k)")
                    if rect.width > 0 { changes += 1 }
                }
            }
            #expect(changes > 0, "\(name)")
            #expect(pictures[1].changedRect(from: pictures[1]) == (0, 0, 0, 0))
        }
    }

    /// The rows of a frame from any row down, overlays cut through included, are the frame's.
    @Test(SlowTests.rendersAtLength) func rowsFromAnyRowAreTheFramesRows() throws {
        for (name, carousel) in try Self.carousels() {
            let width = carousel.width
            for i in stride(from: 0, to: carousel.frameCount, by: 3) {
                let whole = carousel.frame(index: i)
                for top in 0...carousel.height {
                    let rows = carousel.frame(index: i, from: top)
                    #expect(rows.width == width && rows.height == carousel.height - top)
                    let same = rows.pixels[...] == whole.pixels[(top * width * 4)...]
                    #expect(same, "\(name): frame \(i) from row \(top)")
                }
            }
        }
    }
}
