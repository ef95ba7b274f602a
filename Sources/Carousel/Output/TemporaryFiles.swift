#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files and folders an output is being built in, so that an interrupted
/// or crashing run can remove them (spec section 5c).
///
/// ``AtomicOutput`` registers each temporary path while it is in use. The command line
/// removes what is registered when a signal ends the run: ``removeAll()`` from an
/// ordinary thread (SIGINT, SIGTERM, SIGHUP), ``removeAllFromSignalHandler()`` from a
/// crash handler, where only async-signal-safe calls may be made.
public enum TemporaryFiles {
    /// Removes every registered temporary file and folder (a folder with its files), for a
    /// run that is ending: from then on no temporary is made (`make(isFolder:_:)` gives
    /// nil), and none is moved into place, so none can appear between this cleanup and the
    /// exit that follows it.
    ///
    /// Returns whether an output had already been moved into place (``AtomicOutput``'s
    /// commit): the run's output is then written whole, and what is removed is what it left
    /// to clear (the previous frames folder), so the run has not failed.
    @discardableResult
    public static func removeAll() -> Bool {
        let (entries, committed) = registry.close()
        for entry in entries {
            if entry.isFolder {
                // Renamed first, so workers still writing into the old path fail instead of
                // adding files while the folder is being emptied.
                let doomed = entry.path + ".removing"
                let path = rename(entry.path, doomed) == 0 ? doomed : entry.path
                for _ in 0..<3 where FileManager.default.fileExists(atPath: path) {
                    try? FileManager.default.removeItem(atPath: path)
                }
            } else {
                unlink(entry.path)
            }
        }
        return committed
    }

    /// Removes registered temporary files, and registered folders with the files a frames
    /// folder holds (``FramesFolder/isOwnFile(_:)``: `frames.json`, `frame-00000.png` ...,
    /// and Finder's `.DS_Store` and `._NAME` beside them), using async-signal-safe calls
    /// only (`unlink`, `rmdir`) on paths built in a buffer made beforehand
    /// (``prepareForCrashCleanup()``): for a crash handler.
    ///
    /// Returns whether an output had already been moved into place, as ``removeAll()`` does.
    @discardableResult
    public static func removeAllFromSignalHandler() -> Bool {
        let table = crashTable, buffer = crashPath, committed = crashCommitted.pointee != 0
        for k in 0..<TemporaryFiles.slots {
            let slot = table.advanced(by: k * TemporaryFiles.slotSize)
            let kind = slot[0]
            guard kind != 0 else { continue }
            var length = 0
            while slot[1 + length] != 0 { length += 1 }
            for i in 0...length { buffer[i] = CChar(bitPattern: slot[1 + i]) }
            if kind == 1 {
                unlink(buffer)
                continue
            }
            // Unlinks FOLDER/NAME and FOLDER/._NAME, NAME given by `write(at)`, which writes it
            // from `at` and returns where it ends; true when FOLDER/NAME was there.
            func remove(_ write: (Int) -> Int) -> Bool {
                buffer[length] = 47
                let end = write(length + 1)
                buffer[end] = 0
                let removed = unlink(buffer) == 0
                buffer[length + 1] = 46
                buffer[length + 2] = 95
                buffer[write(length + 3)] = 0
                unlink(buffer)
                return removed
            }
            func text(_ name: StaticString, at start: Int) -> Int {
                for i in 0..<name.utf8CodeUnitCount { buffer[start + i] = CChar(bitPattern: name.utf8Start[i]) }
                return start + name.utf8CodeUnitCount
            }
            _ = remove { text("frames.json", at: $0) }
            _ = remove { text(".DS_Store", at: $0) }
            var misses = 0, n = 0
            while misses < 1000 && n < 10_000_000 {
                // "frame-" + five or more digits + ".png", written without allocating.
                // A folder of more than 100,000 frames writes every n with as many digits as
                // its last (`PNGSequenceEncoder.fileName(_:of:)`), so wider names are tried
                // where the narrowest is not there.
                var width = 5, scale = 100_000
                while n >= scale { width += 1; scale *= 10 }
                var found = false
                while !found && width <= 8 {
                    found = remove { start in
                        let digits = text("frame-", at: start)
                        var v = n
                        for i in stride(from: width - 1, through: 0, by: -1) {
                            buffer[digits + i] = CChar(48 + v % 10)
                            v /= 10
                        }
                        return text(".png", at: digits + width)
                    }
                    width += 1
                }
                misses = found ? 0 : misses + 1
                n += 1
            }
            buffer[length] = 0
            rmdir(buffer)
        }
        return committed
    }

