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

/// Writes output files so that a failed run leaves nothing behind (spec sections 5c and 6).
///
/// - A regular file or a new path: written to a temporary file beside it, created with
///   `O_CREAT | O_EXCL` and mode 0666 (the process umask applies, which is never
///   changed), and renamed into place when complete. An existing file keeps its
///   permission bits; one this user may not write, or one marked immutable or
///   append-only, is refused before anything is written. On failure the temporary file
///   is removed and the target is untouched. The file is not flushed to the disk
///   (`fsync`) before the rename, as with ffmpeg, gifsicle and pngquant: a failed run
///   cannot leave a partial file, and the file system writes the finished file back in
///   its own time. A flush cost 8 to 10 ms of a sample-banner render of about 200 ms, and
///   32 to 37 ms of the gradient set's 1.3 s (`strace -T -e trace=fsync`).
/// - A symlink: the file it points to is replaced that way; the link stays.
/// - Not a regular file (a FIFO, a character device, `/dev/stdout`, `/proc/self/fd/N`):
///   written directly, streaming; it is never replaced. A path that names one of this
///   process's descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) is
///   written through that descriptor, as `-` is: where it leads to a file opened to append
///   (`>> log`), the output is appended, not written over the file's start.
/// - `-`: standard output.
///
/// Temporary files and folders are registered with ``TemporaryFiles`` while in use, so
/// a signal handler can remove them, and locked (`flock`) while in use: a run that puts an
/// output in place removes that output's temporaries that no run holds and that have not
/// changed for a minute, those of runs killed outright.
public enum AtomicOutput {
    /// Runs `body` with a sink for `path`, then moves the result into place.
    public static func write(to path: String, _ body: (any ByteSink) throws(CarouselError) -> Void) throws(CarouselError) {
        // An empty path names no file (the system resolves it to nothing: ENOENT), and its
        // temporary would be made in the working folder under the name `.`.
        if path.isEmpty { throw .output(path, "is empty; give a file name") }
        if path == "-" {
            try body(FileDescriptorSink(fd: STDOUT_FILENO, name: "<stdout>"))
            return
        }
        let target = try resolveLinks(path)
        if let named = namedDescriptor(target), named.own {
            guard let descriptor = named.fd else { throw .output(path, "names no descriptor; after fd/ comes a descriptor's number") }
            try writeThrough(descriptor, name: path, body)
            return
        }
        var info = stat()
        let exists = stat(target, &info) == 0
        if path.hasSuffix("/") && !exists {
            throw .output(path, "ends in /, as a folder's name does; give a file name")
        }
        if exists {
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR { throw .output(path, "is a folder; give a file name") }
            if kind != S_IFREG || isDescriptorPath(path) || isDescriptorPath(target) {
                try writeDirectly(to: target, name: path, body)
                return
            }
            // A file this user may not write is refused, as `>` and ffmpeg refuse it, though
            // the rename that puts the new file in place would replace it: a file made
            // read-only is being kept.
            if access(target, W_OK) != 0, errno == EACCES {
                throw .output(path, "cannot replace it: permission denied (the file is read-only to this user)")
            }
            if isMarkedUnremovable(target, info) {
                throw .output(path, "cannot replace it: the file is marked immutable or append-only")
            }
        }
        let existingMode: mode_t? = stat(target, &info) == 0 ? info.st_mode & 0o7777 : nil
        let (fd, temporary) = try makeTemporary(beside: target, name: path)
        defer { TemporaryFiles.unregister(temporary) }
        let sink = FileDescriptorSink(fd: fd, name: path, rewritable: true)
        do throws(CarouselError) {
            if let existingMode, fchmod(fd, existingMode) != 0 { throw .output(path, FileErrors.posixReason(errno)) }
            try body(sink)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let reason = FileErrors.posixReason(errno)
            unlink(temporary)
            throw .output(path, reason)
        }
        if let code = TemporaryFiles.commitFile(temporary, to: target) {
            unlink(temporary)
            throw .output(path, FileErrors.posixReason(code))
        }
        let (folder, base) = Paths.split(target)
        Leftovers.remove(in: folder, stem: Leftovers.stem(of: base, isFolder: false))
    }

