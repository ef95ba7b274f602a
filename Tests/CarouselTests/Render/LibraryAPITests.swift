import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The public API as the README shows it.
struct LibraryAPITests {
    @Test func readmeCalls() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("posters"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (k, image) in CarouselRenderTests.flatItems(3).enumerated() {
            try image.pngData().write(to: folder.appendingPathComponent("posters/poster\(k + 1).png"))
        }
        try Data(#"{"fps": 10, "hold": 0.5, "duration": 0.3, "dots": "footer"}"#.utf8)
            .write(to: folder.appendingPathComponent("banner.json"))

        let options = try CarouselOptions(configFile: folder.appendingPathComponent("banner.json").path)
        #expect(options.fps == 10 && options.dots.placement == .footer)
        let carousel = try Carousel(paths: [folder.appendingPathComponent("posters").path], options: options)
        #expect(carousel.geometry.count == 3 && carousel.height == 20 + 32)

        let file = folder.appendingPathComponent("banner.gif").path
        try carousel.writeGIF(toFile: file)
        let data = try carousel.gifData()
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == data)
        #expect(try DecodedGIF([UInt8](data)).frames.count > 3)

        #expect(try carousel.frame(at: 0.65) == carousel.frame(index: 6))
        #expect(throws: CarouselError.self) { try carousel.frame(at: 100) }
        let all = Array(carousel.frames)
        #expect(all.count == carousel.frameCount && all[3] == carousel.frame(index: 3))
        #expect(carousel.frameInfos.map(\.index) == Array(0..<carousel.frameCount))
        #expect(try PNGCodec.decode(carousel.strip.pngData()) == carousel.strip)
        #expect(throws: CarouselError.self) { try Carousel(paths: [folder.appendingPathComponent("nothing").path]) }
    }
}
