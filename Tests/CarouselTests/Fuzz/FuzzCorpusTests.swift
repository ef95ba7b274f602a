@testable import Carousel
import CarouselTestSupport
import Foundation
import Testing

/// The fuzzers' seeds and every crasher they found (kept under `Regressions/TARGET/`, which
/// `scripts/fuzz` has not needed yet), replayed through the same entry points as
/// `scripts/fuzz`: each must decode or parse, or be refused with an error naming it; a
/// crash fails the whole run.
struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func files(_ target: String) -> [URL] {
        let folders = [root.appendingPathComponent("Fuzz/Seeds/\(target)"),
                       root.appendingPathComponent("Tests/CarouselTests/Fuzz/Regressions/\(target)")]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
    }

    /// Every file of `target`'s seeds and regressions through `decode` (its bytes and name): a
    /// seed must decode, and a regression be refused with an error naming its file.
    static func replay(_ target: String, atLeast count: Int, _ decode: (Data, String) throws -> Void) throws {
        let files = Self.files(target)
        #expect(files.count >= count)
        for url in files {
            do {
                try decode(try Data(contentsOf: url), url.lastPathComponent)
                if !url.path.contains("/Seeds/") { Issue.record("regression \(url.lastPathComponent) decodes; it must be refused") }
            } catch {
                #expect(!url.path.contains("/Seeds/"), "seed \(url.lastPathComponent): \(error)")
                #expect("\(error)".hasPrefix(url.lastPathComponent + ": "))
            }
        }
    }

    @Test func pngSeedsDecodeAndRegressionsAreRefused() throws {
        try Self.replay("png", atLeast: 8) { data, name in
            let image = try PNGCodec.decode(data, name: name)
            #expect(image.pixels.count == image.width * image.height * 4)
        }
    }

    /// The APNG seeds decode, with the fuzz target's budget.
    @Test func apngSeedsDecodeAndRegressionsAreRefused() throws {
        try Self.replay("apng", atLeast: 2) { data, name in
            let decoded = try APNGDecoder(data, name: name, maximumPixels: 1 << 20)
            #expect(!decoded.frames.isEmpty && decoded.frames.count == decoded.delays.count)
            #expect(decoded.frames.allSatisfy { $0.width == decoded.width && $0.height == decoded.height })
        }
    }

    @Test func scriptSeedsParseAndExpand() throws {
        let files = Self.files("script")
        #expect(files.count >= 3)
        for url in files {
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            do {
                let script = try Script(parsing: text, source: url.lastPathComponent)
                let timeline = try Timeline(script: script, count: 5, pitch: 343, hold: 0.5, moveDuration: 0.3, easing: .easeInOut)
                #expect(timeline.frames(fps: 1).allSatisfy { $0.position.isFinite })
            } catch {
                #expect(!url.path.contains("/Seeds/"), "seed \(url.lastPathComponent): \(error)")
                #expect(!"\(error)".contains("\n"))
            }
        }
    }

    @Test func configSeedsLoad() throws {
        let files = Self.files("config")
        #expect(files.count >= 3)
        for url in files {
            do {
                let file = try ConfigFile(data: try Data(contentsOf: url), path: url.lastPathComponent)
                var options = CarouselOptions()
                try file.apply(to: &options)
                try options.validate()
            } catch {
                let seedShouldLoad = url.path.contains("/Seeds/") && url.lastPathComponent != "nested.json"
                #expect(!seedShouldLoad, "seed \(url.lastPathComponent): \(error)")
                #expect("\(error)".hasPrefix(url.lastPathComponent))
            }
        }
    }

    /// The encoder fuzzer's seeds and crashers (`FuzzRender`): each renders, or is refused
    /// with a one-line error (a seed must render); the file has none of
    /// `FuzzRender.problems`; and the frame the last byte chooses comes back from
    /// `carousel frames`' PNG writer through libpng.
    @Test func encodeSeedsAndRegressionsRender() throws {
        let files = Self.files("encode")
        #expect(files.count >= 8)
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url)), name = url.lastPathComponent
            let rendered: (carousel: Carousel, format: OutputFormat, data: Data)
            do {
                rendered = try FuzzRender.render(bytes)
            } catch {
                #expect(!url.path.contains("/Seeds/"), "seed \(name): \(error)")
                #expect(!"\(error)".contains("\n"), "\(name)")
                continue
            }
            let carousel = rendered.carousel
            let frame = carousel.frame(index: Int(bytes.last ?? 0) % carousel.frameCount)
            #expect(try PNGCodec.decode(try PNGWriter.encodeQuickly(frame), name: name) == frame, "\(name)")
            #expect(FuzzRender.problems(carousel, format: rendered.format, data: rendered.data) == [], "\(name)")
        }
    }
}
