/// Everything that can stop a render, each case naming the file, option, key or step and the reason.
///
/// `description` is the one line the command line prints after `error: `.
public enum CarouselError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No images were given or found.
    case noImages
    /// A folder given as input holds no `*.png`; payload: the folder.
    case emptyFolder(String)
    /// An input path is missing or unreadable; payload: path, reason.
    case input(String, String)
    /// An image could not be decoded.
    case image(PNGError)
    /// An option has a bad value; payload: the option (e.g. `--fps`), reason.
    case option(String, String)
    /// A config file key has a bad value or is unknown; payload: file, key, reason.
    case config(file: String, key: String, reason: String)
    /// A script step is malformed; payload: source, step number, line, the step as written, reason.
    case script(source: String, step: Int, line: Int, text: String, reason: String)
    /// The output could not be written; payload: path, reason.
    case output(String, String)

    /// Whether this is a usage error (exit status 64) rather than bad input (exit status 1).
    public var isUsage: Bool {
        if case .option = self { return true }
        return false
    }

    /// One line naming the file, option, key or step and the reason, without the `error: ` prefix.
    public var description: String {
        switch self {
        case .noImages:
            return "no images given"
        case .emptyFolder(let path):
            return "\(path): folder has no .png files"
        case let .input(path, reason):
            return "\(path): \(reason)"
        case .image(let error):
            return error.description
        case let .option(name, reason):
            return "\(name): \(reason)"
        case let .config(file, key, reason):
            return "\(file): key \"\(key)\": \(reason)"
        case let .script(source, step, line, text, reason):
            if step == 0 { return "\(source): \(reason)" }
            let place = source == "--script" ? "step \(step)" : "line \(line), step \(step)"
            return "\(source): \(place) \"\(text)\": \(reason)"
        case let .output(path, reason):
            return "\(path): \(reason)"
        }
    }
}
