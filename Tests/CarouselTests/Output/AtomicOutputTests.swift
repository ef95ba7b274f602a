import Carousel
import Foundation
import Testing

struct AtomicOutputTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
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
}
