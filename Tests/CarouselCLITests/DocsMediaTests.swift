import Foundation
import Testing

/// The DocC catalogue's pictures are copies of the README's (`scripts/make-docs-media`
/// writes both), so the two never show different renders.
struct DocsMediaTests {
    @Test func doccPicturesAreTheReadmes() throws {
        let root = ExamplePackageTests.root
        let resources = root.appendingPathComponent("Sources/Carousel/Carousel.docc/Resources")
        let names = try FileManager.default.contentsOfDirectory(atPath: resources.path).sorted()
        #expect(names == ["dots-overlay.png", "layout-peek.gif", "strip-peek.png"])
        for name in names {
            let copy = try Data(contentsOf: resources.appendingPathComponent(name))
            let original = try Data(contentsOf: root.appendingPathComponent("docs/\(name)"))
            #expect(copy == original, "\(name): the DocC copy differs from docs/\(name); run scripts/make-docs-media")
        }
    }
}
