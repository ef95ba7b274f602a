import Carousel
import CarouselTestSupport
import Testing

struct GeometryTests {
    /// The three reference layouts and what `clones auto` gives them.
    @Test(arguments: [
        (640, 640, 0, ItemAlignment.center, 1, 1),   // full-width pages: [last, 1...N, first]
        (375, 343, 8, ItemAlignment.center, 2, 2),   // peeking cells: two clones each side
        (640, 320, 0, ItemAlignment.start, 1, 2),
        (640, 200, 10, ItemAlignment.center, 3, 2),  // x0 up to 5*210-220 = 830, 830+640 = 1470 = 7*210
    ])
    func minimumClones(width: Int, item: Int, spacing: Int, align: ItemAlignment, left: Int, right: Int) throws {
        let g = try Geometry(count: 5, width: width, height: 10, itemWidth: item, spacing: spacing, alignment: align, clones: .auto)
        #expect(g.leftClones == left && g.rightClones == right)
    }

    @Test func peekingOffsets() throws {
        let g = try Geometry(count: 5, width: 375, height: 10, itemWidth: 343, spacing: 8, alignment: .center, clones: .auto)
        #expect(g.pitch == 351 && g.alignOffset == 16)
        #expect(g.x0(at: 0) == -16)
        #expect(g.x0(at: 1) == 335)
        #expect(g.x0(at: 0.5) == 160)  // round(175.5) = 176, half up
        #expect(g.stripX(forX0: -16) == 2 * 351 - 16)
    }

    @Test func tooFewClonesIsAnError() {
        #expect(throws: CarouselError.invalidOption(key: .clones, reason: "1 per side is too few for this layout; it needs at least 2 (2 before, 2 after)")) {
            try Geometry(count: 5, width: 375, height: 10, itemWidth: 343, spacing: 8, alignment: .center, clones: .count(1))
        }
    }

    /// Every layout needs a clone on each side (the help gives `--clones K` as 1...100000):
    /// items narrower, as wide and wider than the viewport, odd and even sizes, both
    /// alignments. `0` is refused as too few, naming the fewest.
    @Test func everyLayoutNeedsAClonePerSide() throws {
        for width in [1, 2, 3, 99, 100, 101, 640] {
            for item in [1, 2, 50, 99, 100, 101, 1000, 1_000_000] {
                for spacing in [0, 1, 7, 1_000_000] {
                    for align in ItemAlignment.allCases {
                        let need = Geometry.minimumClones(width: width, itemWidth: item, spacing: spacing, alignment: align)
                        #expect(need.left >= 1 && need.right >= 1, "W \(width), item \(item), spacing \(spacing), \(align): \(need)")
                    }
                }
            }
        }
        #expect(throws: CarouselError.invalidOption(key: .clones, reason: "0 per side is too few for this layout; it needs at least 1 (1 before, 1 after)")) {
            try Geometry(count: 5, width: 640, height: 10, itemWidth: 640, spacing: 0, alignment: .center, clones: .count(0))
        }
        #expect(OptionKey.clones.help.contains("1...\(ClonePolicy.maximumCount)"))
    }

    @Test func setRepeatsWholeSets() throws {
        let g = try Geometry(count: 2, width: 400, height: 10, itemWidth: 100, spacing: 0, alignment: .center, clones: .set)
        #expect(g.leftClones % 2 == 0 && g.leftClones >= 3)
        #expect(g.rightClones % 2 == 0 && g.rightClones >= 3)
    }

    @Test func rejectsNonsense() {
        #expect(throws: CarouselError.self) {
            try Geometry(count: 3, width: 0, height: 10, itemWidth: 10, spacing: 0, alignment: .center, clones: .auto)
        }
        #expect(throws: CarouselError.self) {
            try Geometry(count: 3, width: 10, height: 10, itemWidth: -1, spacing: 0, alignment: .center, clones: .auto)
        }
    }

    struct Case: CustomStringConvertible, Sendable {
        let n: Int, itemScale: Double, align: ItemAlignment, spacing: Int, clones: ClonePolicy
        var description: String { "N=\(n) item=\(itemScale)W \(align) spacing=\(spacing) clones=\(clones)" }
    }

    static let invariantCases: [Case] = {
        var cases: [Case] = []
        for n in [1, 2, 3, 5] {
            for scale in [1.0, 0.8, 0.5] {
                for align in ItemAlignment.allCases {
                    for spacing in [0, 10] {
                        for clones in [ClonePolicy.auto, .set] {
                            cases.append(Case(n: n, itemScale: scale, align: align, spacing: spacing, clones: clones))
                        }
                    }
                }
            }
        }
        return cases
    }()

    /// Timer steps: autoplay, prev from the first page, goto, next from the last page.
    static func timerScript(_ c: Case) -> String {
        "autoplay; prev; prev 0.3 linear; goto \(c.n); next; goto 1 1; hold 0.1"
    }

    /// Finger steps, any distance either way: drags of several pages into and past the
    /// clones, from the first and the last page, rests, releases, swipes, and autoplay after.
    static func gestureScript(_ c: Case) -> String {
        "drag 70 0.3; hold 0.2; drag -250 0.5 ease-in; release; hold 0.2; goto \(c.n) 0.3; "
            + "drag -130 0.4; drag 20 0.1 ease-out; release; swipe prev; swipe next 0.2; hold 0.1; "
            + "drag 333 0.6 ease-in-out; release; autoplay 1; drag -45 0.2; hold 0.1; release; hold 0.1"
    }

    /// Every frame cut from the padded strip equals the same window of the periodic strip,
    /// under timer moves and under finger gestures.
    @Test(arguments: invariantCases)
    func framesMatchPeriodicStrip(_ c: Case) throws {
        try checkPeriodic(c, script: Self.timerScript(c))
        try checkPeriodic(c, script: Self.gestureScript(c))
    }

    func checkPeriodic(_ c: Case, script: String) throws {
        let width = 60, height = 4
        let itemWidth = Int(Double(width) * c.itemScale)
        let items = Fixtures.items(c.n, width: itemWidth, height: height)
        var options = CarouselOptions()
        options.size = PixelSize(width: width, height: height)
        options.itemWidth = itemWidth
        options.spacing = c.spacing
        options.align = c.align
        options.clones = c.clones
        options.dots.placement = .none
        options.background = RGBA(r: 1, g: 2, b: 3)
        options.fps = 10
        options.hold = 0.2
        options.duration = 0.5
        options.touches.mode = .none
        options.script = try Script(parsing: script)
        let carousel = try Carousel(images: items, options: options)
        var checked = 0
        for i in 0..<carousel.frameCount {
            let info = carousel.info(index: i)
            let expected = Fixtures.periodicWindow(items: items, x0: info.x0, width: width, height: height,
                                                   pitch: itemWidth + c.spacing, background: options.background)
            #expect(differingPixels(carousel.frame(index: i), expected) == 0, "\(c) \(script): frame \(i) at x0 \(info.x0)")
            #expect(info.stripX >= 0 && info.stripX + width <= carousel.strip.width)
            checked += 1
        }
        #expect(checked > 20)
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
}

