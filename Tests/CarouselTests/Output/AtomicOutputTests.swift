import Carousel
import Foundation
import Testing

struct AtomicOutputTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes a frames folder at `target` holding one frame of `content`, as `frames` would;
    /// `meanwhile` runs once the frame is written, before the folder is moved into place.
    func writeOneFrame(to target: URL, _ content: String = "", meanwhile: () -> Void = {}) throws(CarouselError) {
        try AtomicOutput.writeFolder(at: target.path, isReplaceable: FramesFolder.isOwnFile) { url throws(CarouselError) in
            try? Data(content.utf8).write(to: url.appendingPathComponent("frame-00000.png"))
            meanwhile()
        }
    }

    /// Sets the time `path` last changed (links not followed) `seconds` into the past.
    func age(_ path: String, by seconds: Int) {
        let then = timeval(tv_sec: time(nil) - seconds, tv_usec: 0)
        _ = lutimes(path, [then, then])
    }

    /// Temporaries that runs killed outright left beside the output (`.NAME.carousel-XXXXXX`)
    /// are removed once the output is in place, when no run holds them and they have not
    /// changed for a minute; anything else is left: a newer one, one a run holds, another
    /// output's, a name of another shape (a person's `.out.gif.backup` too), a link. Before,
    /// they stayed until removed by hand.
    @Test func leftoversOfKilledRunsAreRemoved() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        func make(_ name: String, aged: Bool = true) throws {
            try Data("cut short".utf8).write(to: dir.appendingPathComponent(name))
            if aged { age(dir.appendingPathComponent(name).path, by: 120) }
        }
        let stale = [".out.gif.carousel-Ab3dE9", ".out.gif.carousel-x0000Z", ".out.gif.carousel-Ab3dE9.old"]
        for name in stale { try make(name) }
        try make(".out.gif.carousel-Zz9Zz9", aged: false)
        for name in [".out.gif.carousel-Ab3dE", ".out.gif.carousel-Ab3dE9x", ".out.gif.carousel-Ab-dE9", ".other.gif.carousel-Ab3dE9",
                     "out.gif.carousel-Ab3dE9", ".out.gif.carousel-Ab3dE9.new", ".out.gif.backup", ".out.gif.Ab3dE9"] {
            try make(name)
        }
        try make(".out.gif.carousel-Hh1Hh1")
        let held = open(dir.appendingPathComponent(".out.gif.carousel-Hh1Hh1").path, O_RDONLY)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent(".out.gif.carousel-Lk1Lk1").path,
                                                   withDestinationPath: "out.gif")
        age(dir.appendingPathComponent(".out.gif.carousel-Lk1Lk1").path, by: 120)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        try AtomicOutput.write(Data("new".utf8), to: dir.appendingPathComponent("out.gif").path)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(after == before.subtracting(stale).union(["out.gif"]))
    }

    /// A frames folder's leftovers (the folder being written, the previous one being
    /// removed, and either renamed by a signal's cleanup) are removed the same way, frames
    /// and all; one a run holds is left, and so is one that holds anything a frames folder
    /// does not (another file, a folder).
    @Test func leftoverFoldersOfKilledRunsAreRemoved() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stale = [".frames.carousel-Ab3dE9", ".frames.carousel-Cd4eF0.old", ".frames.carousel-Gh5iJ6.removing",
                     ".frames.carousel-Kl7mN8.old.removing"]
        let kept = [".frames.carousel-Hh1Hh1", ".frames.carousel-Nt1Nt1", ".frames.carousel-Sb1Sb1"]
        for name in stale + kept {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try Data("png".utf8).write(to: url.appendingPathComponent("frame-00000.png"))
            try Data("{}".utf8).write(to: url.appendingPathComponent("frames.json"))
            if name.hasSuffix("Nt1Nt1") { try Data("mine".utf8).write(to: url.appendingPathComponent("notes.txt")) }
            if name.hasSuffix("Sb1Sb1") {
                try FileManager.default.createDirectory(at: url.appendingPathComponent("frame-00001.png"), withIntermediateDirectories: false)
            }
            age(url.path, by: 120)
        }
        let held = open(dir.appendingPathComponent(".frames.carousel-Hh1Hh1").path, O_RDONLY)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        try writeOneFrame(to: dir.appendingPathComponent("frames"))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == Set(["frames"] + kept))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(".frames.carousel-Nt1Nt1/notes.txt").path))
        // Replacing the folder removes them too.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".frames.carousel-Ab3dE9"), withIntermediateDirectories: false)
        age(dir.appendingPathComponent(".frames.carousel-Ab3dE9").path, by: 120)
        try writeOneFrame(to: dir.appendingPathComponent("frames"), "again")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == Set(["frames"] + kept))
    }

    /// A run's own temporaries are held while it writes them: another run putting the same
    /// output in place meanwhile leaves them, however long ago they last changed.
    @Test func aRunningWritersTemporariesAreLeft() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".out.") }
        }
        let target = dir.appendingPathComponent("out").path
        var kept: [String] = []
        try AtomicOutput.write(to: target) { sink throws(CarouselError) in
            try sink.write(Data("first".utf8))
            for name in (try? temporaries()) ?? [] { age(dir.appendingPathComponent(name).path, by: 120) }
            try AtomicOutput.write(Data("second".utf8), to: target)
            kept = (try? temporaries()) ?? []
        }
        #expect(kept.count == 1, "the file being written: \(kept)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("first".utf8))
        try FileManager.default.removeItem(atPath: target)
        // A frames folder being written; the other run's file takes its name, so it fails.
        #expect(throws: CarouselError.self) {
            try writeOneFrame(to: URL(fileURLWithPath: target)) {
                for name in (try? temporaries()) ?? [] { age(dir.appendingPathComponent(name).path, by: 120) }
                try? AtomicOutput.write(Data("second".utf8), to: target)
                kept = (try? temporaries()) ?? []
            }
        }
        #expect(kept.count == 1, "the folder being written: \(kept)")
        #expect(try temporaries().isEmpty)
    }

    @Test func failureMidWriteLeavesNothing() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.gif").path
        #expect(throws: CarouselError.output(target, "disk full")) {
            try AtomicOutput.write(to: target) { sink throws(CarouselError) in
                try sink.write(Data(repeating: 7, count: 1000))
                throw .output(target, "disk full")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func failureKeepsExistingFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.gif")
        try Data("old".utf8).write(to: target)
        #expect(throws: CarouselError.self) {
            try AtomicOutput.write(to: target.path) { sink throws(CarouselError) in
                try sink.write(Data("new, but cut".utf8))
                throw .output(target.path, "interrupted")
            }
        }
        #expect(try Data(contentsOf: target) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.gif"])
        try AtomicOutput.write(Data("new".utf8), to: target.path)
        #expect(try Data(contentsOf: target) == Data("new".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o044 } == 0o044, "readable like a normal file")
    }

    @Test func folderOutputIsReplacedWhole() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("frames").path
        try AtomicOutput.writeFolder(at: target, isReplaceable: FramesFolder.isOwnFile) { url throws(CarouselError) in
            try? Data().write(to: url.appendingPathComponent("frame-00000.png"))
        }
        #expect(throws: CarouselError.self) {
            try AtomicOutput.writeFolder(at: target, isReplaceable: FramesFolder.isOwnFile) { url throws(CarouselError) in
                throw .output(target, "failed")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == ["frame-00000.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["frames"])
    }

    /// What macOS's Finder leaves in a frames folder it has shown does not stop the folder
    /// being replaced; another file does.
    @Test(arguments: [(".DS_Store", true), ("._.DS_Store", true), ("._frame-00000.png", true), ("._frames.json", true),
                      ("._notes.txt", false), (".hidden", false), ("frame-00000.jpg", false)])
    func finderFilesAreReplaceable(_ name: String, _ replaceable: Bool) throws {
        #expect(FramesFolder.isOwnFile(name) == replaceable)
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: target.appendingPathComponent(name))
        let write = { () throws(CarouselError) in try self.writeOneFrame(to: target) }
        if replaceable {
            try write()
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["frame-00000.png"])
        } else {
            #expect(throws: CarouselError.output(target.path, "folder holds other files; give a new or empty folder")) { try write() }
        }
    }

    /// A folder inside a frames folder is never taken for a previous run's file, whatever its
    /// name: the folder is refused and what is inside stays. Before, `frame-00099.png/` was
    /// removed with everything in it.
    @Test func aFolderInsideIsNeverReplaced() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("frames")
        let inner = target.appendingPathComponent("frame-00099.png")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: inner.appendingPathComponent("notes.txt"))
        try Data("old".utf8).write(to: target.appendingPathComponent("frame-00000.png"))
        #expect(throws: CarouselError.output(target.path, "folder holds other files; give a new or empty folder")) {
            try writeOneFrame(to: target)
        }
        #expect(try Data(contentsOf: inner.appendingPathComponent("notes.txt")) == Data("keep".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["frames"], "nothing left beside it")
    }

    /// A folder made at a new target while the frames are written (another run writing the same
    /// output) is left as it is, and the error says what happened. Before, it said `directory
    /// not empty`.
    @Test func aFolderThatAppearsMeanwhileIsLeft() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("frames")
        #expect(throws: CarouselError.output(target.path, "a folder appeared there while the frames were written (another run?); run again to replace it")) {
            try writeOneFrame(to: target, "mine") {
                try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
                try? Data("theirs".utf8).write(to: target.appendingPathComponent("frame-00000.png"))
            }
        }
        #expect(try Data(contentsOf: target.appendingPathComponent("frame-00000.png")) == Data("theirs".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["frames"], "nothing left beside it")
    }

    /// A frames folder replaced keeps its permission bits, as a file replaced does. Before,
    /// a folder of mode 700 came back 755 (the umask's).
    @Test func aFolderReplacedKeepsItsMode() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("old".utf8).write(to: target.appendingPathComponent("frame-00000.png"))
        chmod(target.path, 0o701)
        try writeOneFrame(to: target, "new")
        var info = stat()
        #expect(stat(target.path, &info) == 0 && info.st_mode & 0o7777 == 0o701)
        #expect(try Data(contentsOf: target.appendingPathComponent("frame-00000.png")) == Data("new".utf8))
    }

    /// A frames folder's files are written whole over older ones of the same name (a longer
    /// file is cut to the new length), and a file that cannot be written is named in a one-line
    /// error.
    @Test func framesFolderWritesOverOlderFilesAndNamesTheOneItCannotWrite() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = CarouselOptions()
        options.script = try Script(parsing: "hold 0.1; next 0.1")
        let carousel = try Carousel(images: Fixtures.items(2, width: 40, height: 20), options: options)
        let first = dir.appendingPathComponent("frame-00000.png")
        try Data(repeating: 0xAB, count: 1 << 16).write(to: first)
        try FramesFolder.write(carousel, to: dir, name: "out")
        #expect(try Data(contentsOf: first) == PNGCodec.encode(carousel.frame(index: 0), fast: true))
        #expect(try Data(contentsOf: dir.appendingPathComponent("frames.json")).starts(with: Data("{".utf8)))

        let blocked = try folder()
        defer { try? FileManager.default.removeItem(at: blocked) }
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("frame-00001.png"),
                                                withIntermediateDirectories: false)
        #expect(throws: CarouselError.output("out", "cannot write frame-00001.png: is a folder")) {
            try FramesFolder.write(carousel, to: blocked, name: "out")
        }
    }
}
