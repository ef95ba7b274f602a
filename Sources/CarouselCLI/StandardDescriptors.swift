import Carousel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error as the process found them.
///
/// A descriptor the caller closed (`carousel … >&-`) is opened on `/dev/null` first thing,
/// so nothing the run opens takes its number: the first file or descriptor opened would
/// otherwise become "standard output", and `-o -` or a progress line would be written
/// into it. An output that names a closed one (`-o -`, `-o /dev/stdout`, a link to it) is
/// refused.
enum StandardDescriptors {
    // `nonisolated(unsafe)` is safe: written once, by `reopenClosed()` on the main thread
    // before any work starts, and only read afterwards.
    nonisolated(unsafe) private(set) static var closed: Set<Int32> = []

    /// Opens each closed standard descriptor on `/dev/null`; call once, first.
    static func reopenClosed() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number is `fd`: those below it are open by now.
            let opened = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened == fd {
                closed.insert(fd)
            } else if opened >= 0 {
                close(opened)
            }
        }
        // `--config -` and `--script-file -` then say so, rather than read `/dev/null`.
        if closed.contains(STDIN_FILENO) { InputFile.noteStandardInputClosed() }
    }

    /// Why `output` cannot be written, when it names a standard descriptor that was closed.
    static func refusal(of output: String) -> String? {
        let fd = output == "-" ? STDOUT_FILENO : AtomicOutput.ownDescriptor(of: output)
        guard let fd, closed.contains(fd) else { return nil }
        let name = fd == STDOUT_FILENO ? "standard output" : fd == STDERR_FILENO ? "standard error" : "standard input"
        return "-o \(output): \(name) is closed; give a file, or run with it open"
    }
}
