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

/// The temporaries of runs that ended without removing them: killed with SIGKILL, or the
/// machine stopped, which no signal handler sees. Beside an output NAME they are
/// `.NAME.carousel-XXXXXX` (a file or a frames folder), with `.old` after it (a replaced
/// frames folder being removed), and either with `.removing` after that (a signal's cleanup
/// under way). `carousel-` marks the name as carousel's: a person's `.NAME.backup` has the
/// shape of other tools' temporaries, never of these.
///
/// A run holds a lock (`flock`) on each temporary while it is in use, released by the system
/// however the run ends. Once a run has put NAME in place, it removes NAME's temporaries
/// that no run holds, that are this user's regular files, or folders holding nothing but a
/// frames folder's files, and that have not changed for ``minimumAge`` seconds: the wait
/// covers the moment between a temporary's creation and its lock. Where the file system
/// refuses the lock (NFS without local locks, SMB), nothing is removed.
enum Leftovers {
    /// How long a leftover must have stood unchanged before it is removed, in seconds.
    static let minimumAge = 60

    /// The start of every temporary name made for the output named `name` (a file's, or a
    /// frames folder's), to which six letters or digits are added: `.NAME.carousel-`, NAME
    /// cut short where the whole would pass ``Paths/nameLimit`` with the suffixes a temporary
    /// may take.
    static func stem(of name: String, isFolder: Bool) -> String {
        // A file's `.carousel-XXXXXX` and the dot before NAME: 17 bytes. A folder's too, with
        // `.old` and the `.removing` a signal's cleanup adds: 30.
        "." + Paths.prefix(name, bytes: Paths.nameLimit - (isFolder ? 30 : 17)) + ".carousel-"
    }

    /// Locks the temporary open on `fd` for as long as it stays open (a file's, or one
    /// ``hold(_:)`` opened); false where the file system refuses the lock, the temporary
    /// then left to the ``minimumAge`` rule.
    @discardableResult
    static func lock(_ fd: Int32) -> Bool {
        flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// Locks the temporary at `path` (a folder) for as long as the descriptor returned stays
    /// open; -1 where it cannot be opened to read or locked.
    static func hold(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return -1 }
        guard lock(fd) else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Ends a ``hold(_:)``.
    static func release(_ fd: Int32) {
        if fd >= 0 { close(fd) }
    }

    /// Removes the leftovers in `folder` whose names start with `stem` (``stem(of:isFolder:)``).
    /// What cannot be removed stays, without a word: the output is already in place.
    static func remove(in folder: String, stem: String) {
        let directory = folder.isEmpty ? "." : folder
        guard let listing = opendir(directory) else { return }
        var names: [String] = []
        let start = Array(stem.utf8)
        while let entry = readdir(listing) {
            // The stem's bytes first, without making a string of every name: a folder such as
            // /tmp may hold tens of thousands.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> String? in
                guard bytes.count > start.count, memcmp(bytes.baseAddress!, start, start.count) == 0 else { return nil }
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let name, isLeftover(name, stem: stem) { names.append(name) }
        }
        closedir(listing)
        let now = time(nil)
        for name in names {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid == geteuid() else { continue }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFDIR, Int(now - modified(info)) >= minimumAge else { continue }
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            // The one looked at, not another put in its place meanwhile; no run still holds it.
            var opened = stat()
            guard fstat(fd, &opened) == 0, opened.st_dev == info.st_dev, opened.st_ino == info.st_ino,
                  lock(fd) else { continue }
            if kind == S_IFDIR {
                removeFramesFolder(path)
            } else {
                unlink(path)
            }
        }
    }

    /// Removes the folder at `path` if it holds nothing but regular files a frames folder
    /// holds (``FramesFolder/isOwnFile(_:)``).
    private static func removeFramesFolder(_ path: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names {
            var info = stat()
            guard FramesFolder.isOwnFile(name), lstat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        }
        for name in names { unlink(path + "/" + name) }
        rmdir(path)
    }

    /// Whether `name` is `stem` followed by six ASCII letters or digits, then `.old`, or
    /// `.removing`, or both in that order, or nothing.
    static func isLeftover(_ name: String, stem: String) -> Bool {
        let bytes = Array(name.utf8), start = Array(stem.utf8)
        guard bytes.count >= start.count + 6, bytes.starts(with: start) else { return false }
        let random = bytes[start.count..<(start.count + 6)]
        guard random.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            return false
        }
        let rest = String(decoding: bytes[(start.count + 6)...], as: UTF8.self)
        return ["", ".old", ".removing", ".old.removing"].contains(rest)
    }

    /// When `info`'s file last changed, in seconds since 1970.
    private static func modified(_ info: stat) -> time_t {
        #if canImport(Darwin)
        return info.st_mtimespec.tv_sec
        #else
        return info.st_mtim.tv_sec
        #endif
    }
}
