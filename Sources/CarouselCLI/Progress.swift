import Carousel
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

/// Progress on stderr while frames are made (only when stderr is a terminal that takes
/// escape sequences), and a summary line, after any notes.
final class Progress {
    private let quiet: Bool
    private let start: Date
    private let notes: [String]
    private let live: Bool
    private var lastDraw = Date.distantPast

    /// `notes` are lines printed before the summary (none when quiet): what the run left out.
    init(quiet: Bool, start: Date, notes: [String] = []) {
        self.quiet = quiet
        self.start = start
        self.notes = notes
        live = !quiet && isatty(STDERR_FILENO) == 1 && Self.terminalTakesEscapes
    }

    /// Redraws "frame N/M" at most ten times a second, and at the last frame.
    func frame(_ done: Int, of total: Int) {
        guard live else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = decimal(now.timeIntervalSince(start), places: 1)
        writeToStandardError("\rframe \(done)/\(total), \(elapsed) s\u{1B}[K")
    }

    /// Ends the progress line and prints the notes and the summary, unless quiet, their control
    /// characters escaped as an error's are (an output named with a newline or an escape
    /// sequence stays one line and cannot drive the terminal). The notes come only with the
    /// summary, so a run that fails prints its one error line and nothing else.
    func finish(_ summary: String) {
        guard !quiet else { return }
        if live { writeToStandardError("\r\u{1B}[K") }
        for note in notes { writeToStandardError("\(note.escapingControlCharacters)\n") }
        let elapsed = decimal(Date().timeIntervalSince(start), places: 2)
        writeToStandardError("\(summary.escapingControlCharacters) (in \(elapsed) s)\n")
    }

    /// Whether the terminal is one that moves the cursor and clears a line on request: not
    /// `TERM=dumb` (Emacs' shell, some CI systems' terminals) or no `TERM` at all, where the
    /// progress line's carriage returns and `ESC [K` were shown as they are.
    private static var terminalTakesEscapes: Bool {
        guard let term = getenv("TERM") else { return false }
        let name = String(cString: term)
        return !name.isEmpty && name != "dumb"
    }

    /// How long `carousel`'s frames play (``Carousel/playLength``), as seconds with two decimals.
    static func length(_ carousel: Carousel) -> String {
        decimal(carousel.playLength, places: 2)
    }
}

/// `value` with `places` decimals, rounded as C's `printf("%.*f")` rounds it.
func decimal(_ value: Double, places: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 352)
    _ = withVaList([Int32(places), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Writes `text` to stderr, unbuffered; a failed write is dropped (there is nowhere left to say so).
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { try? FileDescriptorSink(fd: STDERR_FILENO, name: "stderr").write(UnsafeRawBufferPointer($0)) }
}
