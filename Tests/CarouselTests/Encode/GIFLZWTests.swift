@testable import Carousel
import CarouselTestSupport
import Testing

struct GIFLZWTests {
    /// The compressor writes exactly what giflib's `EGifPutLine` writes: noise over 256 entries
    /// (the code table fills and is cleared many times), runs and repeats, two- and
    /// four-entry tables (the smallest code sizes), a single pixel, runs of random lengths
    /// and colours (codes extended by their own last pixel, through many clears), one run
    /// over the whole frame, and two entries alternating along the row in runs of random
    /// lengths and pairs, as ordered dithering draws them (codes extended by the pixel before
    /// their last).
    @Test(arguments: [(300, 200, 256, 0), (97, 61, 256, 1), (64, 64, 2, 0), (50, 40, 4, 2), (1, 1, 2, 0), (255, 3, 16, 1),
                      (600, 400, 256, 3), (300, 200, 2, 3), (400, 300, 16, 4), (600, 400, 256, 5), (201, 99, 4, 5),
                      (3, 2, 2, 5)])
    func compressesAsGiflibDoes(_ width: Int, _ height: Int, _ colors: Int, _ pattern: Int) {
        var random = SeededRandom(seed: 0x2545_F491_4F6C_DD1D)
        var run = 0, runColor: UInt8 = 0, otherColor: UInt8 = 0
        let indices = (0..<(width * height)).map { i -> UInt8 in
            let seed = random.next()
            switch pattern {
            case 0: return UInt8(Int(seed >> 33) % colors)
            case 1: return UInt8((i / 7 + (i % width) / 13) % colors)
            case 2: return UInt8((i % width < width / 2 ? 0 : 1 + Int(seed >> 60) % 3) % colors)
            case 3:
                if run == 0 {
                    run = 1 + Int(seed >> 58) % 40
                    runColor = UInt8(Int(seed >> 33) % colors)
                }
                run -= 1
                return runColor
            case 5:
                if run == 0 {
                    run = 1 + Int(seed >> 58) % 40
                    runColor = UInt8(Int(seed >> 33) % colors)
                    otherColor = UInt8(Int(seed >> 45) % colors)
                }
                run -= 1
                return i % 2 == 0 ? runColor : otherColor
            default: return UInt8(colors - 1)
            }
        }
        let codeSize = max(2, colors.trailingZeroBitCount)
        let ours = indices.withUnsafeBufferPointer { GIFLZW.compress($0, minimumCodeSize: codeSize) }
        let theirs = giflibImageData(indices, width: width, height: height, colors: colors)
        #expect(theirs.count > 1)
        #expect(ours == theirs)
    }
}
