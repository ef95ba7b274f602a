import Carousel
import Foundation

/// Progress on stderr while frames are made (only when stderr is a terminal), and a summary line.
final class Progress {
    private let quiet: Bool
    private let start: Date
    private let live: Bool
    private var lastDraw = Date.distantPast

    init(quiet: Bool, start: Date) {
        self.quiet = quiet
        self.start = start
        live = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Redraws "frame N/M" at most ten times a second, and at the last frame.
    func frame(_ done: Int, of total: Int) {
        guard live else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = String(format: "%.1f", now.timeIntervalSince(start))
        FileHandle.standardError.write(Data("\rframe \(done)/\(total), \(elapsed) s\u{1B}[K".utf8))
    }

    /// Ends the progress line and prints the summary, unless quiet.
    func finish(_ summary: String) {
        guard !quiet else { return }
        if live { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let elapsed = String(format: "%.2f", Date().timeIntervalSince(start))
        FileHandle.standardError.write(Data("\(summary) (in \(elapsed) s)\n".utf8))
    }

    /// A time as seconds with two decimals.
    static func seconds(_ time: MediaTime) -> String {
        String(format: "%.2f", time.seconds)
    }
}
