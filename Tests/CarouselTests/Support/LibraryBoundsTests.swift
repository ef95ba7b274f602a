@testable import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// Values a library caller can hand the public helpers directly, past the checks of
/// `Carousel(images:options:)`: each is refused, clamped or taken as documented, with no
/// out-of-bounds read, overflow or runaway allocation.
struct LibraryBoundsTests {
    /// A page outside `0..<N` is taken modulo N, as positions are (`Int.min` overflowed in the dots' window).
    @Test func pictureOfAnyPage() throws {
        let images = (0..<12).map { k in RGBAImage(width: 40, height: 20, fill: RGBA(r: UInt8(20 * k), g: 80, b: 160)) }
        let carousel = try Carousel(images: images, options: CarouselOptions())
        #expect(carousel.picture(at: 0, page: -1) == carousel.picture(at: 0, page: 11))
        #expect(carousel.picture(at: 0, page: 25) == carousel.picture(at: 0, page: 1))
        #expect(carousel.picture(at: 0, page: Int.min) == carousel.picture(at: 0, page: Int.min % 12 + 12))
        #expect(carousel.picture(at: 0, page: Int.max) == carousel.picture(at: 0, page: Int.max % 12))
    }

    /// The dots' layout takes a current page outside the pages at the nearest end.
    @Test func dotsOfAPageOutsideThePages() {
        let dots = PageDots()
        for (current, end) in [(Int.min, 0), (-1, 0), (40, 39), (Int.max, 39)] {
            #expect(dots.layout(count: 40, current: current, width: 120, viewportHeight: 50)
                == dots.layout(count: 40, current: end, width: 120, viewportHeight: 50))
        }
    }

    /// Channels and points outside their ranges are taken at the nearest limit: they index
    /// the mapper's tables, and -8 or 100000 read outside them.
    @Test(arguments: [ColorSpace.rgb, .oklab])
    func colourMapperClampsItsInputs(_ space: ColorSpace) {
        let palette = [RGBA(r: 0, g: 0, b: 0), RGBA(r: 255, g: 255, b: 255), RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 0, b: 255)]
        let mapper = ColorMapper(palette: palette, space: space)
        #expect(mapper.nearest(-8, 100_000, -1) == mapper.nearest(0, 255, 0))
        #expect(mapper.nearest(300, -300, Int32.min) == mapper.nearest(255, 0, 0))
        #expect(mapper.point(-1, 256, Int32.max) == mapper.point(0, 255, 255))
        let limits = mapper.limits
        #expect(mapper.nearest(point: (-5, Int32.max, Int32.min)) == mapper.nearest(point: (0, limits.1, 0)))
        #expect(mapper.nearest(point: (Int32.max, -1, 100_000)) == mapper.nearest(point: (limits.0, 0, limits.2)))
    }

    /// k-means passes are clamped: -1 trapped, `Int.max` ran for ever.
    @Test func paletteDesignerClampsRefinements() {
        #expect(PaletteDesigner(maxColors: 4, refinements: -1).refinements == 0)
        #expect(PaletteDesigner(maxColors: 4, refinements: .max).refinements == PaletteDesigner.maximumRefinements)
        let image = RGBAImage(width: 8, height: 8, fill: RGBA(r: 10, g: 20, b: 30))
        #expect(PaletteDesigner(maxColors: 4, refinements: .max).design(image).palette == [RGBA(r: 10, g: 20, b: 30)])
    }

    /// A frame placed past the canvas is an output error, not a broken file (a place of 2^40
    /// trapped converting to 32 bits, 70000 wrote a descriptor giflib cannot hold).
    @Test(arguments: [(1 << 40, 0), (70_000, 0), (-1, 0), (0, 9), (21, 0)])
    func gifFrameOutsideTheCanvasIsRefused(_ left: Int, _ top: Int) throws {
        let writer = try GIFWriter(sink: MemorySink(), name: "t.gif", width: 24, height: 10, loop: .forever)
        let frame = IndexedFrame(width: 4, height: 2, palette: [.white, .clear], indices: [UInt8](repeating: 0, count: 8), transparentIndex: nil)
        #expect(throws: CarouselError.output("t.gif", "a 4x2 frame at (\(left), \(top)) lies outside the 24x10 canvas")) {
            try writer.write(frame, left: left, top: top, delay: 4)
        }
        try writer.write(frame, left: 20, top: 8, delay: 4)
    }

    /// The strip column of any periodic offset: beyond 2^52, the farthest `x0(at:)` gives, it is
    /// taken at that bound (`Int.max` overflowed), and it stays a column the viewport fits at.
    @Test func stripColumnOfAnyOffset() throws {
        let g = try Geometry(count: 3, width: 40, height: 10, itemWidth: 40, spacing: 0, alignment: .center, clones: .auto)
        for x0 in [Int.min, -(1 << 52) - 7, -41, 0, 77, 1 << 52, Int.max] {
            let x = g.stripX(forX0: x0)
            #expect(x >= 0 && x + g.width <= g.stripWidth, "x0 \(x0)")
        }
        #expect(g.stripX(forX0: Int.max) == g.stripX(forX0: 1 << 52))
        #expect(g.stripX(forX0: Int.min) == g.stripX(forX0: -(1 << 52)))
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
