import Carousel
import CarouselTestSupport
import Testing

struct PageDotsTests {
    /// Dot centres for N dots of a size and gap in a viewport of a width.
    @Test(arguments: [
        (5, 8.0, 8.0, 640, [288.0, 304, 320, 336, 352]),
        (2, 10.0, 6.0, 100, [42.0, 58]),
        (3, 8.0, 8.0, 375, [171.5, 187.5, 203.5]),
        (4, 6.0, 10.0, 200, [76.0, 92, 108, 124]),
    ])
    func centres(_ n: Int, _ size: Double, _ gap: Double, _ width: Int, _ xs: [Double]) {
        var dots = PageDots()
        dots.size = size
        dots.gap = gap
        let layout = dots.layout(count: n, current: 0, width: width, viewportHeight: 200)
        #expect(layout.map(\.x) == xs)
        #expect(layout.allSatisfy { $0.y == 184 && $0.diameter == size })
        dots.placement = .footer
        #expect(dots.layout(count: n, current: 0, width: width, viewportHeight: 200).allSatisfy { $0.y == 216 })
    }

    @Test func hiddenForOnePageOrNone() {
        var dots = PageDots()
        #expect(dots.layout(count: 1, current: 0, width: 100, viewportHeight: 50).isEmpty)
        dots.placement = .none
        #expect(dots.layout(count: 5, current: 0, width: 100, viewportHeight: 50).isEmpty)
    }

    /// A row that fits the viewport, to its last pixel, shows a dot for every page (spec
    /// section 4); one dot more and the row is a window.
    @Test func everyDotWhereTheRowFits() {
        let dots = PageDots()
        // 13 dots of 8 with gaps of 8: 200 pixels.
        let fits = dots.layout(count: 13, current: 12, width: 200, viewportHeight: 100)
        #expect(fits.count == 13 && fits.allSatisfy { $0.diameter == 8 })
        #expect(fits.first!.x == 4 && fits.last!.x == 196)
        let window = dots.layout(count: 13, current: 12, width: 199, viewportHeight: 100)
        #expect(window.count == 11 && window.contains { $0.diameter < 8 })
    }