@Suite struct PaddedStripTests {
    /// Every strip column is the periodic strip's: item `j mod N` at `(j + leftClones) * pitch`,
    /// its gap the background, for each clone policy and alignment, on a strip of many row bands.
    @Test func everyColumnIsThePeriodicStrips() throws {
        let background = RGBA(r: 1, g: 2, b: 3)
        let items = (0..<3).map { k in
            var item = RGBAImage(width: 7, height: 41)
            for y in 0..<41 {
                for x in 0..<7 { item[x, y] = RGBA(r: UInt8(k * 50 + x), g: UInt8(y), b: UInt8(200 + k)) }
            }
            return item
        }
        for (alignment, clones) in [(ItemAlignment.center, ClonePolicy.auto), (.start, .auto), (.center, .set), (.start, .count(5))] {
            let g = try Geometry(count: 3, width: 12, height: 41, itemWidth: 7, spacing: 2, alignment: alignment, clones: clones)
            let strip = PaddedStrip.build(items: items, geometry: g, background: background)
            #expect(strip.width == g.stripWidth && strip.height == 41)
            for x in 0..<strip.width {
                let j = x / g.pitch - g.leftClones, inItem = x % g.pitch
                for y in 0..<41 {
                    let expected = inItem < 7 && j < 3 + g.rightClones ? items[((j % 3) + 3) % 3][inItem, y] : background
                    #expect(strip[x, y] == expected, "\(alignment) \(clones): (\(x), \(y))")
                }
            }
        }
    }
}
