import Carousel
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

    @Test func reservesTransparentIndex() {
        var image = RGBAImage(width: 8, height: 8, fill: RGBA(r: 10, g: 20, b: 30))
        image[3, 3] = .clear
        let frame = Quantizer().quantize(image)
        let t = try? #require(frame.transparentIndex)
        #expect(t.map { Int(frame.indices[3 * 8 + 3]) == $0 } == true)
        #expect(frame.indices.filter { Int($0) == t }.count == 1)
    }

    @Test func deterministic() {
        var image = RGBAImage(width: 50, height: 50)
        for y in 0..<50 { for x in 0..<50 { image[x, y] = RGBA(r: UInt8(x * 5), g: UInt8(y * 5), b: UInt8(x * y % 256)) } }
        #expect(Quantizer(maxColors: 32).quantize(image) == Quantizer(maxColors: 32).quantize(image))
    }
}
