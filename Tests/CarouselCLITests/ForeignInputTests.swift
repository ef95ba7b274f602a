import Foundation
import Testing

/// Files of other formats given as images, through the command line: refused with what they
/// are after their first bytes, however large the file or endless the pipe.
struct ForeignInputTests {
    /// A 900 MiB file that starts as a video is refused from its first bytes: under a 512 MiB
    /// address-space limit, reading it whole would fail before the error could be given.
    @Test func aLargeFileOfAnotherFormatIsNotReadWhole() throws {
        let w = try Workspace()
        defer { w.remove() }
        let fd = open(w.path("demo.mov"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let head: [UInt8] = [0, 0, 0, 0x14] + Array("ftypqt  ".utf8)
        let wrote = head.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let sized = ftruncate(fd, 900 << 20)
        close(fd)
        try #require(wrote == head.count && sized == 0)
        // Where the limit cannot be set (not every system enforces it), the run is unlimited.
        let result = try CLI.run(shell: #"ulimit -v 524288 2>/dev/null; exec "$0" render imgs demo.mov -o out.gif"#, in: w.url)
        #expect(result.status == 1)
        #expect(result.stderr == "error: demo.mov: Not a PNG file but a video; give its frames as PNG images\n")
        #expect(!w.exists("out.gif") && w.leftovers.isEmpty)
    }

    /// A pipe that never ends is refused once its first bytes are in, not read to the limit.
    /// (`yes` is told of the closed pipe by an error rather than a signal where the test runner
    /// ignores SIGPIPE, as its children then do; its message is not the run's.)
    @Test(.enabled(if: CLI.hasBash, "needs /bin/bash"))
    func anEndlessPipeIsRefusedAtItsStart() throws {
        let w = try Workspace()
        defer { w.remove() }
        let result = try CLI.run(shell: #"exec "$0" render imgs <(yes 2>/dev/null) -o out.gif"#, with: "/bin/bash", in: w.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: /dev/fd/") && result.stderr.hasSuffix(": Not a PNG file\n"), "\(result.stderr)")
        #expect(!w.exists("out.gif") && w.leftovers.isEmpty)
    }

    /// A JPEG given by name, through a pipe, and in a folder of its kind.
    @Test func photosOfAnotherFormat() throws {
        let w = try Workspace()
        defer { w.remove() }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 3000))
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("camera roll"), withIntermediateDirectories: true)
        try jpeg.write(to: w.url.appendingPathComponent("camera roll/IMG_0042.JPG"))
        let named = try CLI.run(["render", "imgs", "camera roll/IMG_0042.JPG", "-o", "out.gif"], in: w.url)
        #expect(named.status == 1)
        #expect(named.stderr == "error: camera roll/IMG_0042.JPG: Not a PNG file but a JPEG image; convert it to PNG first (on macOS: sips -s format png 'camera roll/IMG_0042.JPG' --out 'camera roll/IMG_0042.png')\n")

        let folder = try CLI.run(["render", "camera roll", "-o", "out.gif"], in: w.url)
        #expect(folder.status == 1)
        #expect(folder.stderr == "error: camera roll: folder has no .png files but has other images (1 .JPG); convert them to PNG first\n")
        #expect(!w.exists("out.gif") && w.leftovers.isEmpty)
    }

    /// A folder of PNG files and photos of other formats renders its PNG files and says, beside
    /// the summary, what it passed over; `--quiet` says nothing, and a failed run gives its one
    /// error line alone.
    @Test func aFolderWithOtherImagesBesideItsPNGsSaysWhatItLeftOut() throws {
        let w = try Workspace()
        defer { w.remove() }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 3000))
        for name in ["IMG_0042.JPG", "IMG_0043.jpg", "IMG_0044.HEIC"] { try jpeg.write(to: w.url.appendingPathComponent("imgs/\(name)")) }
        let rendered = try CLI.run(["render", "imgs", "-o", "out.gif"], in: w.url)
        #expect(rendered.status == 0)
        let lines = rendered.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "", "\(rendered.stderr)")
        #expect(lines.first == "note: imgs: other images passed over (1 .HEIC, 1 .JPG, 1 .jpg); only .png files are read from a folder, so convert them to PNG to show them")
        #expect(lines.dropFirst().first.map { $0.hasPrefix("out.gif: ") && $0.contains(" frames, ") } == true, "\(rendered.stderr)")
        // A folder given twice, however spelt, is noted once, named as first given.
        let twice = try CLI.run(["strip", "imgs", "./imgs/", "-o", "strip.png"], in: w.url)
        #expect(twice.status == 0 && twice.stderr.hasPrefix("note: imgs: other images passed over (1 .HEIC, 1 .JPG, 1 .jpg)"))
        #expect(twice.stderr.filter { $0 == "\n" }.count == 2, "\(twice.stderr)")

        // The run's own output, written there by an earlier run, is not a picture passed over;
        // a name that is not UTF-8 counts by its extension like any other.
        #expect(try CLI.run(["render", "imgs", "-o", "imgs/carousel.gif", "--quiet"], in: w.url).status == 0)
        let latin1 = Array(w.path("imgs/caf").utf8) + [0xE9] + Array(".JPG".utf8) + [0]
        let fd = open(latin1.map { CChar(bitPattern: $0) }, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(fd >= 0)
        close(fd)
        let again = try CLI.run(["render", "imgs", "-o", "imgs/carousel.gif"], in: w.url)
        #expect(again.status == 0)
        #expect(again.stderr.hasPrefix("note: imgs: other images passed over (1 .HEIC, 2 .JPG, 1 .jpg); only"), "\(again.stderr)")

        let quiet = try CLI.run(["render", "imgs", "-o", "quiet.gif", "--quiet"], in: w.url)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
        #expect(try Data(contentsOf: w.url.appendingPathComponent("quiet.gif")) == Data(contentsOf: w.url.appendingPathComponent("out.gif")))

        let failed = try CLI.run(["render", "imgs", "corrupt.png", "-o", "failed.gif"], in: w.url)
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("error: corrupt.png: ") && failed.stderr.filter { $0 == "\n" }.count == 1, "\(failed.stderr)")
        #expect(!w.exists("failed.gif") && w.leftovers.isEmpty)
    }
}
