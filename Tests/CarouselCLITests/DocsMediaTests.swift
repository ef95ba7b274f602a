import Carousel
import Foundation
import Testing

/// The DocC catalogue against what it shows: its pictures are copies of the README's
/// (`scripts/make-docs-media` writes both), so the two never show different renders, and
/// the scripting article's Swift samples are its scripts.
struct DocsMediaTests {
    @Test func doccPicturesAreTheReadmes() throws {
        let root = ExamplePackageTests.root
        let resources = root.appendingPathComponent("Sources/Carousel/Carousel.docc/Resources")
        let names = try FileManager.default.contentsOfDirectory(atPath: resources.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names == ["dots-overlay.png", "layout-peek.gif", "strip-peek.png"])
        for name in names {
            let copy = try Data(contentsOf: resources.appendingPathComponent(name))
            let original = try Data(contentsOf: root.appendingPathComponent("docs/\(name)"))
            #expect(copy == original, "\(name): the DocC copy differs from docs/\(name); run scripts/make-docs-media")
        }
    }

    /// The scripting article's scripts as text and as ``ScriptStep`` values (its Swift
    /// samples, whose "the same steps" this checks) are the same scripts.
    @Test func scriptingArticleSamplesAreItsScripts() throws {
        let path = ExamplePackageTests.root.appendingPathComponent("Sources/Carousel/Carousel.docc/Scripting.md")
        let text = try String(contentsOf: path, encoding: .utf8)
        // The blocks fenced by a bare ``` (the Swift ones open with ```swift).
        var scripts: [String] = [], block: [Substring]?, fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let done = block { scripts.append(done.joined(separator: "\n")) }
                block = !fenced && line == "```" ? [] : nil
                fenced.toggle()
            } else {
                block?.append(line)
            }
        }
        try #require(scripts.count >= 2, "the steps and the gestures")
        #expect(try Script(parsing: scripts[0]) == Script(steps: [
            .hold(1.5),
            .next(),
            .prev(duration: 0.3, easing: .easeOut),
            .goto(page: 4, duration: 0.6, easing: .spring(damping: 0.6, response: 0.4)),
            .autoplay(cycles: 2),
        ]))
        #expect(try Script(parsing: scripts[1]) == Script(steps: [.drag(dx: -120, duration: 0.3), .hold(0.2), .release, .swipe(.next)]))
        for sample in ["""
            let script = Script(steps: [
                .hold(1.5),
                .next(),
                .prev(duration: 0.3, easing: .easeOut),
                .goto(page: 4, duration: 0.6, easing: .spring(damping: 0.6, response: 0.4)),
                .autoplay(cycles: 2),
            ])
            """, "let gesture = Script(steps: [.drag(dx: -120, duration: 0.3), .hold(0.2), .release, .swipe(.next)])"] {
            #expect(text.contains(sample), "the article's Swift sample is the one checked here")
        }
    }
}
