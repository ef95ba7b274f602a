@testable import Carousel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// SIGHUPs taken by ``EndingSignalsTests/aSignalHeldBackIsTakenOnceTheMaskIsBack()``'s handler.
nonisolated(unsafe) private var hangupsTaken: Int32 = 0

/// The ending signals are held back while the temporaries change, and only then: the command
/// line's handler, where it has no thread for them, may take no lock, so it must run between
/// changes, never halfway through one.
@Suite(.serialized)
struct EndingSignalsTests {
    /// Making and registering a temporary holds them back, and the mask is as it was after;
    /// writing the output's bytes does not, and once the output is in place the handler's
    /// flag says so. Every change to the registry checks that they are held back (an
    /// assertion, in this debug build): a file renamed into place, and a frames folder put in
    /// place, then swapped for another, here on a thread that takes them.
    @Test func changesToTheTemporariesHoldBackTheEndingSignals() throws {
        try takingEndingSignals { () throws in
            nonisolated(unsafe) var heldWhileMaking = false
            #expect(TemporaryFiles.make(isFolder: false) { heldWhileMaking = EndingSignals.areHeldBack; return nil } == nil)
            #expect(heldWhileMaking)
            #expect(!EndingSignals.areHeldBack)

            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carousel-signals-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            nonisolated(unsafe) var heldWhileWriting = true
            try AtomicOutput.write(to: dir.appendingPathComponent("out.gif").path) { sink throws(CarouselError) in
                heldWhileWriting = EndingSignals.areHeldBack
                try sink.write(Data("GIF89a".utf8))
            }
            #expect(!heldWhileWriting)
            #expect(!EndingSignals.areHeldBack)
            #expect(TemporaryFiles.crashCommitted.pointee == 1)
            #expect(FileManager.default.contents(atPath: dir.appendingPathComponent("out.gif").path) == Data("GIF89a".utf8))

            let frames = dir.appendingPathComponent("frames").path
            for content in ["first", "second"] {
                try AtomicOutput.writeFolder(at: frames, isReplaceable: FramesFolder.isOwnFile) { url throws(CarouselError) in
                    try? Data(content.utf8).write(to: url.appendingPathComponent("frame-00000.png"))
                }
            }
            #expect(FileManager.default.contents(atPath: frames + "/frame-00000.png") == Data("second".utf8))
            #expect(!EndingSignals.areHeldBack)
        }
    }

    /// A signal that comes while they are held back waits, and is taken as the mask is put back.
    @Test func aSignalHeldBackIsTakenOnceTheMaskIsBack() throws {
        try takingEndingSignals { () throws in
            var action = SignalAction(), previous = SignalAction()
            action.plainHandler = { _ in hangupsTaken += 1 }
            sigemptyset(&action.sa_mask)
            try #require(sigaction(SIGHUP, &action, &previous) == 0)
            defer { sigaction(SIGHUP, &previous, nil) }
            let before = hangupsTaken
            let takenInside: Int32 = EndingSignals.holding {
                raise(SIGHUP)
                return hangupsTaken - before
            }
            #expect(takenInside == 0, "held back")
            #expect(hangupsTaken - before == 1, "taken once the mask is back")
        }
    }
}

/// Runs `body` with SIGINT, SIGTERM and SIGHUP taken on this thread, then puts the mask back:
/// tests run on threads of the concurrency pool, which hold every signal back.
func takingEndingSignals<T>(_ body: () throws -> T) throws -> T {
    var ending = EndingSignals.set, previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &ending, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    try #require(!EndingSignals.areHeldBack)
    return try body()
}
