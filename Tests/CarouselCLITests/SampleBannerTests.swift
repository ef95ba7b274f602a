@testable import CarouselCLI
import Carousel
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
