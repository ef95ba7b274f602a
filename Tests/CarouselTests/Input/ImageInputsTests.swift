@testable import Carousel
import Foundation
import Testing

/// The order a folder gives its pictures in (`ImageInputs.naturalOrder`).
struct ImageInputsTests {
    /// Numbers by value and letters without their case, as the Finder lists names; case and
    /// leading zeros only tell apart names that are otherwise equal.
    @Test func foldersListInNaturalOrder() {
        let cases: [[String]] = [
            ["img1.png", "img2.png", "IMG3.png", "img10.png"],
            ["1.png", "2.png", "10.png", "100.png"],
            ["a01b1.png", "a1b2.png"],
            ["Banner.png", "banner.png", "banner2.png"],
            ["1.png", "01.png", "2.png"],
            ["b.png", "C.png", "d.png"],
            ["x99999999999999999999999.png", "x100000000000000000000000.png"],
            ["shot 9.png", "shot 10.png", "Shot 11.png"],
        ]
        for names in cases {
            for shuffled in [names.reversed(), names.shuffled(), names] {
                #expect(shuffled.sorted(by: ImageInputs.naturalOrder) == names, "\(Array(shuffled))")
            }
        }
        // A strict order: no name before itself, and of two different names exactly one first.
        let all = cases.flatMap { $0 }
        for a in all {
            #expect(!ImageInputs.naturalOrder(a, a))
            for b in all where a != b {
                #expect(ImageInputs.naturalOrder(a, b) != ImageInputs.naturalOrder(b, a), "\(a) and \(b)")
            }
        }
    }

    /// A folder on disk lists its pictures that way, skipping hidden files and other names.
    @Test func aFolderGivesItsPicturesInThatOrder() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("carousel-natural-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["img10.png", "IMG3.png", "img2.PNG", "img1.png", ".img0.png", "notes.txt"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        let names = try ImageInputs.resolve([folder.path]).map(\.lastPathComponent)
        #expect(names == ["img1.png", "img2.PNG", "IMG3.png", "img10.png"])
    }
}
