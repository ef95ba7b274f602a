#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything that can stop a render, each case naming the file, option, key or step and the reason.
///
/// The engine speaks of options by key (``OptionKey``), never by command-line flag:
/// `description` is the one line a library user sees, with the key's Swift name
/// (`fps: must be 1...50, got 60`). The command line and the config loader say the
/// same thing in their own words (`--fps: …`, `banner.json: key "fps": …`) and choose
/// the exit status themselves.
public enum CarouselError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No images were given or found.
    case noImages
    /// A folder given as input holds no `*.png`; payload: the folder.
    case emptyFolder(String)
    /// An input path is missing or unreadable; payload: path, reason.
    case input(String, String)
    /// An image could not be decoded.
    case image(PNGError)
    /// An option has a bad value, or values that do not fit together; payload: the option, reason.
    case invalidOption(key: OptionKey, reason: String)
    /// A config file is not a valid set of options (malformed JSON, unknown key, wrong type);
    /// payload: file, key (empty when the whole file is at fault), reason.
    case config(file: String, key: String, reason: String)
    /// A config file gives an option a value out of its range; payload: file, option, reason.
    case configValue(file: String, key: OptionKey, reason: String)
    /// A script step is malformed or cannot run; payload: source, step number, line, the step as written, reason.
    case script(source: String, step: Int, line: Int, text: String, reason: String)
    /// A time asked of the timeline lies outside it; payload: the time, and where the times
    /// that have a frame end (``Timeline/shownLength(fps:)``: the timeline's length, or the
    /// last frame's end where that is later).
    case timeOutsideTimeline(MediaTime, length: MediaTime)
    /// The output could not be written; payload: path, reason.
    case output(String, String)

    /// One line naming the file, option, key or step and the reason, without the `error: ` prefix.
    ///
    /// Control characters in the values it quotes are escaped, so it stays one line.
    public var description: String {
        text.escapingControlCharacters
    }

    private var text: String {
        switch self {
        case .noImages:
            return "no images given"
        case .emptyFolder(let path):
            return "\(Self.shown(path)): folder has no .png files"
        case let .input(path, reason):
            return "\(Self.shown(path)): \(reason)"
        case .image(let error):
            return error.description
        case let .invalidOption(key, reason):
            return "\(key.rawValue): \(reason)"
        case let .config(file, key, reason):
            return key.isEmpty ? "\(Self.shown(file)): \(reason)" : "\(Self.shown(file)): key \"\(key)\": \(reason)"
        case let .configValue(file, key, reason):
            return "\(Self.shown(file)): key \"\(key.rawValue)\": \(reason)"
        case let .script(source, step, line, text, reason):
            if step == 0 { return "\(Self.shown(source)): \(reason)" }
            let place = line == 0 ? "step \(step)" : "line \(line), step \(step)"
            return "\(Self.shown(source)): \(place) \"\(text)\": \(reason)"
        case let .timeOutsideTimeline(time, length):
            return "time \(time) is outside the timeline, whose frames are shown at times 0 ..< \(length.seconds) s"
        case let .output(path, reason):
            return "\(Self.shown(path)): \(reason)"
        }
    }

    /// A file's name as the line shows it: an empty name (an empty argument, `""` in a shell)
    /// as `"" (an empty name)`, which a bare empty string at the start of the line would hide,
    /// and a name with spaces or tabs at either end in quotes (`" s.txt"`), which option values
    /// drop but file names keep.
    private static func shown(_ path: String) -> String {
        path.isEmpty ? "\"\" (an empty name)" : path.trimmingSpaces != path ? "\"\(path)\"" : path
    }
}

/// `localizedDescription` (what an alert or a log shows of an `Error`) is the same one line as
/// ``CarouselError/description``, rather than Foundation's generic "The operation could not be
/// completed".
extension CarouselError: LocalizedError {
    public var errorDescription: String? { description }
}
