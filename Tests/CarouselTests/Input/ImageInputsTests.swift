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
        // A strict order on any names: no name before itself, of two different names (down to
        // their scalars: canonically equivalent text too) exactly one first, and transitive, a
        // grapheme that starts with a digit and names with no digits among them.
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"
        let all = cases.flatMap { $0 } + ["1\u{FE0F}\u{20E3}.png", "9.png", "10.png", "0\u{301}.png", composed, decomposed,
                                          "-.png", "~1.png", "a.png", "A.png", "\u{00C0}.png", "img.png"]
        let order = ImageInputs.naturalOrder
        for a in all {
            #expect(!order(a, a))
            for b in all where !a.unicodeScalars.elementsEqual(b.unicodeScalars) {
                #expect(order(a, b) != order(b, a), "\(a.debugDescription) and \(b.debugDescription)")
                for c in all where order(a, b) && order(b, c) {
                    #expect(order(a, c), "\(a.debugDescription) < \(b.debugDescription) < \(c.debugDescription)")
                }
            }
        }
        // So the sort does not depend on the order names come in.
        let sorted = all.sorted(by: order)
        for _ in 0..<20 { #expect(all.shuffled().sorted(by: order).map { Array($0.unicodeScalars) } == sorted.map { Array($0.unicodeScalars) }) }
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

    /// A folder of photos in other formats says what it has, so that the user knows to
    /// convert them; a folder with nothing of the kind is just empty of PNGs.
    @Test func aFolderOfOtherImagesSaysSo() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("carousel-others-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("notes.txt"))
        // What is not a regular file is no picture, whatever its name.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("album.jpg"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("gone.jpg").path, withDestinationPath: "nowhere.jpg")
        try #require(mkfifo(folder.appendingPathComponent("live.heic").path, 0o644) == 0)
        #expect(throws: CarouselError.emptyFolder(folder.path)) { try ImageInputs.resolve([folder.path]) }
        for name in ["IMG_0001.HEIC", "IMG_0002.HEIC", "beach.jpg", "logo.webp", ".hidden.jpg", "jpg", "README.md"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        #expect(throws: CarouselError.input(folder.path, "folder has no .png files but has other images (2 .HEIC, 1 .jpg, 1 .webp); convert them to PNG first")) {
            try ImageInputs.resolve([folder.path])
        }
        #expect(ImageInputs.passedOver([folder.path]).isEmpty)
        try Data().write(to: folder.appendingPathComponent("cover.png"))
        #expect(try ImageInputs.resolve([folder.path]).map(\.lastPathComponent) == ["cover.png"])
        // Beside a PNG file, they are passed over, and listed for the command line to say so.
        let passed = ImageInputs.passedOver([folder.path, folder.appendingPathComponent("cover.png").path, folder.path])
        #expect(passed.map(\.folder) == [folder.path])
        #expect(passed.map(\.images) == ["2 .HEIC, 1 .jpg, 1 .webp"])
    }
}
