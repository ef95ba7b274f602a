import Carousel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command writes to its `-o`, for the paths it refuses there before anything is read.
enum OutputKind {
    /// `render`: one animation file, or standard output.
    case animation
    /// `frame` and `strip` (the command's name, for the message): one PNG, or standard output.
    case png(String)
    /// `frames`: a folder of PNGs and frames.json.
    case folder

    /// Extensions of the formats other than a still PNG, refused for ``png(_:)``: the animated
    /// ones `render` writes, and JPEG's.
    static let otherImageExtensions = Set(OutputFormat.allCases.map(\.rawValue)).union(["jpg", "jpeg"])

    /// Refuses, as a usage error, an `-o` this command cannot write as the user means it:
    /// - an empty path, which resolves to the working folder (`frames` would take it for its
    ///   output folder);
    /// - `-` for a folder (`frames`), and `-` for a file when standard output is a terminal,
    ///   which would show the image's bytes as text;
    /// - for a PNG, a name whose extension names another format (`frame -o shot.gif` would be
    ///   PNG bytes under a GIF's name).
    func check(_ path: String) throws(CLIError) {
        if path.isEmpty { throw .usage("-o: the path is empty") }
        switch self {
        case .folder:
            if path == "-" { throw .usage("-o -: frames writes a folder (PNGs and frames.json); give its path") }
        case .animation, .png:
            if path == "-" && isatty(STDOUT_FILENO) == 1 {
                throw .usage("-o -: standard output is a terminal; send it to a file or a pipe (> out, | command)")
            }
        }
        if case .png(let command) = self, let suffix = OutputFormat.fileExtension(path),
           OutputKind.otherImageExtensions.contains(suffix) {
            throw .usage("-o \(path): \(command) writes a PNG; name it .png (render writes GIF, WebP and APNG)")
        }
    }
}
