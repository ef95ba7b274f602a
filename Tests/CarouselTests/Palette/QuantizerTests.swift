import Foundation
@testable import Carousel
import CarouselTestSupport
import Testing

struct QuantizerTests {
    @Test(arguments: [2, 17, 256])
    func exactWhenFewColors(_ colors: Int) {
        var image = RGBAImage(width: 32, height: 16)
        for y in 0..<16 {
            for x in 0..<32 {
                let k = (x + y * 32) % colors
                image[x, y] = RGBA(r: UInt8(k), g: UInt8(255 - k), b: UInt8((k * 7) % 256))
            }
        }
        let frame = Quantizer().quantize(image)
        #expect(frame.palette.count == colors)
        #expect(differingPixels(frame.expanded(), image) == 0)
    }

    /// `distinctColors` against the same walk with a `Set`: the opaque colours (alpha 128 and
    /// up) in order of first appearance, or nil past the limit. Four sets of colours: a grey
    /// ramp, a ramp in red alone, a ramp across red and green, and scattered colours whose
    /// slots collide in runs; each over runs of three in a scrambled order, with pixels of
    /// alpha 127 and 128 between.
    @Test(arguments: [1, 2, 63, 64, 200, 255, 256])
    func distinctColorsInOrderOfFirstAppearance(_ limit: Int) {
        func reference(_ image: RGBAImage) -> [RGBA]? {
            var seen = Set<RGBA>(), colours: [RGBA] = []
            for y in 0..<image.height {
                for x in 0..<image.width where image[x, y].a >= 128 {
                    let c = RGBA(r: image[x, y].r, g: image[x, y].g, b: image[x, y].b)
                    if seen.insert(c).inserted { colours.append(c) }
                }
            }
            return colours.count <= limit ? colours : nil
        }
        for (count, colour) in [(256, { (k: Int) in RGBA(r: UInt8(k), g: UInt8(k), b: UInt8(k)) }),
                                (64, { (k: Int) in RGBA(r: UInt8(k * 4), g: 0, b: 0) }),
                                (limit, { (k: Int) in RGBA(r: UInt8(k), g: UInt8(255 - k), b: 7) }),
                                (limit + 1, { (k: Int) in
                                    let v = UInt32(truncatingIfNeeded: k &* 22_695_477 &+ 1)
                                    return RGBA(r: UInt8(v >> 16 & 0xFF), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
                                })] {
            for shown in Set([count, limit, limit + 1]) where shown <= count {
                var image = RGBAImage(width: 128, height: 128)
                for i in 0..<(128 * 128) {
                    // Every seventh pixel not opaque (alpha 127, a colour of the grey ramp); every
                    // fifth run at alpha 128, which counts as opaque.
                    var c = colour((i / 3 * 37) % shown)
                    if i / 3 % 5 == 0 { c.a = 128 }
                    image[i % 128, i / 128] = i % 7 == 6 ? RGBA(r: 9, g: 9, b: 9, a: 127) : c
                }
                #expect(Quantizer.distinctColors(image, limit: limit) == reference(image),
                        "\(shown) of \(count) colours, limit \(limit)")
            }
        }
        #expect(Quantizer.distinctColors(RGBAImage(width: 0, height: 0), limit: limit) == [])
        #expect(Quantizer.distinctColors(RGBAImage(width: 5, height: 3), limit: limit) == [])
    }

    @Test func medianCutOnManyColors() {
        var image = RGBAImage(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 { image[x, y] = RGBA(r: UInt8(x * 4), g: UInt8(y * 4), b: UInt8((x + y) * 2)) }
        }
        for limit in [16, 64, 256] {
            let frame = Quantizer(maxColors: limit).quantize(image)
            #expect(frame.palette.count <= limit)
            let out = frame.expanded()
            var squared = 0.0
            for i in 0..<image.pixels.count where i % 4 != 3 {
                let d = Double(image.pixels[i]) - Double(out.pixels[i])
                squared += d * d
            }
            let rmse = (squared / Double(64 * 64 * 3)).squareRoot()
            // k colours tile the ramp into square cells of 64/sqrt(k) px, i.e. 256/sqrt(k) levels of
            // red and green; uniform error in such a cell is range/sqrt(12) in red and green and half
            // that variance in blue (the mean of the two), so an ideal
            // partition has an RMSE of about 16.9 (k = 16), 8.4 (64) and 4.2 (256). Allow 10% over.
            let ideal = 256 / Double(limit).squareRoot() / 12.squareRoot() * (5.0 / 6.0).squareRoot() * 1.1
            #expect(rmse < max(ideal, 1), "rmse \(rmse) with \(limit) colours, bound \(ideal)")
        }
    }

    @Test func reservesTransparentIndex() throws {
        var image = RGBAImage(width: 8, height: 8, fill: RGBA(r: 10, g: 20, b: 30))
        image[3, 3] = .clear
        let frame = Quantizer().quantize(image)
        let t = try #require(frame.transparentIndex)
        #expect(Int(frame.indices[3 * 8 + 3]) == t)
        #expect(frame.indices.filter { Int($0) == t }.count == 1)
    }

    @Test func deterministic() {
        var image = RGBAImage(width: 50, height: 50)
        for y in 0..<50 { for x in 0..<50 { image[x, y] = RGBA(r: UInt8(x * 5), g: UInt8(y * 5), b: UInt8(x * y % 256)) } }
        #expect(Quantizer(maxColors: 32).quantize(image) == Quantizer(maxColors: 32).quantize(image))
    }

    /// The eight corners of the RGB cube: every colour inside is a mix of them.
    static let corners: [RGBA] = (0..<8).map { (k: Int) -> RGBA in
        RGBA(r: k & 1 == 0 ? 0 : 255, g: k & 2 == 0 ? 0 : 255, b: k & 4 == 0 ? 0 : 255)
    }

