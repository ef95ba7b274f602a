import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The public API as the README shows it.
struct LibraryAPITests {
    /// The value types go in sets and dictionaries, and the enums of words encode as their words,
    /// as their siblings (`RGBA`, `MediaTime`, `Dither`, `FitMode`) do.
    @Test func valueTypesAreHashableAndTheirWordsCodable() throws {
        #expect(Set([PixelSize(width: 640, height: 360), PixelSize(width: 640, height: 360)]).count == 1)
        #expect(Set([Easing.easeInOut, .cubicBezier(0.42, 0, 0.58, 1), .spring(damping: 0.5, response: 0.6)]).count == 2)
        #expect(Set([ClonePolicy.auto, .set, .auto]).count == 2)
        #expect(Phase.allCases == [.hold, .move, .drag, .settle])
        let words = try JSONEncoder().encode([OutputFormat.webp])
        #expect(String(decoding: words, as: UTF8.self) == "[\"webp\"]")
        #expect(try JSONDecoder().decode([SwipeDirection].self, from: Data("[\"prev\"]".utf8)) == [.prev])
    }

    /// An empty path is refused by every write, and `-` by a folder's, as the command line
    /// refuses them: `writeFrames(toFolder: "")` took the working folder for its output, and
    /// replaced it when it was empty or held a previous frames output.
    @Test func emptyPathsAndStandardOutputForAFolderAreRefused() throws {
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(2))
        let empty = Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath))
        #expect(throws: CarouselError.output("", "is empty; give a file name")) { try carousel.writeGIF(toFile: "") }
        #expect(throws: CarouselError.output("", "is empty; give a file name")) { try carousel.write(toFile: "", format: .apng) }
        #expect(throws: CarouselError.output("", "is empty; give a folder name")) { try carousel.writeFrames(toFolder: "") }
        #expect(throws: CarouselError.output("-", "is standard output, where a folder cannot go; give a folder name (./- for one named -)")) {
            try carousel.writeFrames(toFolder: "-")
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)) == empty)
    }

    /// Files are decoded, fitted and dropped a core's worth at a time: the carousel is the one
    /// of the decoded pictures, the viewport the first file's size; the first file in order
    /// that cannot be read is named before any option is refused, as when every picture was
    /// decoded first.
    @Test func carouselOfFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var images = CarouselRenderTests.flatItems(4)
        images[1] = RGBAImage(width: 90, height: 30, fill: RGBA(r: 200, g: 30, b: 60))   // fitted down
        var urls: [URL] = []
        for (k, image) in images.enumerated() {
            urls.append(folder.appendingPathComponent("\(k + 1).png"))
            try image.pngData().write(to: urls[k])
        }
        var options = CarouselOptions()
        options.hold = 0.4
        options.duration = 0.3
        for fit in [FitMode.fill, .fit] {
            options.fit = fit
            let files = try Carousel(contentsOf: urls, options: options)
            let decoded = try Carousel(images: ImageInputs.load(urls), options: options)
            #expect(files.width == images[0].width && files.strip == decoded.strip && files.frameCount == decoded.frameCount)
            #expect(try files.gifData() == decoded.gifData())
        }
        let garbage = folder.appendingPathComponent("garbage.png"), missing = folder.appendingPathComponent("missing.png")
        try Data("not a picture".utf8).write(to: garbage)
        var bad = options
        bad.fps = 99
        // A file that is not a PNG, after a good one and before a missing one, with a bad option.
        #expect(throws: CarouselError.image(.invalid(file: garbage.relativePath, reason: "Not a PNG file"))) {
            try Carousel(contentsOf: [urls[0], garbage, missing], options: bad)
        }
        #expect(throws: CarouselError.image(.invalid(file: garbage.relativePath, reason: "Not a PNG file"))) {
            try Carousel(contentsOf: [garbage, urls[0]], options: bad)
        }
        // Good files and a bad option: the option.
        #expect(throws: CarouselError.invalidOption(key: .fps, reason: "must be 1...50, got 99")) {
            try Carousel(contentsOf: urls, options: bad)
        }
        // A bad file found while fitting, with good options.
        let unread = #expect(throws: CarouselError.self) { try Carousel(contentsOf: [urls[0], urls[1], missing], options: options) }
        if case .image(.unreadable(let file, _))? = unread {
            #expect(file == missing.relativePath)
        } else {
            Issue.record("expected the missing file named, got \(String(describing: unread))")
        }
        // Two bad files, good options: the first in order, whichever is decoded first.
        for (files, named) in [([urls[0], missing, garbage], missing), ([urls[0], garbage, missing], garbage)] {
            let error = #expect(throws: CarouselError.self) { try Carousel(contentsOf: files, options: options) }
            switch error {
            case .image(.unreadable(let file, _))?, .image(.invalid(let file, _))?: #expect(file == named.relativePath)
            default: Issue.record("expected \(named.lastPathComponent) named, got \(String(describing: error))")
            }
        }
        #expect(throws: CarouselError.noImages) { try Carousel(contentsOf: [], options: options) }
        // A URL that is not a file's is refused as such, first or later, though a local file has
        // its path: its path alone was read before.
        let web = try #require(URL(string: "https://example.com" + urls[1].path))
        let refusal = PNGError.unreadable(file: web.absoluteString, reason: "not a file URL; give a file:// URL or a path")
        #expect(throws: CarouselError.image(refusal)) { try Carousel(contentsOf: [web, urls[0]], options: options) }
        #expect(throws: CarouselError.image(refusal)) { try Carousel(contentsOf: [urls[0], web], options: options) }
        #expect(throws: refusal) { try PNGCodec.decode(contentsOf: web) }
    }

    /// `FrameInfo` encodes as `frames.json` writes a frame: the same keys, `touch` null where
    /// no indicator is drawn (the synthesized encoding left it out), and it decodes back.
    @Test func frameInfoEncodesAsFramesJSON() throws {
        var options = CarouselOptions()
        options.size = PixelSize(width: 48, height: 20)
        options.fps = 10
        options.script = try Script(parsing: "hold 0.2; drag -20 0.2; release; hold 0.3")
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
        let infos = (0..<carousel.frameCount).map(carousel.info(index:))
        let data = try JSONEncoder().encode(infos)
        let encoded = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let folder = try #require(try JSONSerialization.jsonObject(with: Data(FramesFolder.json(carousel).utf8)) as? [String: Any])
        let written = try #require(folder["frames"] as? [[String: Any]])
        #expect(encoded.count == written.count && !encoded.isEmpty)
        for (a, b) in zip(encoded, written) {
            #expect(Set(a.keys) == Set(b.keys))
            #expect((a["touch"] is NSNull) == (b["touch"] is NSNull))
        }
        #expect(encoded.contains { $0["touch"] is NSNull } && encoded.contains { !($0["touch"] is NSNull) })
        #expect(try JSONDecoder().decode([FrameInfo].self, from: data) == infos)
    }

    /// `frames.json` is written a piece at a time; the file holds exactly the text of
    /// `FramesFolder.json`, here two pieces long (over 64 KiB), with a finger in it.
    @Test func framesJSONWrittenInPiecesIsTheWholeText() throws {
        var options = CarouselOptions()
        options.size = PixelSize(width: 8, height: 6)
        options.fps = 50
        options.touches.mode = .show
        options.script = try Script(parsing: "drag -4 2; release; hold 6; next 4")
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(3), options: options)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try carousel.writeFrames(toFolder: folder.path)
        let written = try Data(contentsOf: folder.appendingPathComponent("frames.json"))
        let text = FramesFolder.json(carousel)
        try #require(carousel.frameCount >= 600 && text.utf8.count > 1 << 16, "\(text.utf8.count) bytes")
        #expect(written == Data(text.utf8))
        let parsed = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect((parsed["frames"] as? [[String: Any]])?.count == carousel.frameCount)
    }

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
        // What an alert shows of the error is its one line.
        var bad = CarouselOptions()
        bad.fps = 0
        do {
            _ = try Carousel(images: CarouselRenderTests.flatItems(2), options: bad)
            Issue.record("fps 0 accepted")
        } catch {
            #expect((error as any Error).localizedDescription == "fps: must be 1...50, got 0")
        }
    }

    /// `write(toFile:)` takes the options' format, as `render --format` does, before the
    /// extension's; a format given to the call comes first.
    @Test func writeTakesTheOptionsFormat() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-format-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = CarouselOptions()
        options.fps = 10
        options.format = .webp
        let carousel = try Carousel(images: CarouselRenderTests.flatItems(2), options: options)
        func head(_ name: String) throws -> String {
            String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)).prefix(4), as: UTF8.self)
        }
        try carousel.write(toFile: folder.appendingPathComponent("banner").path)
        try carousel.write(toFile: folder.appendingPathComponent("banner.gif").path)
        try carousel.write(toFile: folder.appendingPathComponent("banner.png").path, format: .gif)
        #expect(try head("banner") == "RIFF" && head("banner.gif") == "RIFF" && head("banner.png") == "GIF8")
        options.format = nil
        try Carousel(images: CarouselRenderTests.flatItems(2), options: options).write(toFile: folder.appendingPathComponent("plain.gif").path)
        #expect(try head("plain.gif") == "GIF8")
        // The GIF calls refuse WebP's options as data(format: .gif) does, rather than ignore them.
        options.quality = 50
        let webpOnly = try Carousel(images: CarouselRenderTests.flatItems(2), options: options)
        let refusal = CarouselError.invalidOption(key: .quality, reason: "applies to WebP only, not gif")
        #expect(throws: refusal) { try webpOnly.gifData() }
        #expect(throws: refusal) { try webpOnly.data(format: .gif) }
        #expect(throws: refusal) { try webpOnly.writeGIF(toFile: folder.appendingPathComponent("q.gif").path) }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("q.gif").path))
    }

    /// A page outside `0..<N` is taken modulo N, as positions are (`Int.min` overflowed in the dots' window).
    @Test func pictureOfAnyPage() throws {
        let images = (0..<12).map { k in RGBAImage(width: 40, height: 20, fill: RGBA(r: UInt8(20 * k), g: 80, b: 160)) }
        let carousel = try Carousel(images: images, options: CarouselOptions())
        #expect(carousel.picture(at: 0, page: -1) == carousel.picture(at: 0, page: 11))
        #expect(carousel.picture(at: 0, page: 25) == carousel.picture(at: 0, page: 1))
        #expect(carousel.picture(at: 0, page: Int.min) == carousel.picture(at: 0, page: Int.min % 12 + 12))
        #expect(carousel.picture(at: 0, page: Int.max) == carousel.picture(at: 0, page: Int.max % 12))
    }
}
