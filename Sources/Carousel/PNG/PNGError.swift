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

    /// One line: the file and the reason.
    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            return "\(file): \(reason)"
        case let .invalid(file, reason):
            return "\(file): \(reason)"
        case let .tooLarge(file, width, height, limit):
            return "\(file): image is \(width)x\(height) (\(width * height) pixels), over the limit of \(limit) pixels"
        case let .encodingFailed(file, reason):
            return "\(file): cannot encode PNG: \(reason)"
        }
    }
}