    /// Makes what ``removeAllFromSignalHandler()`` reads before any crash can need it: the
    /// crash table and its path buffer, each made once on first use, which inside a signal
    /// handler would allocate. The command line calls it where it installs its handlers.
    public static func prepareForCrashCleanup() {
        _ = crashTable
        _ = crashPath
        _ = crashCommitted
    }

    /// Makes a temporary file or folder with `create` (which returns its path, or nil when
    /// it made none) and registers it, both under the registry's lock: ``removeAll()`` sees
    /// either no file or a registered one, never a file made but not yet registered. Nil
    /// once ``removeAll()`` has run.
    static func make(isFolder: Bool, _ create: () -> String?) -> String? {
        registry.make(isFolder: isFolder, create)
    }

    static func unregister(_ path: String) {
        registry.remove(path)
    }

    /// Moves the folder at `target` to `old`, then the registered temporary folder
    /// `temporary` to `target`, with `old` registered in its place: both renames under the
    /// registry's lock, so a signal's cleanup (``removeAll()``) waits for them and then finds
    /// either the target as it was, or the new folder in place and the previous one at `old`
    /// to remove, never the target moved away with nothing in its place. Returns nil once
    /// swapped; else the `errno` of the rename that failed, and whether the target is as it
    /// was (a failed second rename moves `old` back).
    static func swapFolder(_ temporary: String, into target: String, old: String) -> (code: Int32, restored: Bool)? {
        registry.swapFolder(temporary, into: target, old: old)
    }

    /// Renames the registered temporary `temporary` to `target` and unregisters it, under the
    /// registry's lock, so a signal's cleanup (``removeAll()``) sees either the temporary to
    /// remove or the output in place, and knows which. Returns nil once renamed, else the
    /// `errno` of the rename (`EINTR` when the cleanup has begun: nothing is moved then).
    static func commitFile(_ temporary: String, to target: String) -> Int32? {
        registry.commitFile(temporary, to: target)
    }