    /// A row too wide for the viewport keeps the current dot full size and in view, and shrinks toward the ends.
    @Test(arguments: [0, 1, 7, 20, 38, 39])
    func shrinksWhenTooMany(_ current: Int) throws {
        let dots = PageDots()
        let layout = dots.layout(count: 40, current: current, width: 120, viewportHeight: 50)
        let pages = dots.pages(count: 40, current: current, width: 120, viewportHeight: 50)
        #expect(layout.count < 40 && layout.count == pages.count)
        #expect(layout.allSatisfy { $0.x - $0.diameter / 2 >= 0 && $0.x + $0.diameter / 2 <= 120 })
        let index = try #require(pages.firstIndex(of: current))
        #expect(layout[index].diameter == 8)
        if pages.first != 0 { #expect(layout.first!.diameter < 8) }
        if pages.last != 39 { #expect(layout.last!.diameter < 8) }
    }

    /// Whatever the viewport, the dots' size and gap and the number of pages, the current
    /// page's dot is drawn whole and full size: inside the viewport where it fits there,
    /// centred on it where it does not. Before, a window forced to three dots could put the
    /// first or last page's dot outside the viewport (8 px dots in a viewport of 8 to 32 px,
    /// or 70 px dots with gaps of 70 in 200 px), and three pages or fewer were drawn as a
    /// centred row however wide, with the first and last dots outside a narrow viewport.
    @Test func theCurrentDotIsAlwaysInView() throws {
        var dots = PageDots()
        for (size, gap) in [(8.0, 8.0), (70, 70), (60, 50), (199, 0), (20, 0), (5, 30)] {
            dots.size = size
            dots.gap = gap
            for width in [1, 7, 8, 20, 24, 30, 31, 32, 40, 47, 48, 60, 100, 199, 200, 201, 333] {
                for count in [2, 3, 4, 5, 7, 40] {
                    for current in Set([0, 1, count / 2, count - 2, count - 1]) {
                        let layout = dots.layout(count: count, current: current, width: width, viewportHeight: 100)
                        let pages = dots.pages(count: count, current: current, width: width, viewportHeight: 100)
                        #expect(layout.count == pages.count && (layout.count == count || layout.count % 2 == 1))
                        let index = try #require(pages.firstIndex(of: current), "\(size) \(gap) \(width) \(count) \(current)")
                        let dot = layout[index]
                        #expect(dot.diameter == size)
                        if size <= Double(width) {
                            #expect(dot.x - size / 2 >= 0 && dot.x + size / 2 <= Double(width),
                                    "size \(size), gap \(gap), width \(width), \(count) pages, current \(current): x \(dot.x)")
                        } else {
                            #expect(dot.x == Double(width) / 2)
                        }
                    }
                }
            }
        }
        // Drawn: the first page's dot is lit in a frame where it was not drawn before.
        dots.size = 70
        dots.gap = 70
        var image = RGBAImage(width: 200, height: 100, fill: .black)
        dots.draw(on: &image, count: 5, current: 0, viewportHeight: 100)
        #expect(image[100, 84] == dots.currentColor)
    }

    @Test func switchRules() {
        let moving = FrameState(index: 3, position: 1.6, from: 1, to: 2, moving: true, jumped: false)
        #expect(DotsSwitch.half.page(for: moving, count: 5) == 2)
        #expect(DotsSwitch.start.page(for: moving, count: 5) == 2)
        #expect(DotsSwitch.end.page(for: moving, count: 5) == 1)
        let early = FrameState(index: 1, position: 4.4, from: 4, to: 0, moving: true, jumped: false)
        #expect(DotsSwitch.half.page(for: early, count: 5) == 4)
        let clone = FrameState(index: 9, position: 5, from: 0, to: 0, moving: false, jumped: false)
        #expect(DotsSwitch.half.page(for: clone, count: 5) == 0, "at a clone the real item's dot is lit")
        let backward = FrameState(index: 2, position: -0.6, from: 0, to: 4, moving: true, jumped: false)
        #expect(DotsSwitch.half.page(for: backward, count: 5) == 4)
    }

    /// In every frame exactly the page the rule gives is lit, with exact colours at the dot centres.
    @Test(arguments: DotsSwitch.allCases)
    func exactlyOneCurrentDot(_ rule: DotsSwitch) throws {
        var options = CarouselOptions()
        options.fps = 10
        options.hold = 0.3
        options.duration = 0.5
        options.dotsSwitch = rule
        options.dots.color = RGBA(r: 10, g: 20, b: 30)
        options.dots.currentColor = RGBA(r: 250, g: 240, b: 230)
        options.script = try Script(parsing: "autoplay; prev; goto 3")
        let items = Fixtures.items(4, width: 120, height: 40)
        let carousel = try Carousel(images: items, options: options)
        let layout = options.dots.layout(count: 4, current: 0, width: 120, viewportHeight: 40)
        for i in 0..<carousel.frameCount {
            let frame = carousel.frame(index: i)
            let lit = layout.indices.filter { frame[Int($0 == 0 ? layout[0].x : layout[$0].x), 24] == options.dots.currentColor }
            let unlit = layout.indices.filter { frame[Int(layout[$0].x), 24] == options.dots.color }
            #expect(lit == [carousel.page(index: i)], "frame \(i)")
            #expect(unlit.count == 3, "frame \(i)")
        }
        // The lit pages, 0-based: 3 frames of hold and 5 of move a page through the autoplay
        // (frames 0...31), `prev` from 0 to 3 (32...36), then `goto 3` (1-based) from 3 to 2
        // (37...41). Half lights a page once the move is past half way (frame 6, at 0.67),
        // start as the move begins (frame 3), end once it has ended (frame 8).
        let expected: [DotsSwitch: String] = [
            .half: "000000111111112222222233333333000003333322",
            .start: "000111111112222222233333333000003333322222",
            .end: "000000001111111122222222333333330000033333",
        ]
        #expect((0..<carousel.frameCount).map { String(carousel.page(index: $0)) }.joined() == expected[rule])
    }

    @Test func translucentDotsBlend() {
        var image = RGBAImage(width: 40, height: 20, fill: RGBA(r: 0, g: 0, b: 200))
        var dots = PageDots()
        dots.currentColor = RGBA(r: 255, g: 255, b: 255, a: 128)
        dots.draw(on: &image, count: 2, current: 0, viewportHeight: 20)
        let centre = dots.layout(count: 2, current: 0, width: 40, viewportHeight: 20)[0]
        #expect(image[Int(centre.x), Int(centre.y)] == RGBA(r: 128, g: 128, b: 228))
    }

    /// Edges are anti-aliased: a ring of partly covered pixels between inside and outside.
    @Test func antiAliasedEdges() {
        var image = RGBAImage(width: 40, height: 40, fill: .black)
        var dots = PageDots()
        dots.size = 20
        dots.draw(on: &image, count: 2, current: 0, viewportHeight: 40)
        let values = Set((0..<40).flatMap { y in (0..<40).map { x in image[x, y].r } })
        #expect(values.contains(0) && values.contains(255))
        #expect(values.filter { $0 > 0 && $0 < 255 }.count > 4)
    }

    @Test func footerAddsBand() throws {
        var options = CarouselOptions()
        options.dots.placement = .footer
        options.background = RGBA(r: 9, g: 9, b: 9)
        options.script = try Script(parsing: "hold 0.1; next 0.2")
        let carousel = try Carousel(images: Fixtures.items(3, width: 60, height: 30), options: options)
        let frame = carousel.frame(index: 0)
        #expect(frame.width == 60 && frame.height == 62)
        #expect(frame[0, 61] == options.background && frame[59, 31] == options.background)
        #expect(frame[14, 46] == options.dots.currentColor && frame[30, 46] == options.dots.color)
    }

    /// The dots' layout takes a current page outside the pages at the nearest end.
    @Test func dotsOfAPageOutsideThePages() {
        let dots = PageDots()
        for (current, end) in [(Int.min, 0), (-1, 0), (40, 39), (Int.max, 39)] {
            #expect(dots.layout(count: 40, current: current, width: 120, viewportHeight: 50)
                == dots.layout(count: 40, current: end, width: 120, viewportHeight: 50))
            #expect(dots.pages(count: 40, current: current, width: 120, viewportHeight: 50)
                == dots.pages(count: 40, current: end, width: 120, viewportHeight: 50))
            // Drawn, the end's dot is lit (with 50 of 40, none was).
            var drawn = RGBAImage(width: 120, height: 50), lit = drawn
            dots.draw(on: &drawn, count: 40, current: current, viewportHeight: 50)
            dots.draw(on: &lit, count: 40, current: end, viewportHeight: 50)
            #expect(drawn == lit, "current \(current)")
        }
    }

    /// Any count or `top` a caller gives is taken without overflowing: no pages below 1, the
    /// half rule at any count, and rows drawn from a `top` at either end of `Int` (the rows
    /// are then far from every dot, so nothing is drawn).
    @Test func extremeCountsAndRows() {
        let dots = PageDots()
        for count in [Int.min, -1, 0] {
            #expect(dots.pages(count: count, current: 0, width: 10, viewportHeight: 10).isEmpty)
            #expect(dots.layout(count: count, current: 0, width: 10, viewportHeight: 10).isEmpty)
        }
        let far = FrameState(index: 0, position: 1e15, from: 0, to: 0, moving: false, jumped: false)
        #expect(DotsSwitch.half.page(for: far, count: Int.max) == 1_000_000_000_000_000)
        let before = FrameState(index: 0, position: -3, from: 0, to: 0, moving: false, jumped: false)
        #expect(DotsSwitch.half.page(for: before, count: Int.max) == Int.max - 3)
        #expect(DotsSwitch.half.page(for: before, count: 5) == 2)
        let frame = OverlayFrame(state: FrameState(index: 0, position: 0, from: 0, to: 0, moving: false, jumped: false),
                                 page: 0, count: 3, width: 20, viewportHeight: 20)
        let blank = RGBAImage(width: 20, height: 20)
        for top in [Int.max, Int.max - 5, Int.min, Int.min + 5] {
            var rows = blank
            dots.draw(on: &rows, top: top, frame: frame)
            #expect(rows == blank, "top \(top)")
        }
        var whole = blank
        dots.draw(on: &whole, top: 0, frame: frame)
        #expect(whole != blank, "from row 0 the dots are drawn")
    }
}
