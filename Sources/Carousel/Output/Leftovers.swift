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
/// `.NAME.XXXXXX` (a file or a frames folder), `.NAME.XXXXXX.old` (a replaced frames folder
/// being removed) and either with `.removing` after it (a signal's cleanup under way).
///
/// A run holds a lock (`flock`) on each temporary while it is in use, released by the system
/// however the run ends. Once a run has put NAME in place, it removes NAME's temporaries
/// that no run holds, that are this user's, and that have not changed for ``minimumAge`` seconds:
/// the wait covers the moment between a temporary's creation and its lock, and a writer that
/// takes no lock (an older carousel).
enum Leftovers {
    /// How long a leftover must have stood unchanged before it is removed, in seconds.
    static let minimumAge = 60

    /// The start of every temporary name made for the output named `name` (a file's, or a
    /// frames folder's), to which six letters or digits are added: `.NAME.`, NAME cut short
    /// where the whole would pass ``Paths/nameLimit`` with the suffixes a temporary may take.
    static func stem(of name: String, isFolder: Bool) -> String {
        // A file's `.XXXXXX` and the dot before NAME: 8 bytes. A folder's too, with `.old` and
        // the `.removing` a signal's cleanup adds: 21.
        "." + Paths.prefix(name, bytes: Paths.nameLimit - (isFolder ? 21 : 8)) + "."
    }

    /// Locks the temporary at `path` for as long as the descriptor returned stays open;
    /// -1 where it cannot be opened to read (it is then left to the ``minimumAge`` rule).
    static func hold(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return -1 }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
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
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if isLeftover(name, stem: stem) { names.append(name) }
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
            // A run still holding it is writing it.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            if kind == S_IFDIR {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                unlink(path)
            }
        }
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
