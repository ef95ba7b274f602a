@testable import Carousel
import CarouselTestSupport
import Testing

struct ItemFitterTests {
    @Test func fitModes() {
        var wide = RGBAImage(width: 40, height: 10, fill: RGBA(r: 200, g: 0, b: 0))
        for x in 0..<10 { for y in 0..<10 { wide[x, y] = RGBA(r: 0, g: 200, b: 0) } }
        let fill = ItemFitter.fit(wide, width: 20, height: 20, mode: .fill, background: .black)
        #expect(fill[10, 10] == RGBA(r: 200, g: 0, b: 0), "fill crops the centre")
        let fit = ItemFitter.fit(wide, width: 20, height: 20, mode: .fit, background: .white)
        #expect(fit[10, 0] == .white && fit[10, 19] == .white, "fit letterboxes")
        #expect(fit[18, 10] == RGBA(r: 200, g: 0, b: 0))
        let stretch = ItemFitter.fit(wide, width: 20, height: 20, mode: .stretch, background: .white)
        #expect(stretch[0, 0] == RGBA(r: 0, g: 200, b: 0) && stretch[19, 19] == RGBA(r: 200, g: 0, b: 0))
        var translucent = RGBAImage(width: 4, height: 4, fill: RGBA(r: 255, g: 255, b: 255, a: 0))
        translucent[0, 0] = RGBA(r: 255, g: 0, b: 0, a: 255)
        let over = ItemFitter.fit(translucent, width: 4, height: 4, mode: .fill, background: RGBA(r: 0, g: 0, b: 255))
        #expect(over[1, 1] == RGBA(r: 0, g: 0, b: 255) && over[0, 0] == RGBA(r: 255, g: 0, b: 0))
    }

    /// An image as tall as the item and wider fills it at scale 1: the centre crop, every pixel
    /// exact (translucent ones composited over the background as they are, not filtered).
    @Test func fillAtScaleOneIsAnExactCrop() {
        var image = RGBAImage(width: 31, height: 9)
        for y in 0..<9 {
            for x in 0..<31 {
                image[x, y] = RGBA(r: UInt8(x * 8), g: UInt8((x * y * 37) % 256), b: UInt8(y * 28),
                                   a: UInt8((x * 53 + y * 97) % 256))
            }
        }
        let background = RGBA(r: 10, g: 20, b: 30)
        let fill = ItemFitter.fit(image, width: 21, height: 9, mode: .fill, background: background)
        #expect(fill == image.cropped(x: 5, width: 21, height: 9).composited(over: background))
        let tall = ItemFitter.fit(image, width: 31, height: 5, mode: .fill, background: background)
        #expect(tall == image.cropped(x: 0, y: 2, width: 31, height: 5).composited(over: background))
        // Half a pixel off: filtered, not a crop of either neighbour.
        let half = ItemFitter.fit(image, width: 20, height: 9, mode: .fill, background: background)
        #expect(half != image.cropped(x: 5, width: 20, height: 9).composited(over: background))
        #expect(half != image.cropped(x: 6, width: 20, height: 9).composited(over: background))
    }

    /// A 50x97 picture of every alpha, with a fully transparent patch whose colour must not
    /// bleed into its neighbours.
    static func translucentPicture() -> RGBAImage {
        var image = RGBAImage(width: 50, height: 97)
        for y in 0..<97 {
            for x in 0..<50 {
                let clear = (10..<25).contains(x) && (20..<40).contains(y)
                image[x, y] = RGBA(r: UInt8((x * 11 + y * 3) % 256), g: UInt8((x * y * 7) % 256),
                                   b: UInt8((y * 29) % 256), a: clear ? 0 : UInt8((x * 37 + y * 61) % 256))
            }
        }
        return image
    }

    /// FNV-1a of `bytes`: a golden for an image's pixels.
    static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// Scaling makes its output rows in bands, each band filtering horizontally the source
    /// rows it reads: the output is the same for one band, bands of one row and bands whose
    /// edges fall anywhere in the taps, down- and upscaling, and it is the output of the
    /// scaling before bands (06de8e8), pinned by its fingerprint and its count of fully
    /// transparent pixels.
    @Test(arguments: [
        ((0.0, 0.0, 50.0, 97.0), 33, 61, 0xb804_d07e_d2e5_5cca as UInt64, 99),
        ((0.0, 0.0, 50.0, 97.0), 80, 150, 0x65b1_bd7a_f546_0ef4, 639),
        ((3.25, 10.5, 40.0, 60.75), 41, 77, 0x8d78_67fd_f49b_411f, 360),
    ])
    func resampleBandsAgree(_ source: (Double, Double, Double, Double), width: Int, height: Int,
                            fingerprint: UInt64, clear: Int) {
        let image = Self.translucentPicture()
        let rect = (x: source.0, y: source.1, w: source.2, h: source.3)
        let whole = ItemFitter.resample(image, source: rect, width: width, height: height, bandRows: height)
        #expect(whole.width == width && whole.height == height)
        #expect(Self.fingerprint(whole.pixels) == fingerprint)
        #expect(stride(from: 3, to: whole.pixels.count, by: 4).filter { whole.pixels[$0] == 0 }.count == clear)
        for bandRows in [nil, 1, 2, 7, 16, height - 1] {
            let banded = ItemFitter.resample(image, source: rect, width: width, height: height, bandRows: bandRows)
            #expect(differingPixels(banded, whole) == 0,
                    "\(width)x\(height) in bands of \(bandRows.map(String.init) ?? "the default") rows")
        }
    }
}
