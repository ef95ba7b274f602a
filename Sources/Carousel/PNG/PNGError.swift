/// Why a PNG could not be read or written.
///
/// Every case names the file (or `"<memory>"` for in-memory data) so the
/// command line can print it as one line: `error: poster3.png: IDAT: CRC error`.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read; payload: file name, the system's reason.
    case unreadable(file: String, reason: String)
    /// libpng rejected the data; payload: file name, libpng's message (e.g. `IDAT: CRC error`).
    case invalid(file: String, reason: String)
    /// The header declares more pixels than the cap; payload: file name, width, height, cap in pixels.
    case tooLarge(file: String, width: Int, height: Int, limit: Int)
    /// The image could not be encoded; payload: destination name, the reason (libpng's
    /// message, or `PNGWriter`'s).
    case encodingFailed(file: String, reason: String)

    /// The reason alone, without the file's name: what ``description`` gives after `FILE: `.
    public var reason: String {
        switch self {
        case let .unreadable(_, reason), let .invalid(_, reason): return reason
        case let .tooLarge(_, width, height, limit):
            return "image is \(width)x\(height) (\(width * height) pixels), over the limit of \(limit) pixels"
        case let .encodingFailed(_, reason): return "cannot encode PNG: \(reason)"
        }
    }

    /// One line: the file and the reason.
    public var description: String {
        switch self {
        case let .unreadable(file, _), let .invalid(file, _), let .tooLarge(file, _, _, _), let .encodingFailed(file, _):
            return "\(file): \(reason)"
        }
    }
}
