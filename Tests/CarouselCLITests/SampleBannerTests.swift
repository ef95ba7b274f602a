@testable import CarouselCLI
@testable import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The sample banners the executable carries, and the small text helpers of its output.
struct SampleBannerTests {
    static let banners = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleImages/banners")

    /// The embedded files are `SampleImages/banners`' files, byte for byte, in order (rerun
    /// `python3 SampleImages/make-samples.py --embed-only` after changing those), and decode.
    @Test func embeddedBannersAreTheFiles() throws {
        let files = SampleBanners.files
        #expect(files.map(\.name) == (1...5).map { "banner-\($0).png" })
        for file in files {
            let onDisk = try Data(contentsOf: Self.banners.appendingPathComponent(file.name))
            #expect(file.data == onDisk, "\(file.name)")
        }
        let images = try SampleBanners.images()
        #expect(images.count == 5 && images.allSatisfy { $0.width == 640 && $0.height == 360 })
        #expect(images[0] == (try PNGCodec.decode(contentsOf: Self.banners.appendingPathComponent("banner-1.png"))))
    }

    /// The sample banners 560 wide in a 640-pixel view with gaps of 16 on a transparent
    /// background, in a slow move (1 s at 25 fps) from the second to the third: as the move
    /// ends, pixels of the third settle into the rest a few at a time, in many colours, while
    /// the second leaves the view, and the slow frames share palettes. Reserving an entry for
    /// every colour that settles took up to 159 of 255 from the item leaving, which striped
    /// (SSIMULACRA2 11 below `pngquant 256` on a frame); a colour takes one only where enough
    /// pixels settle into it (``SceneEncoder/settlingWorth``). In every eighth of every moving
    /// frame, composited on white, the mean absolute error per channel stays within 1.75 times
    /// (and 0.1) that of the same render on an opaque white background: 1.48 times at most.
    /// Before, the first two of the move's last slow frames were at 2.43 and 2.00 times it, at
    /// the item leaving.
    @Test(SlowTests.rendersAtLength) func transparentSlowMoveEndsLeaveEntriesForWhatMoves() throws {
        let banners = try SampleBanners.images()
        func render(_ background: RGBA) throws -> (Carousel, [RGBAImage], cleared: Bool) {
            var options = CarouselOptions()
            options.background = background
            options.size = PixelSize(width: 640, height: 360)
            options.itemWidth = 560
            options.spacing = 16
            options.fps = 25
            options.duration = 1
            options.script = try Script(parsing: "hold 0.2; next; hold 0.2")
            let carousel = try Carousel(images: Array(banners[1...] + banners[..<1]), options: options)
            let gif = try DecodedGIF([UInt8](carousel.gifData()))
            let shown = gif.timelineFrames(fps: 25)
            try #require(shown.count == carousel.frameCount)
            return (carousel, shown, gif.disposals.contains(2))
        }
        let white = RGBA(r: 255, g: 255, b: 255)
        let (carousel, transparent, cleared) = try render(RGBA(r: 0, g: 0, b: 0, a: 0))
        let (_, opaque, _) = try render(white)
        #expect(cleared, "frames are cleared")
        // The mean absolute error per channel of `shown` against `exact`, both on white, in each
        // eighth of the view's width (the item leaving the view is a strip at its edge).
        func errors(_ shown: RGBAImage, _ exact: RGBAImage) -> [Double] {
            let a = shown.composited(over: white).pixels, b = exact.composited(over: white).pixels
            let strip = exact.width / 8
            var totals = [Int](repeating: 0, count: 8)
            for y in 0..<exact.height {
                for x in 0..<(strip * 8) {
                    let i = 4 * (y * exact.width + x)
                    for c in 0..<3 { totals[x / strip] += abs(Int(a[i + c]) - Int(b[i + c])) }
                }
            }
            return totals.map { Double($0) / Double(strip * exact.height * 3) }
        }
        var moving = 0
        for i in 1..<carousel.frameCount where carousel.frame(index: i) != carousel.frame(index: i - 1) {
            moving += 1
            let exact = carousel.frame(index: i)
            let t = errors(transparent[i], exact), o = errors(opaque[i], exact)
            for (n, (t, o)) in zip(t, o).enumerated() {
                #expect(t <= 1.75 * o + 0.1, "timeline frame \(i), eighth \(n): error \(t) on a transparent background, \(o) on an opaque one")
            }
        }
        #expect(moving >= 20)
    }

    /// The sample banners in an eased move that slows into its rest (`--easing ease-out
    /// --duration 0.5`, the second to the third, the move starting half a frame after a frame
    /// as in the default autoplay): as the move slows, the background's gradient settles into
    /// the rest's entries a few pixels at a time, in many colours. Reserving an entry for each
    /// of them took 119 of 255 for 8% of the last two frames' pixels, and what still moved
    /// striped (SSIMULACRA2 5.2 below `pngquant 256` on the first of the two, in the
    /// autoplay); a rest's entry takes one only where enough pixels settle into it
    /// (``SceneEncoder/settlingEntryWorth``). Over the move's second half, no frame's mean
    /// squared error in Oklab is more than 1.1 times the frame's before it: the largest ratio
    /// is 0.99. Reserving every colour, it is 1.21, at the first of those two frames.
    @Test(SlowTests.rendersAtLength) func easedMoveEndsLeaveEntriesForWhatMoves() throws {
        let banners = try SampleBanners.images()
        var options = CarouselOptions()
        options.easing = .easeOut
        options.duration = 0.5
        options.script = try Script(parsing: "hold 0.1; next; hold 0.2")
        let carousel = try Carousel(images: Array(banners[1...] + banners[..<1]), options: options)
        let shown = try DecodedGIF([UInt8](carousel.gifData())).timelineFrames(fps: options.fps)
        try #require(shown.count == carousel.frameCount)
        let move = (0..<carousel.frameCount).filter { carousel.states[$0].phase == .move }
        try #require(move.count >= 10)
        func error(_ i: Int) -> Double {
            let exact = carousel.frame(index: i)
            var sum = 0.0
            for y in 0..<exact.height {
                for x in 0..<exact.width {
                    sum += Double(ChannelWeights.rgb.distance(Oklab.point(exact[x, y]), Oklab.point(shown[i][x, y])))
                }
            }
            return sum / Double(exact.width * exact.height)
        }
        let errors = move[(move.count / 2)...].map(error)
        for (n, pair) in zip(errors, errors.dropFirst()).enumerated() {
            #expect(pair.1 <= 1.1 * pair.0, "frame \(move[move.count / 2 + n + 1]): \(pair.1) after \(pair.0)")
        }
    }

    /// Seconds printed as C's `printf` prints them, halves of the last place included.
    @Test func decimalsAsPrintf() {
        #expect(decimal(0, places: 2) == "0.00")
        #expect(decimal(1.005, places: 2) == "1.00")  // 1.00499999999999989...
        #expect(decimal(2.675, places: 2) == "2.67")  // 2.67499999999999982...
        #expect(decimal(0.125, places: 2) == "0.12")  // exactly half: to even
        #expect(decimal(12.96, places: 1) == "13.0")
        #expect(decimal(-0.04, places: 1) == "-0.0")
        #expect(decimal(1e300, places: 2).count == 304)
    }
}