    /// The first of `inputs` (what it is, and its path) that `path` would overwrite: the same
    /// existing regular file, links followed (a symbolic or hard link to it too); nil when
    /// none is, or nothing is at `path`. `-` is standard output, which overwrites an input
    /// where it is that file (`>> a.png`, `1<> a.png`, or `> a.png`, which has already
    /// emptied it), as `/dev/stdout` does.
    public static func overwrittenInput(by path: String, among inputs: [(what: String, path: String)]) -> (what: String, path: String)? {
        guard path == "-" else { return inputs.first { Paths.isSameFile(path, $0.path) } }
        var out = stat()
        guard fstat(STDOUT_FILENO, &out) == 0, out.st_mode & S_IFMT == S_IFREG else { return nil }
        return inputs.first { Paths.isFile(out, at: $0.path) }
    }

    /// The first of `inputs` (what it is, and its path) that lies in the existing folder
    /// `folder` (links followed) under a name `isReplaceable` accepts, so that a folder
    /// output written there (``writeFolder(at:isReplaceable:_:)``) would remove it; nil when
    /// none does, or no folder is at `folder`.
    public static func inputInFolder(_ folder: String, among inputs: [(what: String, path: String)],
                                     isReplaceable: (String) -> Bool) -> (what: String, path: String)? {
        var target = stat()
        guard !folder.isEmpty, stat(folder, &target) == 0, target.st_mode & S_IFMT == S_IFDIR else { return nil }
        return inputs.first { input in
            var info = stat()
            let (holder, name) = Paths.split(input.path)
            return isReplaceable(name) && lstat(input.path, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
                && Paths.isFile(target, at: holder.isEmpty ? "." : holder)
        }
    }

    /// Writes `data` to `path` atomically.
    public static func write(_ data: Data, to path: String) throws(CarouselError) {
        try write(to: path) { sink throws(CarouselError) in
            try sink.write(data)
        }
    }

    /// The file `path` stands for: a symlink's final target (followed even when it does not
    /// exist yet), otherwise `path` itself.
    static func resolve(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            if isDescriptorPath(current) { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = Paths.split(current).folder
            current = Paths.join(folder, link)
        }
        return current
    }

    /// ``resolve(_:)``, refusing a loop of links (or one whose target cannot be read): the
    /// link at `path` would otherwise be replaced by the output, where the spec keeps links.
    static func resolveLinks(_ path: String) throws(CarouselError) -> String {
        let target = resolve(path)
        var info = stat()
        if !isDescriptorPath(target), lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw .output(path, "too many levels of symbolic links; the link is left as it is")
        }
        return target
    }

    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/*/fd/N` name open descriptors:
    /// written through, never replaced, whatever they lead to.
    static func isDescriptorPath(_ path: String) -> Bool { namedDescriptor(path) != nil }

    /// The descriptor a path names: `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N` and, on
    /// Linux, `/proc/P/fd/N` and `/proc/P/task/T/fd/N`, each written with any `//`, `.` or `..`
    /// (`/dev/fd//1`, `/proc/self/task/../fd/1`): its number (nil where the last part is not
    /// one) and whether it is this process's (`/dev`, or P `self`, `thread-self` or its PID).
    /// Nil for any other path, and for one that ends in `/`, a folder's name.
    static func namedDescriptor(_ path: String) -> (fd: Int32?, own: Bool)? {
        guard path.hasPrefix("/"), !path.hasSuffix("/") else { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        func number(_ part: Substring) -> Int32? {
            part.allSatisfy { $0.isASCII && $0.isNumber } ? Int32(part) : nil
        }
        switch parts.count {
        case 2 where parts[0] == "dev" && parts[1] == "stdout": return (STDOUT_FILENO, true)
        case 2 where parts[0] == "dev" && parts[1] == "stderr": return (STDERR_FILENO, true)
        case 3 where parts[0] == "dev" && parts[1] == "fd": return (number(parts[2]), true)
        default: break
        }
        #if os(Linux)
        if parts.count >= 4, parts[0] == "proc", parts[parts.count - 2] == "fd",
           parts.count == 4 || (parts.count == 6 && parts[2] == "task") {
            let own = parts[1] == "self" || parts[1] == "thread-self" || parts[1] == "\(getpid())"
            return (number(parts[parts.count - 1]), own)
        }
        #endif
        return nil
    }

    /// The descriptor of this process that the output `path` is written through, symbolic
    /// links followed; nil for any other path.
    package static func ownDescriptor(of path: String) -> Int32? {
        guard let named = namedDescriptor(resolve(path)), named.own else { return nil }
        return named.fd
    }

    /// Streams `body` into this process's open descriptor `fd` (a copy of it, closed after),
    /// at its offset and with its flags: what `-o -` does for standard output. What the
    /// descriptor cannot take is refused before anything is made.
    private static func writeThrough(_ fd: Int32, name: String,
                                     _ body: (any ByteSink) throws(CarouselError) -> Void) throws(CarouselError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .output(name, errno == EBADF ? "descriptor \(fd) is not open" : FileErrors.posixReason(errno))
        }
        // On Linux a descriptor with no file type is one of the runtime's own (an epoll or
        // event descriptor that took a number the caller had closed), not an output.
        guard info.st_mode & S_IFMT != 0 else { throw .output(name, "descriptor \(fd) is not open to a file, pipe or device") }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw .output(name, "is a folder; give a file name") }
        guard fcntl(fd, F_GETFL) & O_ACCMODE != O_RDONLY else { throw .output(name, "descriptor \(fd) is open for reading only") }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { throw .output(name, FileErrors.posixReason(errno)) }
        try stream(into: copy, name: name, body)
    }

    /// Streams `body` straight into an existing special file (no temporary, no rename).
    private static func writeDirectly(to target: String, name: String,
                                      _ body: (any ByteSink) throws(CarouselError) -> Void) throws(CarouselError) {
        let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .output(name, FileErrors.posixReason(errno)) }
        try stream(into: fd, name: name, body)
    }

    /// Runs `body` with a sink over `fd`, which it then closes, whatever happens.
    private static func stream(into fd: Int32, name: String,
                               _ body: (any ByteSink) throws(CarouselError) -> Void) throws(CarouselError) {
        do throws(CarouselError) {
            try body(FileDescriptorSink(fd: fd, name: name))
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw .output(name, FileErrors.posixReason(errno)) }
    }

    /// Creates `.NAME.carousel-XXXXXX` beside `target` with `O_CREAT | O_EXCL` and mode 0666 less the umask
    /// (NAME cut short where the whole would pass the 255 bytes a name may have), locked
    /// (``Leftovers``) until its descriptor is closed.
    static func makeTemporary(beside target: String, name: String) throws(CarouselError) -> (Int32, String) {
        let (folder, base) = Paths.split(target)
        let directory = folder.isEmpty ? "." : folder
        if let refusal = appendOnlyRefusal(directory, shown: directory) {
            throw .output(name, refusal)
        }
        var fd: Int32 = -1, failure: Int32 = 0
        // Made and registered in one step, so a signal's cleanup cannot miss it.
        let made = TemporaryFiles.make(isFolder: false) { () -> String? in
            for _ in 0..<100 {
                let candidate = directory + "/" + Leftovers.stem(of: base, isFolder: false) + randomSuffix()
                fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                if fd >= 0 {
                    Leftovers.lock(fd)
                    return candidate
                }
                if errno != EEXIST {
                    failure = errno
                    return nil
                }
            }
            return nil
        }
        guard let made else {
            if failure != 0 { throw .output(name, cannotCreate(in: directory, failure)) }
            throw .output(name, "cannot create a temporary file in \(directory)")
        }
        return (fd, made)
    }

    /// Writes `data` to a new or truncated file at `path`, with `write(2)` and no flush to the
    /// disk; returns why it failed, or nil. For the files of a folder that
    /// ``writeFolder(at:isReplaceable:_:)`` builds: the folder replaces the output whole when
    /// every file is in, as a single output file is renamed into place without a flush.
    /// Foundation's `Data.write(to:)`, used before, flushes each file on Linux (`fsync`): the
    /// sample banners' 288 frames took 0.43 to 0.45 s with it and 0.25 to 0.27 s without
    /// (docs/behaviour.md, *Output targets*).
    static func writeInFolder(_ data: Data, to path: String) -> String? {
        writeInFolder(to: path) { sink throws(CarouselError) in try sink.write(data) }
    }

    /// Writes a new or truncated file at `path` as ``writeInFolder(_:to:)`` does, with what
    /// `body` hands the sink, a piece at a time; returns why it failed, or nil.
    static func writeInFolder(to path: String, _ body: (FileDescriptorSink) throws(CarouselError) -> Void) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return FileErrors.posixReason(errno) }
        var failure: String?
        do {
            try body(FileDescriptorSink(fd: fd, name: path))
        } catch {
            if case .output(_, let reason) = error { failure = reason } else { failure = error.description }
        }
        if close(fd) != 0 && failure == nil && errno != EINTR { failure = FileErrors.posixReason(errno) }
        return failure
    }

    /// Writes a folder of files atomically: built in a temporary folder beside `path`, then swapped in.
    ///
    /// An existing `path` is replaced only when it is empty or holds nothing but files
    /// `isReplaceable` accepts (a previous run's output); otherwise it is an error. An empty
    /// `path`, which would name the working folder, and `-` are refused.
    public static func writeFolder(at path: String, isReplaceable: (String) -> Bool,
                                   _ body: (URL) throws(CarouselError) -> Void) throws(CarouselError) {
        // An empty path would be taken from the working folder, which is then replaced when it
        // is empty or holds only a previous output; `-` stands for standard output everywhere
        // else, where no folder can go. Both are refused, as the command line refuses them.
        if path.isEmpty { throw .output(path, "is empty; give a folder name") }
        if path == "-" { throw .output(path, "is standard output, where a folder cannot go; give a folder name (./- for one named -)") }
        let fm = FileManager.default
        // Absolute, "." and ".." resolved: `-o .` renames the current folder by its name, not
        // ".", which cannot be renamed (EBUSY).
        // A link to a folder stays a link with a slash after its name too (`-o out/`): the
        // slash would make `lstat` see the folder, and the swap replace the link.
        var named = path
        while named.count > 1 && named.hasSuffix("/") { named.removeLast() }
        let resolved = try resolveLinks(named)
        var absolute = resolved
        if !resolved.hasPrefix("/") {
            guard let cwd = Paths.currentFolder() else {
                throw .output(path, errno == ENOENT ? Paths.currentFolderGone : FileErrors.posixReason(errno))
            }
            absolute = Paths.join(cwd, resolved)
        }
        let target = URL(fileURLWithPath: absolute, isDirectory: true).standardizedFileURL
        let existing = Paths.isFolder(target.path)
        // A folder replaced keeps its permission bits, as a file replaced does.
        let existingMode = try existing.map { isFolder throws(CarouselError) in
            guard isFolder else { throw .output(path, "exists and is not a folder") }
            return try replaceableMode(of: target, path: path, isReplaceable: isReplaceable)
        }
        let parent = target.deletingLastPathComponent().path
        let stem = Leftovers.stem(of: target.lastPathComponent, isFolder: true)
        // The parent named as the user wrote it, where no link was followed (`a/b`, not the
        // absolute path it stands for), in errors.
        let written = Paths.split(path).folder
        let shown = resolve(path) != path ? parent : written.isEmpty ? "." : written
        if let refusal = appendOnlyRefusal(parent, shown: shown) { throw .output(path, refusal) }
        var failure: Int32 = 0
        // Made and registered in one step, so a signal's cleanup cannot miss it.
        let made = TemporaryFiles.make(isFolder: true) { () -> String? in
            for _ in 0..<100 {
                // Room for ".old" after it too (the previous folder set aside), and for the
                // ".removing" a signal's cleanup renames it to (``TemporaryFiles/removeAll()``).
                let candidate = parent + "/" + stem + randomSuffix()
                if mkdir(candidate, 0o777) == 0 { return candidate }
                if errno != EEXIST {
                    failure = errno
                    return nil
                }
            }
            return nil
        }
        guard let temporaryPath = made else {
            if failure != 0 { throw .output(path, cannotCreate(in: shown, failure)) }
            throw .output(path, "cannot create a temporary folder in \(shown)")
        }
        let temporary = URL(fileURLWithPath: temporaryPath, isDirectory: true)
        let held = Leftovers.hold(temporaryPath)
        defer {
            Leftovers.release(held)
            TemporaryFiles.unregister(temporaryPath)
        }
        do throws(CarouselError) {
            try body(temporary)
            if let existingMode, chmod(temporaryPath, existingMode) != 0 { throw .output(path, FileErrors.posixReason(errno)) }
        } catch {
            try? fm.removeItem(atPath: temporaryPath)
            throw error
        }
        guard existing != nil else {
            if let code = TemporaryFiles.commitFile(temporary.path, to: target.path) {
                try? fm.removeItem(atPath: temporaryPath)
                // A folder made at the target meanwhile (another run writing the same output).
                if code == ENOTEMPTY || code == EEXIST {
                    throw .output(path, "a folder appeared there while the frames were written (another run?); run again to replace it")
                }
                throw .output(path, FileErrors.posixReason(code))
            }
            Leftovers.remove(in: parent, stem: stem)
            return
        }
        // The previous folder is set aside and the new one moved in as one step for a signal's
        // cleanup; the previous one is then registered, so an interrupt while it is being
        // removed removes the rest of it. It is held (``Leftovers``) until it is gone.
        let old = temporary.path + ".old"
        let heldOld = Leftovers.hold(target.path)
        defer { Leftovers.release(heldOld) }
        if let (code, restored) = TemporaryFiles.swapFolder(temporary.path, into: target.path, old: old) {
            let reason = FileErrors.posixReason(code)
            try? fm.removeItem(atPath: temporaryPath)
            throw .output(path, restored ? reason : "\(reason); the previous folder is at \(old)")
        }
        defer { TemporaryFiles.unregister(old) }
        do {
            try fm.removeItem(atPath: old)
        } catch {
            throw .output(path, "written, but the previous folder could not be removed from \(old): \(FileErrors.reason(error, path: old))")
        }
        Leftovers.remove(in: parent, stem: stem)
    }

    /// The permission bits of the existing folder `target` (the output `path`), once it is
    /// found to hold nothing but files `isReplaceable` accepts, each of which this process
    /// may remove; otherwise why not. Its files are removed once the new folder is in, so a
    /// folder whose files cannot be removed is refused here, before anything is written, not
    /// after the swap.
    private static func replaceableMode(of target: URL, path: String,
                                        isReplaceable: (String) -> Bool) throws(CarouselError) -> mode_t {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: target.path)
        } catch {
            throw .output(path, "cannot read the folder: \(FileErrors.reason(error, path: target.path))")
        }
        // A folder inside is never a previous run's, whatever its name (`frame-00099.png/`);
        // a link is taken as itself (removed, not what it leads to).
        let entries = names.sorted().map { name in
            var info = stat()
            return (name: name, info: lstat(target.appendingPathComponent(name).path, &info) == 0 ? info : nil)
        }
        guard entries.allSatisfy({ isReplaceable($0.name) && $0.info.map { $0.st_mode & S_IFMT != S_IFDIR } ?? true }) else {
            throw .output(path, "folder holds other files; give a new or empty folder")
        }
        var folder = stat()
        guard stat(target.path, &folder) == 0, access(target.path, W_OK | X_OK) == 0 else {
            throw .output(path, "cannot replace the folder's files: \(FileErrors.posixReason(errno))")
        }
        // In a sticky folder only root, the folder's owner and each file's owner may remove it.
        let me = geteuid()
        if folder.st_mode & S_ISVTX != 0, me != 0, me != folder.st_uid,
           let theirs = entries.first(where: { $0.info.map { $0.st_uid != me } ?? false }) {
            throw .output(path, "cannot replace the folder's files: \(theirs.name) is another user's, in a folder that keeps each user's files (sticky)")
        }
        // Not even root removes a file marked immutable or append-only, nor any file from a
        // folder marked append-only (which `access` lets one write in).
        if isMarkedUnremovable(target.path, folder) {
            throw .output(path, "cannot replace the folder's files: the folder is marked append-only or immutable")
        }
        if let marked = entries.first(where: { entry in
            entry.info.map { isMarkedUnremovable(target.appendingPathComponent(entry.name).path, $0) } ?? false
        }) {
            throw .output(path, "cannot replace the folder's files: \(marked.name) is marked immutable or append-only")
        }
        return folder.st_mode & 0o7777
    }

    /// Whether the file or folder at `path` (whose `lstat` is `info`) is marked immutable or
    /// append-only: Linux's attributes (`chattr +i`, `+a`), macOS's flags (`chflags uchg`,
    /// `uappnd` and their system forms). Only regular files and folders are opened to read
    /// Linux's attributes; anything else, and an attribute that cannot be read, counts as not
    /// marked.
    static func isMarkedUnremovable(_ path: String, _ info: stat) -> Bool {
        let (immutable, appendOnly) = marks(path, info)
        return immutable || appendOnly
    }

    /// Whether the file or folder at `path` (whose `lstat` is `info`) is marked immutable, and
    /// whether append-only, as ``isMarkedUnremovable(_:_:)`` reads them.
    static func marks(_ path: String, _ info: stat) -> (immutable: Bool, appendOnly: Bool) {
        #if canImport(Darwin)
        return (info.st_flags & UInt32(UF_IMMUTABLE | SF_IMMUTABLE) != 0, info.st_flags & UInt32(UF_APPEND | SF_APPEND) != 0)
        #else
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR else { return (false, false) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return (false, false) }
        defer { close(fd) }
        // FS_IOC_GETFLAGS, which writes an int (its number names a long); FS_IMMUTABLE_FL is
        // 0x10, FS_APPEND_FL 0x20.
        var flags = 0
        guard withUnsafeMutablePointer(to: &flags, { ioctl(fd, 0x8008_6601, $0) }) == 0 else { return (false, false) }
        return (flags & 0x10 != 0, flags & 0x20 != 0)
        #endif
    }

    /// Why nothing can be written in the folder `directory` (shown as `shown`) when it is marked
    /// append-only: a new file goes in, but it can be neither renamed into place nor removed,
    /// so the temporary would be left. Nil otherwise (one marked immutable refuses the new
    /// file itself, and says so then).
    static func appendOnlyRefusal(_ directory: String, shown: String) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0, marks(directory, info).appendOnly else { return nil }
        return "cannot write in \(shown): the folder is marked append-only, which lets a new file in but not renamed into place or removed"
    }

    /// Six random letters and digits for a temporary name.
    private static func randomSuffix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }

    /// An honest reason a file cannot be created in `folder`.
    private static func cannotCreate(in folder: String, _ code: Int32) -> String {
        var info = stat()
        switch code {
        case ENOENT where stat(folder, &info) != 0:
            return "cannot write in \(folder): no such folder"
        case ENOENT where !folder.hasPrefix("/") && Paths.currentFolder() == nil:
            // A deleted current folder can still be stat-ed through ".".
            return "cannot write in \(folder): \(Paths.currentFolderGone)"
        case EPERM:
            return "cannot write in \(folder): not permitted (a sandbox, such as a package plugin's outside its package, or a folder marked immutable)"
        case ENOENT, EINVAL:
            return "cannot write in \(folder): its file system does not allow new files"
        case ENOTDIR:
            return "cannot write in \(folder): not a folder"
        default:
            return "cannot write in \(folder): \(FileErrors.posixReason(code))"
        }
    }
}