    /// Ordered dithering mixes entries so each 2x2 cell averages to the colour in all three
    /// channels, where the nearest entry alone is far off.
    @Test(arguments: [RGBA(r: 64, g: 128, b: 192), RGBA(r: 200, g: 30, b: 90), RGBA(r: 128, g: 128, b: 128)])
    func orderedCellsAverageToTheColour(_ color: RGBA) {
        let image = RGBAImage(width: 8, height: 8, fill: color)
        let mapper = ColorMapper(palette: Self.corners)
        let indices = Quantizer.map(image, mapper: mapper, dither: .ordered, transparentIndex: nil)
        let nearest = Self.corners[Int(mapper.nearest(Int32(color.r), Int32(color.g), Int32(color.b)))]
        func distance(_ a: (Double, Double, Double), _ c: RGBA) -> Double {
            let d = (a.0 - Double(c.r), a.1 - Double(c.g), a.2 - Double(c.b))
            return (d.0 * d.0 + d.1 * d.1 + d.2 * d.2).squareRoot()
        }
        let undithered = distance((Double(nearest.r), Double(nearest.g), Double(nearest.b)), color)
        for cy in stride(from: 0, to: 8, by: 2) {
            for cx in stride(from: 0, to: 8, by: 2) {
                var sum = (0.0, 0.0, 0.0)
                for (x, y) in [(cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)] {
                    let c = Self.corners[Int(indices[y * 8 + x])]
                    sum = (sum.0 + Double(c.r) / 4, sum.1 + Double(c.g) / 4, sum.2 + Double(c.b) / 4)
                }
                #expect(distance(sum, color) < 0.6 * undithered, "cell (\(cx), \(cy)): mean \(sum), colour \(color)")
                // Four entries of 0 or 255 reach every channel within a quarter of 255.
                #expect(abs(sum.0 - Double(color.r)) <= 64 && abs(sum.1 - Double(color.g)) <= 64
                        && abs(sum.2 - Double(color.b)) <= 64, "cell (\(cx), \(cy)): mean \(sum), colour \(color)")
            }
        }
    }

    /// The eight corners of a cube `side` levels wide centred on `color`: a palette whose
    /// mixes for `color` are narrow (within ``Quantizer/wideMixSpread``) where `side` is small.
    static func cube(around color: RGBA, side: Int) -> [RGBA] {
        func level(_ c: UInt8, _ high: Bool) -> UInt8 { UInt8(Int(c) + (high ? side / 2 : -side / 2)) }
        return (0..<8).map { (k: Int) -> RGBA in
            RGBA(r: level(color.r, k & 1 != 0), g: level(color.g, k & 2 != 0), b: level(color.b, k & 4 != 0))
        }
    }

    /// The largest squared distance between two of `entries`' `points` (the mapper's space).
    static func spread(_ entries: Set<UInt8>, _ points: [(Int32, Int32, Int32)]) -> Int32 {
        var largest: Int32 = 0
        for a in entries {
            for b in entries { largest = max(largest, ChannelWeights.rgb.distance(points[Int(a)], points[Int(b)])) }
        }
        return largest
    }

    /// Laid out in rows, a colour whose mix is narrow shows one entry a row, rows y mod 4 = 0,
    /// 1, 2, 3 its four entries in luma order 0, 2, 1, 3, wherever the window lies.
    @Test(arguments: [RGBA(r: 64, g: 128, b: 192), RGBA(r: 200, g: 30, b: 90), RGBA(r: 128, g: 128, b: 128)])
    func orderedRowsShowOneEntryARow(_ color: RGBA) {
        let image = RGBAImage(width: 12, height: 8, fill: color)
        let palette = Self.cube(around: color, side: 10)
        let mapper = ColorMapper(palette: palette, space: .oklab)
        let points = mapper.points
        func luma(_ i: UInt8) -> Int {
            let c = palette[Int(i)]
            return 299 * Int(c.r) + 587 * Int(c.g) + 114 * Int(c.b)
        }
        var windows: [[UInt8]] = []
        for originX in [0, 3] {
            let rows = Quantizer.map(image, columns: 2..<10, height: 8, mapper: mapper, dither: .ordered,
                                     transparentIndex: nil, originX: originX, only: nil, undithered: nil, layout: .rows)
            windows.append(rows)
            for y in 0..<8 { #expect(Set(rows[(y * 8)..<(y * 8 + 8)]).count == 1, "row \(y) shows one entry") }
            let shown = (0..<4).map { rows[$0 * 8] }
            #expect(Self.spread(Set(shown), points) <= Quantizer.wideMixSpread, "the mix is narrow")
            #expect(luma(shown[0]) <= luma(shown[2]) && luma(shown[2]) <= luma(shown[1]) && luma(shown[1]) <= luma(shown[3]))
            #expect(rows[32..<64] == rows[0..<32], "every fourth row alike")
            #expect(Set(shown).count > 1, "the colour is dithered")
        }
        #expect(windows[0] == windows[1])
    }

    /// In rows a mix makes up for three quarters of the error its candidates so far leave, in
    /// cells for all of it (``Quantizer/OrderedLayout/carried``): a grey between two entries far
    /// apart takes the entry past it as one of its four candidates in cells, and in rows all
    /// four candidates are the entry nearest it.
    @Test func orderedRowsCarryThreeQuartersOfTheError() {
        let palette = [RGBA(r: 0, g: 0, b: 0), RGBA(r: 128, g: 128, b: 128), RGBA(r: 255, g: 255, b: 255)]
        let mapper = ColorMapper(palette: palette, space: .oklab)
        // Oklab lightness, 990 a unit: grey 128 at 594, grey 145 at 650, white at 990. Each grey
        // candidate leaves 56. All of it carried, the fourth candidate is the entry nearest
        // 650 + 3 x 56 = 818: white. Three quarters, 650 + 126 = 776: grey.
        #expect(mapper.points.map(\.0) == [0, 594, 990])
        let image = RGBAImage(width: 8, height: 8, fill: RGBA(r: 145, g: 145, b: 145))
        #expect(Oklab.point(image[0, 0]).0 == 650)
        func mapped(_ layout: Quantizer.OrderedLayout) -> [UInt8] {
            Quantizer.map(image, columns: 0..<8, height: 8, mapper: mapper, dither: .ordered, transparentIndex: nil,
                          originX: 0, only: nil, undithered: nil, layout: layout)
        }
        #expect(mapped(.cells).filter { $0 == 2 }.count == 16, "white in one pixel of four")
        #expect(mapped(.cells).filter { $0 == 1 }.count == 48)
        #expect(mapped(.rows).allSatisfy { $0 == 1 }, "grey in every row")
    }

    /// A wide mix, whose darkest and brightest entries lie more than
    /// ``Quantizer/wideMixSpread`` apart, shows the 2x2 cells in rows too: one entry a row would
    /// stripe. A narrow mix beside it in the same window keeps its rows.
    @Test(arguments: [RGBA(r: 64, g: 128, b: 192), RGBA(r: 200, g: 30, b: 90), RGBA(r: 128, g: 0, b: 128)])
    func orderedRowsShowWideMixesInCells(_ color: RGBA) {
        let narrow = RGBA(r: 100, g: 100, b: 100)
        var image = RGBAImage(width: 12, height: 8, fill: color)
        for y in 0..<8 {
            for x in 6..<12 { image[x, y] = narrow }
        }
        let palette = Self.corners + Self.cube(around: narrow, side: 10)
        let mapper = ColorMapper(palette: palette, space: .oklab)
        let points = mapper.points
        var windows: [[UInt8]] = []
        for originX in [0, 3] {
            let rows = Quantizer.map(image, columns: 0..<12, height: 8, mapper: mapper, dither: .ordered,
                                     transparentIndex: nil, originX: originX, only: nil, undithered: nil, layout: .rows)
            windows.append(rows)
            var wide = Set<UInt8>()
            for y in 0..<8 {
                for x in 0..<6 { wide.insert(rows[y * 12 + x]) }
            }
            let spread = Self.spread(wide, points)
            #expect(spread > Quantizer.wideMixSpread, "the mix is wide: \(spread)")
            for y in 0..<8 {
                for x in 0..<6 {
                    // The 2x2 cell: the same entry two columns and two rows on, and the column's
                    // parity in the strip (x + originX) picks it.
                    let here = rows[y * 12 + x]
                    if x + 2 < 6 { #expect(rows[y * 12 + x + 2] == here) }
                    if y + 2 < 8 { #expect(rows[(y + 2) * 12 + x] == here) }
                }
                #expect(Set(rows[(y * 12 + 6)..<(y * 12 + 12)]).count == 1, "row \(y): the narrow mix one entry a row")
            }
            #expect((0..<8).contains { rows[$0 * 12] != rows[$0 * 12 + 1] }, "the wide mix changes along a row")
            #expect(Set((0..<8).map { rows[$0 * 12 + 6] }).count > 1, "the narrow mix is dithered")
        }
        // An odd origin swaps the cell's columns: the pattern is fixed to the strip.
        for y in 0..<8 {
            for x in 0..<5 { #expect(windows[1][y * 12 + x] == windows[0][y * 12 + x + 1], "(\(x), \(y))") }
        }
    }

    /// Colours the palette holds exactly stay clean: no pattern on flat areas or solid shapes.
    @Test func orderedKeepsPaletteColoursClean() {
        let palette = [RGBA(r: 10, g: 20, b: 30), RGBA(r: 200, g: 100, b: 50), RGBA(r: 255, g: 255, b: 255), RGBA(r: 0, g: 0, b: 0)]
        var image = RGBAImage(width: 24, height: 12)
        for y in 0..<12 {
            for x in 0..<24 { image[x, y] = palette[(x / 6 + y / 6) % palette.count] }
        }
        let indices = Quantizer.map(image, mapper: ColorMapper(palette: palette), dither: .ordered, transparentIndex: nil)
        for y in 0..<12 {
            for x in 0..<24 { #expect(palette[Int(indices[y * 24 + x])] == image[x, y]) }
        }
    }

    /// The pattern is fixed to the picture, not to the image cut from it: a crop mapped with
    /// its column as `originX` gets exactly the indices of the same pixels mapped whole.
    @Test(arguments: [1, 6, 7])
    func orderedPatternTravelsWithTheContent(_ offset: Int) {
        var strip = RGBAImage(width: 48, height: 6)
        for y in 0..<6 {
            for x in 0..<48 { strip[x, y] = RGBA(r: UInt8(x * 5), g: UInt8(40 + y * 20), b: UInt8(200 - x * 3)) }
        }
        let palette = (0..<16).map { (k: Int) -> RGBA in
            RGBA(r: UInt8(k * 16), g: UInt8(255 - k * 12), b: UInt8((k * 53) % 256))
        }
        let whole = Quantizer.map(strip, mapper: ColorMapper(palette: palette), dither: .ordered, transparentIndex: nil)
        let crop = strip.cropped(x: offset, width: 32, height: 6)
        let part = Quantizer.map(crop, mapper: ColorMapper(palette: palette), dither: .ordered, transparentIndex: nil,
                                 originX: offset)
        for y in 0..<6 {
            for x in 0..<32 { #expect(part[y * 32 + x] == whole[y * 48 + x + offset], "(\(x), \(y))") }
        }
        // Without the origin, an odd offset shifts the pattern against the content.
        if offset % 2 == 1 {
            let unanchored = Quantizer.map(crop, mapper: ColorMapper(palette: palette), dither: .ordered, transparentIndex: nil)
            #expect(unanchored != part)
        }
    }

    /// A window of a larger picture, mapped where it lies (as a moving frame's region is, in
    /// the layer), gets exactly the indices of the same pixels cut out and mapped, with the
    /// flags of `only` and `undithered` by pixel of the window.
    @Test func orderedWindowMapsAsItsCrop() {
        var strip = RGBAImage(width: 48, height: 8)
        for y in 0..<8 {
            for x in 0..<48 {
                strip[x, y] = RGBA(r: UInt8(x * 5), g: UInt8(40 + y * 20), b: UInt8((x * y * 7) % 256))
            }
        }
        let palette = (0..<16).map { (k: Int) -> RGBA in
            RGBA(r: UInt8(k * 16), g: UInt8(255 - k * 12), b: UInt8((k * 53) % 256))
        }
        let columns = 7..<40, height = 6
        let only = (0..<(columns.count * height)).map { $0 % 5 != 0 }
        let undithered = (0..<(columns.count * height)).map { $0 % 3 == 0 }
        let crop = strip.cropped(x: columns.lowerBound, width: columns.count, height: height)
        let cut = Quantizer.map(crop, mapper: ColorMapper(palette: palette), dither: .ordered, transparentIndex: nil,
                                originX: columns.lowerBound, only: only, undithered: undithered)
        let window = Quantizer.map(strip, columns: columns, height: height, mapper: ColorMapper(palette: palette),
                                   dither: .ordered, transparentIndex: nil, originX: columns.lowerBound, only: only,
                                   undithered: undithered)
        #expect(window == cut)
        #expect(Set(cut).count > 2, "the window maps to several entries")
    }

    /// The cell lists (``ColorMapper``) and the walk by green (``PaletteSearch``) give exactly
    /// what a search of every entry gives, lowest index on ties, with either weighting: on
    /// random palettes, on one with every entry twice, and on a grid, where colours between
    /// grid points are equally near to several entries.
    @Test(SlowTests.rendersAtLength, arguments: [ChannelWeights.rgb, .perceptual])
    func mapperFindsTheNearestEntry(_ weights: ChannelWeights) {
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt8 { random.byte() }
        var palettes = [1, 7, 64, 256].map { size in (0..<size).map { _ in RGBA(r: next(), g: next(), b: next()) } }
        let half = (0..<128).map { _ in RGBA(r: next(), g: next(), b: next()) }
        palettes.append(half + half)
        let grid = (0..<216).map { (k: Int) -> RGBA in
            RGBA(r: UInt8(k / 36 * 50), g: UInt8(k / 6 % 6 * 50), b: UInt8(k % 6 * 50))
        }
        palettes.append(grid)
        // Crowded: entries a few levels apart, so a cell's list is cut by planes between them.
        palettes.append((0..<256).map { _ in RGBA(r: 100 + next() % 40, g: 60 + next() % 40, b: 150 + next() % 40) })
        for (p, palette) in palettes.enumerated() {
            let mapper = ColorMapper(palette: palette, weights: weights)
            let search = PaletteSearch(palette: palette, weights: weights)
            var ties = 0
            for n in 0..<3000 {
                // Every third colour on the grid's half steps, where ties are.
                func channel() -> Int32 {
                    if p == palettes.count - 1 && n % 2 == 0 { return Int32(90 + next() % 60) }
                    return Int32(n % 3 == 0 ? next() / 25 * 25 : next())
                }
                let r = channel(), g = channel(), b = channel()
                var best = 0, bestDistance = Int32.max, equal = 0
                for (e, c) in palette.enumerated() {
                    let dr = Int32(c.r) - r, dg = Int32(c.g) - g, db = Int32(c.b) - b
                    let d = weights.r * dr * dr + weights.g * dg * dg + weights.b * db * db
                    if d < bestDistance { (best, bestDistance, equal) = (e, d, 0) } else if d == bestDistance { equal += 1 }
                }
                if equal > 0 { ties += 1 }
                #expect(Int(mapper.nearest(r, g, b)) == best, "\(palette.count) entries, colour (\(r), \(g), \(b))")
                #expect(Int(search.nearest(r, g, b)) == best, "\(palette.count) entries, colour (\(r), \(g), \(b))")
            }
            if p == 4 || p == 5 { #expect(ties > 100, "the doubled and grid palettes must exercise ties") }
        }
    }

    /// In Oklab, the mapper's cell lists and the walk by lightness (``PaletteSearch``) give what
    /// a search of the whole palette gives, point by point, ties included (lowest index):
    /// random palettes, one with every entry twice, and points anywhere in the space's box, as
    /// a carried error can make them.
    @Test func oklabMapperFindsTheNearestEntry() {
        var random = SeededRandom(seed: 0x2545_F491_4F6C_DD1D)
        func next() -> UInt8 { random.byte() }
        var palettes = [1, 9, 100, 255].map { size in (0..<size).map { _ in RGBA(r: next(), g: next(), b: next()) } }
        let half = (0..<128).map { _ in RGBA(r: next(), g: next(), b: next()) }
        palettes.append(half + half)
        // Crowded: entries a few levels apart, so a cell's list is cut by planes between them.
        palettes.append((0..<256).map { _ in RGBA(r: 100 + next() % 40, g: 60 + next() % 40, b: 150 + next() % 40) })
        for palette in palettes {
            let mapper = ColorMapper(palette: palette, weights: .perceptual, space: .oklab)
            let search = PaletteSearch(oklab: mapper.points)
            #expect(mapper.points.count == palette.count)
            let limits = mapper.limits
            for n in 0..<3000 {
                // Colours' own points, and points anywhere in the box.
                let p: (Int32, Int32, Int32) = n % 2 == 0
                    ? Oklab.point(Int32(next()), Int32(next()), Int32(next()))
                    : (Int32(next()) * 4 % (limits.0 + 1), Int32(next()) * 2 % (limits.1 + 1), Int32(next()) * 2 % (limits.2 + 1))
                var best = 0, bestDistance = Int32.max
                for (e, q) in mapper.points.enumerated() {
                    let d = (q.0 - p.0) * (q.0 - p.0) + (q.1 - p.1) * (q.1 - p.1) + (q.2 - p.2) * (q.2 - p.2)
                    if d < bestDistance { (best, bestDistance) = (e, d) }
                }
                #expect(Int(mapper.nearest(point: p)) == best, "\(palette.count) entries, point \(p)")
                #expect(Int(search.nearest(point: p)) == best, "search: \(palette.count) entries, point \(p)")
            }
        }
    }

    /// Oklab points: black and white on the grey axis at the ends of lightness, lightness
    /// rising with every grey level, the colour axes within their limits for the cube's
    /// corners, and a pixel's plane point its colour's point.
    @Test func oklabPoints() {
        // The written-out linear table is the sRGB curve, to a unit in the last place of
        // what the platform's `pow` gives.
        for v in 0..<256 {
            let c = Double(v) / 255
            let expected = Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
            #expect(abs(Oklab.linearLight(v) - expected) <= expected.ulp, "level \(v)")
        }
        #expect(Oklab.linearLight(0) == 0 && Oklab.linearLight(255) == 1)
        let black = Oklab.point(0, 0, 0), white = Oklab.point(255, 255, 255)
        #expect(black == (0, Oklab.offsets.1, Oklab.offsets.2))
        #expect(white.0 == 990 && abs(white.1 - Oklab.offsets.1) <= 1 && abs(white.2 - Oklab.offsets.2) <= 1)
        var last: Int32 = -1
        for v in Int32(0)...255 {
            let p = Oklab.point(v, v, v)
            #expect(p.0 > last, "grey \(v)")
            #expect(abs(p.1 - Oklab.offsets.1) <= 1 && abs(p.2 - Oklab.offsets.2) <= 1, "grey \(v): \(p)")
            last = p.0
        }
        for k in 0..<8 {
            let p = Oklab.point(k & 1 == 0 ? 0 : 255, k & 2 == 0 ? 0 : 255, k & 4 == 0 ? 0 : 255)
            #expect(p.1 > 0 && p.1 < Oklab.limits.1 && p.2 > 0 && p.2 < Oklab.limits.2, "corner \(k): \(p)")
        }
        // Blue is darker than green at full strength, and a and b tell red from green and yellow from blue.
        let red = Oklab.point(255, 0, 0), green = Oklab.point(0, 255, 0), blue = Oklab.point(0, 0, 255)
        #expect(blue.0 < red.0 && red.0 < green.0)
        #expect(red.1 > Oklab.offsets.1 && green.1 < Oklab.offsets.1 && blue.2 < Oklab.offsets.2)
        var image = RGBAImage(width: 37, height: 23)
        for y in 0..<23 {
            for x in 0..<37 { image[x, y] = RGBA(r: UInt8(x * 7 % 256), g: UInt8(y * 11 % 256), b: UInt8((x * y) % 256)) }
        }
        let plane = OklabPlane(image)
        plane.bytes.withUnsafeBytes { raw in
            let packed = raw.bindMemory(to: UInt32.self)
            for y in 0..<23 {
                for x in 0..<37 {
                    let c = image[x, y]
                    #expect(OklabPlane.unpack(packed[y * 37 + x]) == Oklab.point(Int32(c.r), Int32(c.g), Int32(c.b)), "(\(x), \(y))")
                }
            }
        }
    }

    /// Eight colours converted at once come out as each converted alone, to the bit: over a
    /// lattice of the colour cube, in a plane of noise (every pixel a new colour, so the
    /// plane converts eight at a time) whose rows are no multiple of eight long, and in a
    /// flat plane with a few colours.
    @Test func oklabPointsInEightsMatchOneByOne() {
        var lattice: [(UInt32, UInt32, UInt32)] = []
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 15) {
                for b in stride(from: 0, through: 255, by: 5) { lattice.append((UInt32(r), UInt32(g), UInt32(b))) }
            }
        }
        for start in stride(from: 0, to: lattice.count, by: 8) {
            var r = SIMD8<UInt32>(), g = SIMD8<UInt32>(), b = SIMD8<UInt32>()
            for k in 0..<8 {
                let c = lattice[(start + k) % lattice.count]
                (r[k], g[k], b[k]) = c
            }
            let packed = Oklab.packedPoints(r, g, b)
            for k in 0..<8 {
                let one = Oklab.point(Int32(r[k]), Int32(g[k]), Int32(b[k]))
                #expect(OklabPlane.unpack(packed[k]) == one, "(\(r[k]), \(g[k]), \(b[k]))")
            }
        }
        var seed: UInt32 = 12345
        func next() -> UInt8 {
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        var noise = RGBAImage(width: 61, height: 13)
        for y in 0..<13 {
            // Some runs of one colour, so the plane's table of recent colours answers too.
            for x in 0..<61 { noise[x, y] = x % 20 < 5 ? RGBA(r: 10, g: 200, b: UInt8(y)) : RGBA(r: next(), g: next(), b: next()) }
        }
        // And a flat picture with a few colours in it: bands of rows whose colours the table
        // lacks number fewer than eight, so a batch is converted part-full.
        var flat = RGBAImage(width: 50, height: 40, fill: RGBA(r: 30, g: 60, b: 90))
        for k in 0..<5 { flat[k * 9 + 3, k * 7 + 2] = RGBA(r: UInt8(40 * k), g: 255, b: UInt8(250 - 30 * k)) }
        for (image, name) in [(noise, "noise"), (flat, "flat")] {
            let plane = OklabPlane(image)
            plane.bytes.withUnsafeBytes { raw in
                let packed = raw.bindMemory(to: UInt32.self)
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let c = image[x, y]
                        #expect(OklabPlane.unpack(packed[y * image.width + x]) == Oklab.point(c), "\(name) (\(x), \(y))")
                    }
                }
            }
        }
    }

    /// Ordered dithering in Oklab reads a layer's plane where it has one, to the same
    /// indices as converting each colour: a window of the strip, and a crop at its place,
    /// with every pixel dithered and with some left undithered (a miss of an undithered
    /// colour then takes its point from the plane, in a call of its own).
    @Test(arguments: [false, true])
    func orderedInOklabReadsThePlaneAlike(_ masked: Bool) {
        var strip = RGBAImage(width: 90, height: 12)
        for y in 0..<12 {
            for x in 0..<90 { strip[x, y] = RGBA(r: UInt8(x * 2), g: UInt8(100 + y * 3), b: UInt8(200 - x)) }
        }
        let palette = (0..<40).map { (k: Int) -> RGBA in
            let green: Int = 90 + k % 5 * 12
            return RGBA(r: UInt8(k * 6), g: UInt8(green), b: UInt8(250 - k * 5))
        }
        let plane = OklabPlane(strip)
        let mapper = ColorMapper(palette: palette, weights: .perceptual, space: .oklab)
        let columns = 17..<71
        // Two pixels in five left undithered, in runs along a row.
        let undithered = masked ? (0..<(columns.count * 12)).map { $0 % 5 < 2 } : nil
        let plain = Quantizer.map(strip, columns: columns, height: 12, mapper: mapper, dither: .ordered, transparentIndex: nil,
                                  originX: 17, only: nil, undithered: undithered)
        let planar = Quantizer.map(strip, columns: columns, height: 12,
                                   mapper: ColorMapper(palette: palette, weights: .perceptual, space: .oklab),
                                   dither: .ordered, transparentIndex: nil, originX: 17, only: nil, undithered: undithered,
                                   plane: plane)
        #expect(plain == planar)
        let crop = strip.cropped(x: 17, width: columns.count, height: 12)
        let cropped = Quantizer.map(crop, mapper: ColorMapper(palette: palette, weights: .perceptual, space: .oklab),
                                    dither: .ordered, transparentIndex: nil, originX: 17, only: nil, undithered: undithered,
                                    plane: plane, planeX: 17)
        #expect(cropped == plain)
        #expect(Set(plain).count > 4, "the ramp is dithered over several entries")
        if let undithered {
            // The undithered pixels take their nearest entry.
            for (i, flag) in undithered.enumerated() where flag {
                let c = strip[17 + i % columns.count, i / columns.count]
                #expect(plain[i] == mapper.nearest(Int32(c.r), Int32(c.g), Int32(c.b)), "pixel \(i)")
            }
        }
    }

    /// Median cut with the bins kept in three orders gives the palette of the plain
    /// algorithm, which sorts each box by its widest channel's key before splitting it.
    @Test(SlowTests.rendersAtLength, arguments: [2, 16, 255], [ColorSpace.rgb, .oklab])
    func medianCutMatchesSortingEveryBox(_ colors: Int, _ space: ColorSpace) {
        var image = RGBAImage(width: 120, height: 80)
        for y in 0..<80 {
            for x in 0..<120 {
                image[x, y] = RGBA(r: UInt8(x * 2), g: UInt8((x * y / 7) % 256), b: UInt8(255 - y * 3))
            }
        }
        let histogram = Histogram(image, weights: .perceptual, space: space)
        let expected = QuantizerTests.medianCutSortingEveryBox(histogram, colors: colors, space: space)
        #expect(histogram.bins.count > 1000)
        #expect(histogram.medianCut(colors: colors) == expected)
    }

    /// Pixels flagged coarse count in cells of 5 bits per channel, apart from the fine cells
    /// of 6 bits, and every bin keeps its pixels' exact mean.
    @Test func coarsePixelsShareFiveBitCells() {
        // Eight colours in one 5-bit cell (r, g and b each 8 or 12), so in eight 6-bit cells;
        // the first row flagged coarse, the second not.
        var image = RGBAImage(width: 8, height: 2)
        for y in 0..<2 {
            for x in 0..<8 {
                image[x, y] = RGBA(r: UInt8(8 + (x & 1) * 4), g: UInt8(8 + (x >> 1 & 1) * 4), b: UInt8(8 + (x >> 2) * 4))
            }
        }
        let coarse = [Bool](repeating: true, count: 8) + [Bool](repeating: false, count: 8)
        #expect(Histogram(image).bins.count == 8)
        let mixed = Histogram(image, coarse: coarse)
        #expect(mixed.bins.count == 9)
        let wide = mixed.bins.filter(\.coarse)
        #expect(wide.count == 1 && wide[0].count == 8 && wide[0].r == 10 && wide[0].g == 10 && wide[0].b == 10)
        #expect(mixed.bins.filter { !$0.coarse }.allSatisfy { $0.count == 1 })
        // Flags of the wrong length are ignored.
        #expect(Histogram(image, coarse: [true]).bins.count == 8)
        // Every pixel coarse: one bin. A fine and a coarse bin with the same mean still sort apart.
        #expect(Histogram(image, coarse: [Bool](repeating: true, count: 16)).bins.count == 1)
        let twin = RGBAImage(width: 2, height: 1, pixels: [10, 10, 10, 255, 10, 10, 10, 255])
        let twins = Histogram(twin, coarse: [true, false]).bins
        #expect(twins.count == 2 && twins[0].key(1) != twins[1].key(1))
    }

    /// A histogram of exact colours has one bin per colour, with its count (weighted when
    /// counts are given), in colour order, whatever the pixel order, and leaves out
    /// transparent pixels.
    @Test func exactColorHistogramKeepsEveryColour() {
        // Colours in one 6-bit cell and in others, repeated, in scrambled order; one transparent.
        let colors = [RGBA(r: 9, g: 9, b: 9), RGBA(r: 8, g: 9, b: 10), RGBA(r: 200, g: 3, b: 77), RGBA(r: 8, g: 9, b: 11),
                      RGBA(r: 9, g: 9, b: 9), RGBA(r: 200, g: 3, b: 77), RGBA(r: 9, g: 9, b: 9), RGBA(r: 1, g: 2, b: 3, a: 0)]
        let image = RGBAImage(width: 8, height: 1, pixels: colors.flatMap { [$0.r, $0.g, $0.b, $0.a] })
        #expect(Histogram(image).bins.count == 3, "two 6-bit cells and a grey level")
        let exact = Histogram(exactColorsOf: image)
        #expect(exact.bins.map { RGBA(r: UInt8($0.r), g: UInt8($0.g), b: UInt8($0.b)) }
                == [RGBA(r: 8, g: 9, b: 10), RGBA(r: 8, g: 9, b: 11), RGBA(r: 9, g: 9, b: 9), RGBA(r: 200, g: 3, b: 77)])
        #expect(exact.bins.map(\.count) == [1, 1, 3, 2])
        let weighted = Histogram(exactColorsOf: image, counts: [4, 0, 1, 1, 1, 2, 1, 9])
        #expect(weighted.bins.map(\.count) == [1, 1, 6, 3], "a count of 0 counts once")
        let reversed = RGBAImage(width: 8, height: 1, pixels: colors.reversed().flatMap { [$0.r, $0.g, $0.b, $0.a] })
        #expect(Histogram(exactColorsOf: reversed).bins.map(\.count) == [1, 1, 3, 2])
    }

    /// A picture whose colours fill fewer 6-bit cells than the palette has entries (a ramp
    /// from blue to yellow, four levels of it in each cell: 64 cells) gets a palette designed
    /// from its exact colours: nearly every entry distinct, each level within one of an
    /// entry, where the cells' means gave at most 64 entries and levels two away.
    @Test(arguments: [ColorSpace.rgb, .oklab])
    func fewCellsGetExactColours(_ space: ColorSpace) {
        var image = RGBAImage(width: 256, height: 4)
        for y in 0..<4 { for x in 0..<256 { image[x, y] = RGBA(r: UInt8(x), g: UInt8(x), b: UInt8(255 - x)) } }
        #expect(Histogram(image).bins.count == 64)
        let (palette, exact) = PaletteDesigner(maxColors: 200, space: space).design(image)
        #expect(!exact)
        #expect(Set(palette).count >= 190, "\(Set(palette).count) distinct entries")
        let levels = Set(palette.map(\.g))
        let worst = (0...255).map { level in levels.map { abs(Int($0) - level) }.min()! }.max()!
        #expect(worst <= 1, "every level within one of an entry (the worst \(worst) away)")
        // A reserved colour still comes first, and the rest fit around it.
        let (withDot, _) = PaletteDesigner(maxColors: 200, space: space).design(image, reserved: [RGBA(r: 255, g: 0, b: 0)])
        #expect(withDot.first == RGBA(r: 255, g: 0, b: 0) && Set(withDot).count >= 190)
    }

    /// A picture of few colours, nearly all of its pixels in fewer colours than the palette
    /// has entries, is designed from its exact colours where the designer is asked to
    /// (``PaletteDesigner/exactWhereConcentrated``, as the GIF encoder asks for rests): 60
    /// steps of a dark gradient a level apart (240 pixels each) under 1,200 pixels of text
    /// anti-aliased onto them (1,119 colours in all, in 687 6-bit cells: too many for the
    /// exact path of few cells) all get entries of their own, where the cells' means keep
    /// 17 of them in RGB and 16 in Oklab. Past either limit nothing changes: 9,000 pixels of
    /// text on steps of 4,000 (5,309 colours, above ``PaletteDesigner/concentratedColors``;
    /// the 256 most used hold 97% of the pixels), or 4,000 on steps of 240 (2,909 colours;
    /// 83%, below ``PaletteDesigner/concentratedShare``). Either limit lifted fails its case.
    @Test(SlowTests.rendersAtLength, arguments: [ColorSpace.rgb, .oklab])
    func concentratedColoursGetEntriesOfTheirOwn(_ space: ColorSpace) {
        func design(_ image: RGBAImage, concentrated: Bool) -> [RGBA] {
            var designer = PaletteDesigner(maxColors: 256, refinements: 4, space: space)
            designer.exactWhereConcentrated = concentrated
            return designer.design(image).palette
        }
        let (image, steps) = concentratedPicture(steps: 60, stepPixels: 240, scattered: 1200)
        #expect(Histogram(image).bins.count >= 256, "too many cells for the exact path of few cells")
        let exact = Set(design(image, concentrated: true)), cells = Set(design(image, concentrated: false))
        #expect(steps.filter(exact.contains).count == 60, "exact: \(steps.filter(exact.contains).count) of 60 steps exact")
        #expect(steps.filter(cells.contains).count < 30, "cells: \(steps.filter(cells.contains).count) of 60 steps exact")
        for (stepPixels, scattered, what) in [(4000, 9000, "too many colours"), (240, 4000, "the steps hold too small a share")] {
            let (other, _) = concentratedPicture(steps: 60, stepPixels: stepPixels, scattered: scattered)
            let same = design(other, concentrated: true) == design(other, concentrated: false)
            #expect(same, "\(what): the palettes differ")
        }
    }

    /// Grey pixels (red, green and blue alike) that are not coarse count in a bin per level,
    /// so a grey ramp beside other colours can get more than the 64 entries its 6-bit cells
    /// held it to: a ramp of every level (4,096 pixels) beside 256 pixels of other colours,
    /// too many cells for the exact colours, gets 108 grey entries in RGB and 119 in Oklab,
    /// where it got 64 in both without the grey bins.
    @Test(arguments: [ColorSpace.rgb, .oklab])
    func greyLevelsGetBinsOfTheirOwn(_ space: ColorSpace) {
        var image = RGBAImage(width: 256, height: 17)
        for y in 0..<16 { for x in 0..<256 { image[x, y] = RGBA(r: UInt8(x), g: UInt8(x), b: UInt8(x)) } }
        var random = SeededRandom(seed: 13)
        for x in 0..<256 {
            // Never grey: red 150 levels above blue, or 150 below it.
            let low = UInt8((random.next() >> 33) % 100), g = UInt8(random.next() >> 56)
            image[x, 16] = x % 2 == 0 ? RGBA(r: low + 150, g: g, b: low) : RGBA(r: low, g: g, b: low + 150)
        }
        let histogram = Histogram(image, space: space)
        let greys = histogram.bins.filter { $0.r == $0.g && $0.g == $0.b }
        #expect(greys.count == 256 && greys.allSatisfy { $0.count == 16 && !$0.coarse })
        #expect(histogram.bins.count > 256, "\(histogram.bins.count) bins: too many for the exact colours")
        let (palette, exact) = PaletteDesigner(maxColors: 256, space: space).design(image)
        #expect(!exact)
        let levels = Set(palette.filter { $0.r == $0.g && $0.g == $0.b }.map(\.g))
        #expect(levels.count > 100, "\(levels.count) grey entries")
        // A coarse grey pixel still counts in its 5-bit cell, and a pixel one level off grey in its 6-bit cell.
        let pair = RGBAImage(width: 3, height: 1, pixels: [40, 40, 40, 255, 41, 41, 41, 255, 41, 42, 41, 255])
        let split = Histogram(pair, coarse: [true, false, false]).bins
        #expect(split.count == 3 && split.filter(\.coarse).map(\.r) == [40])
        #expect(split.contains { $0.r == 41 && $0.g == 42 && !$0.coarse })
    }

    /// Median cut over fine and coarse bins together still gives the plain algorithm's palette.
    @Test(arguments: [ColorSpace.rgb, .oklab])
    func medianCutOverBothCellSizes(_ space: ColorSpace) {
        var image = RGBAImage(width: 120, height: 80)
        var coarse: [Bool] = []
        for y in 0..<80 {
            for x in 0..<120 {
                image[x, y] = RGBA(r: UInt8(x * 2), g: UInt8((x * y / 7) % 256), b: UInt8(255 - y * 3))
                coarse.append((x / 10 + y / 10) % 2 == 0)
            }
        }
        let histogram = Histogram(image, weights: .perceptual, space: space, coarse: coarse)
        #expect(histogram.bins.contains(where: \.coarse) && histogram.bins.contains { !$0.coarse })
        #expect(histogram.medianCut(colors: 64)
                == QuantizerTests.medianCutSortingEveryBox(histogram, colors: 64, space: space))
    }

    /// Median cut as the plain algorithm does it: each box sorted by its widest channel's key
    /// (then by the bin's place in the histogram) before it is split. In Oklab the boxes
    /// split the bins' points, a quarter of each coordinate, with the axes alike; an entry is
    /// its box's mean colour in RGB.
    static func medianCutSortingEveryBox(_ histogram: Histogram, colors: Int, space: ColorSpace = .rgb) -> [RGBA] {
        let oklab = space == .oklab
        let w = oklab ? (1.0, 1.0, 1.0) : (4.0, 8.0, 3.0)
        // What is split, beside the bin it stands for.
        var bins: [(split: Histogram.Bin, index: Int)] = histogram.bins.enumerated().map { i, bin in
            guard oklab else { return (bin, i) }
            let p = Oklab.point(RGBA(r: UInt8(bin.r.rounded()), g: UInt8(bin.g.rounded()), b: UInt8(bin.b.rounded())))
            return (Histogram.Bin(count: bin.count, r: Double(p.0) / 4, g: Double(p.1) / 4, b: Double(p.2) / 4,
                                  coarse: bin.coarse), i)
        }
        func split(_ box: Range<Int>) -> [Histogram.Bin] { bins[box].map(\.split) }
        var boxes = [0..<bins.count]
        var errors = [Histogram.squaredError(split(0..<bins.count), weights: w)]
        while boxes.count < colors {
            guard let worst = errors.indices.max(by: { errors[$0] < errors[$1] }), errors[worst] > 0 else { break }
            let box = boxes[worst]
            let channel = Histogram.widestChannel(split(box), weights: w)
            let sorted = bins[box].sorted { ($0.split.key(channel), $0.index) < ($1.split.key(channel), $1.index) }
            bins.replaceSubrange(box, with: sorted)
            let total = bins[box].reduce(0) { $0 + $1.split.count }
            var running = 0.0, cut = box.lowerBound + 1
            for i in box {
                running += bins[i].split.count
                if running >= total / 2 {
                    cut = i + 1
                    break
                }
            }
            cut = min(max(cut, box.lowerBound + 1), box.upperBound - 1)
            boxes[worst] = box.lowerBound..<cut
            errors[worst] = Histogram.squaredError(split(box.lowerBound..<cut), weights: w)
            boxes.append(cut..<box.upperBound)
            errors.append(Histogram.squaredError(split(cut..<box.upperBound), weights: w))
        }
        return boxes.map { box -> RGBA in
            let m = Histogram.mean(bins[box].map { histogram.bins[$0.index] })
            return RGBA(r: UInt8(m.0.rounded()), g: UInt8(m.1.rounded()), b: UInt8(m.2.rounded()))
        }
    }

    /// A k-means pass that keeps a bin's entry without a search (near enough to it) gives the
    /// palette that searching every bin gives, pass after pass.
    @Test(arguments: [ColorSpace.rgb, .oklab])
    func refineKeepsEntriesExactly(_ space: ColorSpace) {
        var image = RGBAImage(width: 96, height: 64)
        for y in 0..<64 {
            for x in 0..<96 {
                image[x, y] = RGBA(r: UInt8(x * 255 / 95), g: UInt8((x * y) % 256), b: UInt8(y * 4 % 256))
            }
        }
        let histogram = Histogram(image, weights: .perceptual, space: space)
        var kept = histogram.medianCut(colors: 64), searched = kept
        var assignment: [UInt8] = []
        for _ in 0..<4 {
            let before = kept
            kept = histogram.refine(kept, assignment: &assignment)
            var fresh: [UInt8] = []
            searched = histogram.refine(searched, assignment: &fresh)
            #expect(kept == searched)
            #expect(assignment == fresh)
            // Each bin joined the entry nearest to its mean, searched here over the whole palette.
            let points = before.map { space == .oklab ? Oklab.point($0) : (Int32($0.r), Int32($0.g), Int32($0.b)) }
            let w: (Int32, Int32, Int32) = space == .oklab ? (1, 1, 1) : (4, 8, 3)
            let wrong = histogram.bins.indices.filter { i in
                let bin = histogram.bins[i]
                let color = (Int32(bin.r.rounded()), Int32(bin.g.rounded()), Int32(bin.b.rounded()))
                let p = space == .oklab ? Oklab.point(color.0, color.1, color.2) : color
                let distances = points.map { e -> Int32 in
                    let d = (e.0 - p.0, e.1 - p.1, e.2 - p.2)
                    return w.0 * d.0 * d.0 + w.1 * d.1 * d.1 + w.2 * d.2 * d.2
                }
                return distances[Int(assignment[i])] != distances.min()
            }
            #expect(wrong.isEmpty)
        }
        #expect(assignment.count == histogram.bins.count)
    }

    /// Designed in Oklab, a palette serves colours by Oklab's distance better than one
    /// designed in weighted RGB: ramps from black to white through six hues, sixteen entries,
    /// each pixel at its nearest entry in Oklab.
    @Test func oklabDesignServesOklabDistance() {
        let hues: [(Double, Double, Double)] = [(1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 1, 1), (0, 0, 1), (1, 0, 1)]
        var image = RGBAImage(width: 256, height: hues.count)
        for (y, hue) in hues.enumerated() {
            for x in 0..<256 {
                // Black to the hue over the first half, the hue to white over the second.
                let t = Double(x) / 128
                func level(_ c: Double) -> UInt8 { UInt8((t <= 1 ? c * t : c + (1 - c) * (t - 1)) * 255 / 1.9922) }
                image[x, y] = RGBA(r: level(hue.0), g: level(hue.1), b: level(hue.2))
            }
        }
        func error(_ space: ColorSpace) -> Int {
            let palette = PaletteDesigner(maxColors: 16, refinements: 4, weights: .perceptual, space: space)
                .design(image).palette.map { Oklab.point($0) }
            return image.pixels.withUnsafeBufferPointer { p in
                stride(from: 0, to: p.count, by: 4).reduce(0) { total, i in
                    let c = Oklab.point(Int32(p[i]), Int32(p[i + 1]), Int32(p[i + 2]))
                    return total + Int(palette.map { e -> Int32 in
                        let d = (e.0 - c.0, e.1 - c.1, e.2 - c.2)
                        return d.0 * d.0 + d.1 * d.1 + d.2 * d.2
                    }.min()!)
                }
            }
        }
        let rgb = error(.rgb), oklab = error(.oklab)
        #expect(oklab * 10 < rgb * 9, "Oklab \(oklab), RGB \(rgb)")
    }

    /// A 256x256 field of reds and oranges whose blue varies from pixel to pixel, with a 3x3
    /// patch of light blue, and that colour.
    static func farPatch() -> (RGBAImage, RGBA) {
        var image = RGBAImage(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                image[x, y] = RGBA(r: UInt8(128 + x / 2), g: UInt8(40 + y / 2), b: UInt8(20 + (x ^ y) % 40))
            }
        }
        let patch = RGBA(r: 150, g: 200, b: 255)
        for y in 60..<63 { for x in 60..<63 { image[x, y] = patch } }
        return (image, patch)
    }

    /// A small patch of a colour far from the rest of the picture gets an entry near it
    /// (``PaletteDesigner/uncoveredDistance``): median cut alone puts it in a box with a
    /// larger area and draws it in their mean. ``farPatch()``, 32 entries designed in Oklab.
    @Test func farColoursGetEntries() {
        let (image, patch) = Self.farPatch()
        let palette = PaletteDesigner(maxColors: 32, space: .oklab).design(image).palette
        let p = Oklab.point(patch)
        let nearest = palette.map { ChannelWeights.rgb.distance(Oklab.point($0), p) }.min()!
        #expect(nearest <= PaletteDesigner.uncoveredDistance, "the patch's nearest entry is \(nearest) away")
    }

    /// A far colour that a reserved entry already shows takes no designed entry:
    /// ``farPatch()``, the patch's colour reserved beside 32 designed entries.
    @Test func reservedColoursCountAsCovered() {
        let (image, patch) = Self.farPatch()
        let palette = PaletteDesigner(maxColors: 33, space: .oklab).design(image, reserved: [patch]).palette
        let p = Oklab.point(patch)
        let near = palette.dropFirst().filter { ChannelWeights.rgb.distance(Oklab.point($0), p) <= PaletteDesigner.uncoveredDistance }
        #expect(palette.first == patch)
        #expect(near.isEmpty, "designed entries near the reserved patch: \(near)")
    }

    /// The perceptual weights count green above red: a grey is nearer the entry 12 off in
    /// red than the one 10 off in green, where plain RGB says the opposite.
    @Test func perceptualWeightsFavourGreen() {
        let palette = [RGBA(r: 100, g: 110, b: 100), RGBA(r: 112, g: 100, b: 100)]
        #expect(ColorMapper(palette: palette, weights: .rgb).nearest(100, 100, 100) == 0)
        #expect(ColorMapper(palette: palette, weights: .perceptual).nearest(100, 100, 100) == 1)
        #expect(Dither.none.weights == .rgb && Dither.ordered.weights == .perceptual)
    }

    /// Pixels that count more draw more of the palette's entries to their colours.
    @Test func countsWeighThePalette() {
        // Two ramps of 64 colours each, red on the left and blue on the right.
        var image = RGBAImage(width: 128, height: 1)
        for x in 0..<64 {
            image[x, 0] = RGBA(r: UInt8(128 + x * 2), g: 0, b: 0)
            image[64 + x, 0] = RGBA(r: 0, g: 0, b: UInt8(128 + x * 2))
        }
        func reds(_ counts: [UInt8]?) -> Int {
            PaletteDesigner(maxColors: 8).design(image, counts: counts).palette.filter { $0.r > $0.b }.count
        }
        #expect(reds(nil) == 4)
        #expect(reds([UInt8](repeating: 1, count: 128)) == 4)
        #expect(reds([UInt8](repeating: 16, count: 64) + [UInt8](repeating: 1, count: 64)) > 4)
        // Zeros count as 1, and counts of the wrong length are ignored.
        #expect(reds([UInt8](repeating: 0, count: 128)) == 4)
        #expect(reds([UInt8](repeating: 16, count: 64)) == 4)
    }

    /// A 40x30 picture of crossing ramps and a 16-entry palette that does not hold its colours.
    private static func rampsAndPalette() -> (image: RGBAImage, palette: [RGBA]) {
        var image = RGBAImage(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 { image[x, y] = RGBA(r: UInt8(x * 6), g: UInt8(y * 8), b: UInt8((x * y) % 256)) }
        }
        let palette = (0..<16).map { (k: Int) -> RGBA in
            RGBA(r: UInt8(k * 16), g: UInt8(255 - k * 16), b: UInt8(k * 77 % 256))
        }
        return (image, palette)
    }

    /// Mapping only some pixels gives them exactly the indices a whole mapping gives.
    @Test func mappingOnlySomePixelsKeepsTheirIndices() {
        let (image, palette) = Self.rampsAndPalette()
        let mapper = ColorMapper(palette: palette, weights: .perceptual)
        let whole = Quantizer.map(image, mapper: mapper, dither: .ordered, transparentIndex: nil, originX: 3)
        let only = (0..<(40 * 30)).map { ($0 * 7) % 3 == 0 }
        let part = Quantizer.map(image, mapper: ColorMapper(palette: palette, weights: .perceptual), dither: .ordered,
                                 transparentIndex: nil, originX: 3, only: only)
        #expect(Set(whole).count > 4, "the ramps are dithered over several entries")
        for i in only.indices {
            #expect(part[i] == (only[i] ? whole[i] : 0), "pixel \(i)")
        }
    }

    /// A pixel's ordered index depends on its colour, its mask flag and its place in the
    /// pattern alone, whatever the pixels around it: the mix cache, and the colours a miss
    /// works out ahead of the loop, change the time taken, never an index. Each pixel of a
    /// picture of many colours in runs of one to three (so a miss often finds another
    /// colour a pixel or two ahead) is checked against its colour mapped alone, as a
    /// 2x2 image at the same phase of the pattern.
    @Test func orderedIndicesDependOnColourAndPlaceAlone() {
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 { random.next() >> 33 }
        let (w, h) = (61, 9)
        var image = RGBAImage(width: w, height: h)
        var x = 0, y = 0, colour = RGBA(r: 0, g: 0, b: 0)
        for k in 0..<(w * h) {
            if k % w == 0 || next() % 3 == 0 {
                colour = RGBA(r: UInt8(next() % 256), g: UInt8(next() % 256), b: UInt8(next() % 256))
            }
            image[x, y] = colour
            x += 1
            if x == w { (x, y) = (0, y + 1) }
        }
        let palette = (0..<40).map { _ in RGBA(r: UInt8(next() % 256), g: UInt8(next() % 256), b: UInt8(next() % 256)) }
        let mapper = ColorMapper(palette: palette, weights: .perceptual)
        let plain = (0..<(w * h)).map { $0 % 7 == 3 }
        let originX = 5
        let mapped = Quantizer.map(image, mapper: mapper, dither: .ordered, transparentIndex: nil, originX: originX,
                                   only: nil, undithered: plain)
        var mixed = 0
        for i in 0..<(w * h) {
            let (px, py) = (i % w, i / w)
            let c = image[px, py]
            let alone = Quantizer.map(RGBAImage(width: 2, height: 2, fill: c), mapper: mapper, dither: .ordered,
                                      transparentIndex: nil, originX: 0, only: nil,
                                      undithered: [Bool](repeating: plain[i], count: 4))
            let expected = alone[(py % 2) * 2 + (px + originX) % 2]
            #expect(mapped[i] == expected, "pixel (\(px), \(py))")
            if Set(alone).count > 1 { mixed += 1 }
        }
        #expect(mixed > w * h / 2, "most pixels are mixes of several entries")
    }

    /// With a layer's plane, a dithered colour's mix is kept by its Oklab point as well as by
    /// its colour, and saturated colours a level apart often share a point: the indices are still
    /// those of each colour mapped alone. A picture of saturated colours in pairs that share a point, and
    /// of colours that are palette entries, in runs of one to three and in random order, is
    /// mapped with its plane (the mixes kept by point too) and without (each colour converted,
    /// no mixes by point), and each pixel is checked against its colour mapped alone, as a
    /// 2x2 image with its own plane at the same phase of the pattern.
    @Test func mixesKeptByPointMatchEachColourAlone() {
        // Distinct saturated reds whose points are equal, found by converting a block of the cube.
        var byPoint: [UInt32: RGBA] = [:], shared: [RGBA] = []
        for r in 200..<216 {
            for g in 8..<24 {
                for b in 40..<56 {
                    let c = RGBA(r: UInt8(r), g: UInt8(g), b: UInt8(b))
                    let key = OklabPlane.pack(Oklab.point(c))
                    if let first = byPoint[key] {
                        if shared.count < 120 { shared += [first, c] }
                    } else {
                        byPoint[key] = c
                    }
                }
            }
        }
        #expect(shared.count >= 100, "the corner has colours that share a point")
        var random = SeededRandom(seed: 0x2545_F491_4F6C_DD1D)
        var palette: [RGBA] = []
        for k in 0..<40 {
            palette.append(RGBA(r: UInt8(190 + k * 5 % 36), g: UInt8(k * 11 % 32), b: UInt8(30 + k * 7 % 40)))
        }
        for _ in 0..<8 {
            let r = UInt8(random.next() % 256), g = UInt8(random.next() % 256), b = UInt8(random.next() % 256)
            palette.append(RGBA(r: r, g: g, b: b))
        }
        let pool = shared + palette
        let (w, h) = (89, 10)
        var image = RGBAImage(width: w, height: h)
        var colour = pool[0]
        for i in 0..<(w * h) {
            if i % w == 0 || random.next() % 3 != 0 { colour = pool[Int(random.next() % UInt64(pool.count))] }
            image[i % w, i / w] = colour
        }
        let plain = (0..<(w * h)).map { $0 % 11 == 4 }
        let originX = 3
        func mapper() -> ColorMapper { ColorMapper(palette: palette, weights: .perceptual, space: .oklab) }
        let viaPlane = Quantizer.map(image, columns: 0..<w, height: h, mapper: mapper(), dither: .ordered,
                                     transparentIndex: nil, originX: originX, only: nil, undithered: plain,
                                     plane: OklabPlane(image))
        let converted = Quantizer.map(image, columns: 0..<w, height: h, mapper: mapper(), dither: .ordered,
                                      transparentIndex: nil, originX: originX, only: nil, undithered: plain)
        let differing = zip(viaPlane, converted).filter { $0 != $1 }.count
        #expect(viaPlane.count == converted.count && differing == 0, "\(differing) pixels differ")
        var mixed = 0
        for i in 0..<(w * h) {
            let (px, py) = (i % w, i / w)
            let alone = RGBAImage(width: 2, height: 2, fill: image[px, py])
            let indices = Quantizer.map(alone, columns: 0..<2, height: 2, mapper: mapper(), dither: .ordered,
                                        transparentIndex: nil, originX: 0, only: nil,
                                        undithered: [Bool](repeating: plain[i], count: 4), plane: OklabPlane(alone))
            #expect(viaPlane[i] == indices[(py % 2) * 2 + (px + originX) % 2], "pixel (\(px), \(py))")
            if Set(indices).count > 1 { mixed += 1 }
        }
        #expect(mixed > w * h / 3, "many pixels are mixes of several entries")
    }

    /// The mixes kept by point answer only for their own point: random colours over the whole
    /// cube, each beside its neighbour a level bluer (which often shares its point), fill the
    /// table's slots with many points that share a slot, and the plane's mapping (mixes kept by
    /// point) gives the indices of converting each colour (none kept), in cells and in rows.
    @Test func mixesKeptByPointAnswerOnlyForTheirPoint() {
        var random = SeededRandom(seed: 0x6A09_E667_F3BC_C909)
        let (w, h) = (240, 50)
        var image = RGBAImage(width: w, height: h)
        for i in stride(from: 0, to: w * h, by: 2) {
            let r = UInt8(random.next() % 256), g = UInt8(random.next() % 256), b = UInt8(random.next() % 255)
            image[i % w, i / w] = RGBA(r: r, g: g, b: b)
            image[(i + 1) % w, (i + 1) / w] = RGBA(r: r, g: g, b: b + 1)
        }
        var palette: [RGBA] = []
        for _ in 0..<200 {
            let r = UInt8(random.next() % 256), g = UInt8(random.next() % 256), b = UInt8(random.next() % 256)
            palette.append(RGBA(r: r, g: g, b: b))
        }
        func mapper() -> ColorMapper { ColorMapper(palette: palette, weights: .perceptual, space: .oklab) }
        let plain = (0..<(w * h)).map { $0 % 13 == 5 }
        for layout in [Quantizer.OrderedLayout.cells, .rows] {
            let viaPlane = Quantizer.map(image, columns: 0..<w, height: h, mapper: mapper(), dither: .ordered,
                                         transparentIndex: nil, originX: 1, only: nil, undithered: plain,
                                         plane: OklabPlane(image), layout: layout)
            let converted = Quantizer.map(image, columns: 0..<w, height: h, mapper: mapper(), dither: .ordered,
                                          transparentIndex: nil, originX: 1, only: nil, undithered: plain, layout: layout)
            let differing = zip(viaPlane, converted).filter { $0 != $1 }.count
            #expect(viaPlane.count == converted.count && differing == 0, "\(layout): \(differing) pixels differ")
            #expect(Set(converted).count > 100, "\(layout): the colours take many entries")
        }
    }

    /// Pixels the dither mask flags take their nearest entry; the others keep their dithered index.
    @Test func maskedPixelsTakeTheirNearestEntry() {
        let (image, palette) = Self.rampsAndPalette()
        let mapper = ColorMapper(palette: palette, weights: .perceptual)
        let dithered = Quantizer.map(image, mapper: mapper, dither: .ordered, transparentIndex: nil, originX: 3)
        let plain = (0..<(40 * 30)).map { $0 % 5 < 2 }
        let masked = Quantizer.map(image, mapper: ColorMapper(palette: palette, weights: .perceptual), dither: .ordered,
                                   transparentIndex: nil, originX: 3, only: nil, undithered: plain)
        var differs = 0
        for i in plain.indices {
            let c = image[i % 40, i / 40]
            let expected = plain[i] ? mapper.nearest(Int32(c.r), Int32(c.g), Int32(c.b)) : dithered[i]
            #expect(masked[i] == expected, "pixel \(i)")
            if plain[i] && dithered[i] != expected { differs += 1 }
        }
        #expect(differs > 0, "the mask changes some dithered pixels")
    }

    /// With a run slack, an undithered pixel repeats its left neighbour's index exactly when
    /// that entry is within the slack of its nearest entry's distance (in Oklab points), a
    /// pixel skipped by `only` starts a run afresh, and dithered pixels keep their indices.
    @Test func runSlackRepeatsTheLeftEntryWithinTheSlack() {
        var random = SeededRandom(seed: 0x5851_F42D_4C95_7F2D)
        let (w, h) = (57, 11)
        var image = RGBAImage(width: w + 6, height: h)
        // Texture: each pixel a few levels from its left neighbour, now and then a jump.
        var colour = (r: 120, g: 90, b: 60)
        for y in 0..<h {
            for x in 0..<(w + 6) {
                if random.next() % 9 == 0 {
                    colour = (Int(random.next() % 256), Int(random.next() % 256), Int(random.next() % 256))
                } else {
                    colour.r = min(255, max(0, colour.r + Int(random.next() % 13) - 6))
                    colour.g = min(255, max(0, colour.g + Int(random.next() % 13) - 6))
                    colour.b = min(255, max(0, colour.b + Int(random.next() % 13) - 6))
                }
                image[x, y] = RGBA(r: UInt8(colour.r), g: UInt8(colour.g), b: UInt8(colour.b))
            }
        }
        let palette = (0..<48).map { _ in RGBA(r: UInt8(random.next() % 256), g: UInt8(random.next() % 256),
                                               b: UInt8(random.next() % 256)) }
        let mapper = ColorMapper(palette: palette, space: .oklab)
        let plain = (0..<(w * h)).map { $0 % 11 != 4 }
        let only = (0..<(w * h)).map { $0 % 23 != 9 }
        let columns = 3..<(3 + w), slack: Int32 = 3000
        func mapped(_ runSlack: Int32) -> [UInt8] {
            Quantizer.map(image, columns: columns, height: h, mapper: mapper, dither: .ordered, transparentIndex: nil,
                          originX: 3, only: only, undithered: plain, layout: .rows, runSlack: runSlack)
        }
        let strict = mapped(0), loose = mapped(slack)
        func distance(_ i: Int, _ entry: UInt8) -> Int32 {
            let c = image[columns.lowerBound + i % w, i / w]
            let p = mapper.point(Int32(c.r), Int32(c.g), Int32(c.b)), q = mapper.points[Int(entry)]
            return (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)
        }
        var repeats = 0
        for i in 0..<(w * h) where only[i] {
            let c = image[columns.lowerBound + i % w, i / w]
            let nearest = mapper.nearest(point: mapper.point(Int32(c.r), Int32(c.g), Int32(c.b)))
            if plain[i] { #expect(strict[i] == nearest, "pixel \(i) takes its nearest entry without slack") }
            guard plain[i] else {
                #expect(loose[i] == strict[i], "dithered pixel \(i) keeps its index")
                continue
            }
            var expected = nearest
            if i % w > 0 && only[i - 1] && distance(i, loose[i - 1]) <= distance(i, nearest) + slack {
                expected = loose[i - 1]
            }
            #expect(loose[i] == expected, "pixel \(i)")
            if expected != nearest { repeats += 1 }
        }
        #expect(repeats > w * h / 20, "the slack lengthens runs (\(repeats) repeats)")
        func changes(_ indices: [UInt8]) -> Int {
            (0..<(w * h)).filter { $0 % w > 0 && only[$0] && only[$0 - 1] && indices[$0] != indices[$0 - 1] }.count
        }
        #expect(changes(loose) < changes(strict))
    }

    /// The dither mask flags both pixels of every neighbouring pair that differ by the edge or
    /// more, and leaves smooth ramps (a level per pixel in every channel) and flat areas
    /// dithered; a run of one colour along a row takes one flag, dithered if any of its pixels is.
    @Test func ditherMaskFlagsEdgesNotRamps() {
        var image = RGBAImage(width: 20, height: 6)
        for y in 0..<6 {
            for x in 0..<20 {
                // A ramp of one level per pixel (difference 2 + 4 + 1 = 7) up to column 9, then
                // flat to column 14; red from 15, each row a step darker than the one above.
                let v = UInt8(100 + min(x, 9))
                image[x, y] = x < 15 ? RGBA(r: v, g: v, b: v) : RGBA(r: UInt8(200 - 3 * y), g: 40, b: 40)
            }
        }
        // The flat grey run 9...14 and the red run 15...19 are dithered, edge and all; so is
        // the ramp, whose neighbours differ by less than the edge.
        #expect(DitherMask.undithered(image).allSatisfy { !$0 })
        // Pixels alone (not in a run), at the edge: a red column between grey and red.
        var step = image
        for y in 0..<6 { step[15, y] = RGBA(r: 200, g: 40, b: 90) }
        let mask = DitherMask.undithered(step)
        for y in 0..<6 {
            for x in 0..<20 {
                #expect(mask[y * 20 + x] == (x == 15), "pixel (\(x), \(y))")
            }
        }
        #expect(DitherMask.undithered(step, edge: 7, curve: 0).filter { $0 }.count == 6 * 10,
                "at an edge of 7, without the bend test, the ramp's nine columns that are no run's and the column alone")
        // With it, of the ramp only the pixels that bend by 7 or more: none (column 9 is a run's).
        let bending = DitherMask.undithered(step, edge: 7)
        for y in 0..<6 {
            for x in 0..<20 {
                #expect(bending[y * 20 + x] == (x == 15), "pixel (\(x), \(y))")
            }
        }
    }

    /// Pixels of one colour side by side along a row, wherever they lie (beside texture,
    /// an edge or a gradient), share their flag: as the content slides along the row, one
    /// takes another's place on screen and keeps its entry.
    @Test func ditherMaskGivesARunOneFlag() {
        let w = 48, h = 10
        // Texture, then a run of one colour a row (a steep gradient down it), then texture.
        let image = QuantizerTests.picture(width: w, height: h, seed: 7) { x, y, random in
            (12..<36).contains(x) ? RGBA(r: UInt8(5 * y), g: UInt8(250 - 6 * y), b: 90)
                : RGBA(r: UInt8(random >> 24), g: UInt8(random >> 16 & 0xFF), b: UInt8(random >> 8 & 0xFF))
        }
        let mask = DitherMask.undithered(image)
        let words = image.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        for y in 1..<(h - 1) {
            let run = (12..<36).map { mask[y * w + $0] }
            #expect(Set(run).count == 1 && run[0] == false, "row \(y): the run is dithered throughout")
            for x in 0..<(w - 1) where words[y * w + x] == words[y * w + x + 1] {
                #expect(mask[y * w + x] == mask[y * w + x + 1], "(\(x), \(y)) and the pixel right of it")
            }
        }
        // Without the bend test the run is undithered throughout (its rows differ by 28 and more).
        let firstOnly = DitherMask.undithered(image, curve: 0)
        #expect((1..<(h - 1)).allSatisfy { y in (12..<36).allSatisfy { firstOnly[y * w + $0] } })
    }

    /// A picture whose pixel (x, y) is `color(x, y, r)`, r the next value of a linear
    /// congruential sequence from `seed`, taken row by row.
    static func picture(width: Int, height: Int, seed: UInt32,
                        _ color: (_ x: Int, _ y: Int, _ random: UInt32) -> RGBA) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                image[x, y] = color(x, y, state)
            }
        }
        return image
    }

    /// A steep smooth ramp, whose neighbours differ by the edge or more but which does not bend,
    /// stays dithered, and so do its first and last rows, where one neighbour is missing, and
    /// a step between flat runs; texture stays undithered.
    @Test func ditherMaskDithersSteepRampsNotTexture() {
        let w = 64, h = 12
        let image = QuantizerTests.picture(width: w, height: h, seed: 99) { x, y, random in
            switch y {
            // Rows 0-3: green rising 3 levels a pixel across (4 x 3 = 12 a step).
            case 0..<4: RGBA(r: 20, g: UInt8(3 * x), b: 20)
            // Rows 4-7: texture, levels scattered over 0...127.
            case 4..<8: RGBA(r: UInt8(random >> 25), g: UInt8(random >> 18 & 127), b: UInt8(random >> 11 & 127))
            // Rows 8-11: a step from dark to light at column 32.
            default: x < 32 ? RGBA(r: 30, g: 30, b: 30) : RGBA(r: 220, g: 220, b: 220)
            }
        }
        let mask = DitherMask.undithered(image)
        let firstOnly = DitherMask.undithered(image, curve: 0)
        let bits = DitherMask(image).bits
        // The ramp's rows, away from the texture below them (row 3 differs from row 4).
        for y in 0..<3 {
            for x in 0..<w {
                #expect(firstOnly[y * w + x], "the ramp differs by the edge from its neighbours at (\(x), \(y))")
                #expect(!mask[y * w + x], "the ramp stays dithered at (\(x), \(y))")
            }
        }
        let texture = (4 * w)..<(8 * w)
        #expect(texture.filter { mask[$0] }.count > texture.count * 9 / 10, "texture stays undithered")
        for y in 9..<11 {
            // The step's sides are the ends of flat runs, and take the runs' flag.
            #expect(bits[y * w + 31] & 2 != 0 && bits[y * w + 32] & 2 != 0, "both sides of the step differ, row \(y)")
            #expect(!mask[y * w + 31] && !mask[y * w + 32] && !mask[y * w + 10] && !mask[y * w + 50], "flat runs, row \(y)")
        }
        // A ramp down the picture: its first and last rows have one vertical neighbour only.
        var vertical = RGBAImage(width: 8, height: 40)
        for y in 0..<40 { for x in 0..<8 { vertical[x, y] = RGBA(r: 10, g: UInt8(4 * y), b: 10) } }
        #expect(DitherMask.undithered(vertical).allSatisfy { !$0 })
        #expect(DitherMask.undithered(vertical, curve: 0).allSatisfy { $0 })
    }

    /// The edge grows as the palette shrinks (10 at 256 colours, 80 at 32): fine grain, two
    /// levels of noise a channel, is texture for 256 colours and dithered for 32, while coarse
    /// texture stays undithered at 32 too.
    @Test func ditherMaskEdgeFollowsThePaletteSize() {
        #expect([256, 128, 64, 32, 2].map { DitherMask.edge(colors: $0) } == [10, 20, 40, 80, 1280])
        #expect(DitherMask.edge(colors: 1) == 1280 && DitherMask.edge(colors: 300) == 10)
        let w = 64, h = 16
        let grain = QuantizerTests.picture(width: w, height: h, seed: 5) { x, y, random in
            func level(_ base: Int, _ bits: UInt32) -> UInt8 { UInt8(base + Int(bits % 5) - 2) }
            return RGBA(r: level(60 + 2 * x, random >> 8), g: level(140 - x + y, random >> 16), b: level(40 + 3 * y, random >> 24))
        }
        let coarse = QuantizerTests.picture(width: w, height: h, seed: 6) { _, _, random in
            RGBA(r: UInt8(random >> 25), g: UInt8(random >> 18 & 127), b: UInt8(random >> 11 & 127))
        }
        func undithered(_ image: RGBAImage, colors: Int) -> Int {
            DitherMask(image, colors: colors).bits.filter { $0 & 1 != 0 }.count
        }
        #expect(undithered(grain, colors: 256) > w * h / 2, "grain is texture at 256 colours")
        #expect(undithered(grain, colors: 32) < w * h / 10, "and dithered at 32")
        #expect(undithered(coarse, colors: 32) > w * h * 9 / 10, "coarse texture stays undithered at 32")
    }

    /// The mask is made in bands of rows, one parallel task each: on a picture tall enough for
    /// several bands, with edges across the bands' borders, every flag and the column counts
    /// are those of a pixel-by-pixel comparison with the four neighbours.
    @Test func ditherMaskInBandsMatchesEveryNeighbourCompared() {
        let w = 37, h = 150
        var image = RGBAImage(width: w, height: h)
        var state: UInt32 = 12_345
        for y in 0..<h {
            for x in 0..<w {
                // A ramp, with a pseudo-random sprinkle of single steps and edges.
                state = state &* 1_664_525 &+ 1_013_904_223
                let jump = state >> 28 == 0 ? UInt8(state >> 20 & 31) : 0
                let v = UInt8((x + y) & 0x7F) &+ jump
                image[x, y] = RGBA(r: v, g: UInt8(y & 0xFF), b: v / 2)
            }
        }
        func difference(_ a: RGBA, _ b: RGBA) -> Int32 {
            2 * abs(Int32(a.r) - Int32(b.r)) + 4 * abs(Int32(a.g) - Int32(b.g)) + abs(Int32(a.b) - Int32(b.b))
        }
        // The second difference a - 2b + c, weighted alike.
        func bend(_ a: RGBA, _ b: RGBA, _ c: RGBA) -> Int32 {
            func d(_ p: UInt8, _ q: UInt8, _ r: UInt8) -> Int32 { abs(Int32(p) - 2 * Int32(q) + Int32(r)) }
            return 2 * d(a.r, b.r, c.r) + 4 * d(a.g, b.g, c.g) + d(a.b, b.b, c.b)
        }
        let mask = DitherMask(image), flags = mask.flags
        var flaggedCount = 0, bendingLess = 0
        var alone = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let c = image[x, y]
                var differs = false
                for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] where (0..<w).contains(x + dx) && (0..<h).contains(y + dy) {
                    differs = differs || difference(c, image[x + dx, y + dy]) >= DitherMask.edge
                }
                #expect((mask.bits[y * w + x] & 2 != 0) == differs, "pixel (\(x), \(y)) differs")
                // An axis counts only where the pixel has both neighbours on it.
                let across = x > 0 && x + 1 < w && bend(image[x - 1, y], c, image[x + 1, y]) >= DitherMask.curve
                let down = y > 0 && y + 1 < h && bend(image[x, y - 1], c, image[x, y + 1]) >= DitherMask.curve
                alone[y * w + x] = differs && (across || down)
                if differs && !(across || down) { bendingLess += 1 }
            }
            // A run of one colour along the row: every pixel flagged, or none.
            var start = 0
            for x in 1...w where x == w || image[x, y] != image[x - 1, y] {
                let all = (start..<x).allSatisfy { alone[y * w + $0] }
                for r in start..<x {
                    #expect(flags[y * w + r] == all, "pixel (\(r), \(y))")
                    if all { flaggedCount += 1 }
                }
                start = x
            }
        }
        #expect(bendingLess > 0, "some pixels differ from a neighbour but do not bend")
        #expect(flaggedCount > 0 && flaggedCount < w * h, "the picture has both flagged and dithered pixels")
        // One pixel, one column and one row: only the neighbours there are, and a pixel at
        // an end has no second difference along the line.
        #expect(DitherMask(RGBAImage(width: 1, height: 1, fill: .black)).flags == [false])
        var column = RGBAImage(width: 1, height: 4, fill: .black)
        column[0, 2] = RGBA(r: 255, g: 255, b: 255)
        #expect(DitherMask(column).flags == [false, true, true, false])
        var row = RGBAImage(width: 5, height: 1, fill: .black)
        row[1, 0] = RGBA(r: 255, g: 255, b: 255)
        row[2, 0] = RGBA(r: 0, g: 0, b: 255)
        #expect(DitherMask(row).flags == [false, true, true, false, false], "pixel 3 ends a run with pixel 4")
    }

    /// ``DitherMask/fillsColorCells(_:columns:moreThan:)`` counts the Oklab cells (lightness
    /// / 64, a / 32, b / 32) that the dithered pixels of some columns fill, those whose
    /// column and row are multiples of ``DitherMask/colorStep``: a flat
    /// grey fills one, and a white line across it, left undithered, adds none; a smooth
    /// ramp through many hues fills dozens.
    @Test func smoothColoursFillCellsOfOklab() {
        let w = 128, h = 64
        var image = RGBAImage(width: w, height: h, fill: RGBA(r: 128, g: 128, b: 128))
        for y in 0..<h {
            image[8, y] = RGBA(r: 255, g: 255, b: 255)
            for x in 64..<w {
                // Neighbours differ by less than the mask's edge: dithered.
                image[x, y] = RGBA(r: UInt8((x - 64) * 2), g: UInt8(y * 2), b: UInt8(x - 64 + y))
            }
        }
        let mask = DitherMask(image), plane = OklabPlane(image)
        #expect(mask.flags[8] && !mask.flags[4] && !mask.flags[100], "the line is undithered, the rest dithered")
        func cells(_ columns: Range<Int>) -> Int {
            var seen = Set<Int>()
            for y in stride(from: 0, to: h, by: DitherMask.colorStep) {
                for x in columns where x % DitherMask.colorStep == 0 && mask.bits[y * w + x] & 1 == 0 {
                    let p = OklabPlane.unpack(plane.bytes.withUnsafeBytes { $0.load(fromByteOffset: (y * w + x) * 4, as: UInt32.self) })
                    seen.insert(Int(p.0 / 64) << 8 | Int(p.1 / 32) << 4 | Int(p.2 / 32))
                }
            }
            return seen.count
        }
        #expect(cells(0..<64) == 1)
        #expect(cells(64..<w) > 20)
        for columns in [0..<64, 64..<w, 0..<w, 60..<70, 61..<70, 66..<79] {
            let n = cells(columns)
            #expect(n > 0, "\(columns) has dithered pixels")
            #expect(mask.fillsColorCells(plane, columns: columns, moreThan: n - 1), "\(columns): more than \(n - 1)")
            #expect(!mask.fillsColorCells(plane, columns: columns, moreThan: n), "\(columns): not more than \(n)")
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
    @Test(.timeLimit(.minutes(1))) func paletteDesignerClampsRefinements() {
        #expect(PaletteDesigner(maxColors: 4, refinements: -1).refinements == 0)
        #expect(PaletteDesigner(maxColors: 4, refinements: .max).refinements == PaletteDesigner.maximumRefinements)
        let image = RGBAImage(width: 8, height: 8, fill: RGBA(r: 10, g: 20, b: 30))
        #expect(PaletteDesigner(maxColors: 4, refinements: .max).design(image).palette == [RGBA(r: 10, g: 20, b: 30)])
    }
}