    /// 1 once an output has been moved into place: what ``removeAll()`` and
    /// ``removeAllFromSignalHandler()`` return; written under the registry's lock.
    nonisolated(unsafe) static let crashCommitted: UnsafeMutablePointer<UInt8> = {
        let flag = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    /// Slots of the crash table: paths a signal handler can read without allocating.
    static let slots = 64
    static let slotSize = 4096 + 1
    /// Kind byte (0 empty, 1 file, 2 folder) then a NUL-terminated path, per slot.
    ///
    /// `nonisolated(unsafe)`: the pointer itself never changes; the bytes behind it are
    /// written only under the registry's lock and read without it only by a crash handler.
    nonisolated(unsafe) static let crashTable: UnsafeMutablePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * slotSize)
        table.initialize(repeating: 0, count: slots * slotSize)
        return table
    }()

    /// A path of a slot and a name in its folder, for the crash handler.
    nonisolated(unsafe) static let crashPath: UnsafeMutablePointer<CChar> = {
        let path = UnsafeMutablePointer<CChar>.allocate(capacity: slotSize + 64)
        path.initialize(repeating: 0, count: slotSize + 64)
        return path
    }()

    private static let registry = Registry()

    /// The registered paths, behind a lock; mirrored into the crash table.
    ///
    /// `@unchecked Sendable` is safe: `items` and the crash table are only touched while
    /// holding `lock`. A crash handler reads the table without it, at worst seeing a slot
    /// being written, whose kind byte is set last and cleared first; the handler of an ending
    /// signal never sees one, as the lock is held with those signals held back.
    private final class Registry: @unchecked Sendable {
        private let lock = Lock()
        private var items: [(path: String, isFolder: Bool)] = []
        private var closed = false

        /// Runs `body` holding the lock, with the ending signals held back on this thread, so
        /// that a handler taking one there (the command line's, where it has no thread for
        /// them) runs before the change or after it, never halfway through.
        private func changing<T>(_ body: () -> T) -> T {
            EndingSignals.holding {
                lock.lock()
                defer { lock.unlock() }
                return body()
            }
        }

        func make(isFolder: Bool, _ create: () -> String?) -> String? {
            changing {
                guard !closed, let path = create() else { return nil }
                add(path, isFolder: isFolder)
                return path
            }
        }

        /// Every registered entry, and whether an output has been moved into place; no more
        /// are made or moved afterwards.
        func close() -> (items: [(path: String, isFolder: Bool)], committed: Bool) {
            changing {
                closed = true
                return (items, TemporaryFiles.crashCommitted.pointee != 0)
            }
        }

        /// Registers `path`; the lock is held.
        private func add(_ path: String, isFolder: Bool) {
            assertHeldBack()
            items.append((path, isFolder))
            let bytes = Array(path.utf8)
            guard bytes.count < TemporaryFiles.slotSize - 1 else { return }
            for k in 0..<TemporaryFiles.slots {
                let slot = TemporaryFiles.crashTable.advanced(by: k * TemporaryFiles.slotSize)
                guard slot[0] == 0 else { continue }
                for (i, b) in bytes.enumerated() { slot[1 + i] = b }
                slot[1 + bytes.count] = 0
                slot[0] = isFolder ? 2 : 1
                return
            }
        }

        func remove(_ path: String) {
            changing { drop(path) }
        }

        func swapFolder(_ temporary: String, into target: String, old: String) -> (code: Int32, restored: Bool)? {
            changing {
                // Once closed, the cleanup has taken the temporary away: nothing is swapped.
                guard !closed else { return (EINTR, true) }
                guard rename(target, old) == 0 else { return (errno, true) }
                guard rename(temporary, target) == 0 else {
                    let code = errno
                    return (code, rename(old, target) == 0)
                }
                drop(temporary)
                add(old, isFolder: true)
                setCommitted()
                return nil
            }
        }

        func commitFile(_ temporary: String, to target: String) -> Int32? {
            changing {
                guard !closed else { return EINTR }
                guard rename(temporary, target) == 0 else { return errno }
                drop(temporary)
                setCommitted()
                return nil
            }
        }

        /// Notes that an output is in place, for ``removeAll()`` and the signal handler; the
        /// lock is held.
        private func setCommitted() {
            assertHeldBack()
            TemporaryFiles.crashCommitted.pointee = 1
        }

        /// Checks, in debug builds, that a change is made inside ``changing(_:)``.
        private func assertHeldBack() {
            assert(EndingSignals.areHeldBack, "a change to the temporaries with the ending signals taken")
        }

        /// Unregisters `path`; the lock is held.
        private func drop(_ path: String) {
            assertHeldBack()
            items.removeAll { $0.path == path }
            let bytes = Array(path.utf8)
            for k in 0..<TemporaryFiles.slots {
                let slot = TemporaryFiles.crashTable.advanced(by: k * TemporaryFiles.slotSize)
                guard slot[0] != 0, (0..<bytes.count).allSatisfy({ slot[1 + $0] == bytes[$0] }), slot[1 + bytes.count] == 0 else {
                    continue
                }
                slot[0] = 0
            }
        }
    }
}
