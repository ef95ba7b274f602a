import Carousel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure as the command line reports it: one line and an exit status.
///
/// The library names options by key; here they become flags (`--fps`) when given as
/// flags, or `FILE: key "fps"` when they came from the config file. Out-of-range
/// values and options that do not fit together are usage errors (exit 64); bad
/// input — images, scripts, config files, outputs — is exit 1.
struct CLIError: Error, Equatable, CustomStringConvertible {
    /// The line printed after `error: `.
    let description: String
    /// The exit status.
    let status: Int32

    /// A usage error.
    static func usage(_ line: String) -> CLIError { CLIError(description: line, status: 64) }

    /// Refuses, as a usage error, an `-o` that `command` cannot write as the user means it:
    /// - an empty path, which resolves to the working folder (`frames` would take it for its
    ///   output folder);
    /// - `-` for `frames`, which writes a folder (`render`, `frame` and `strip` write one file,
    ///   and `-` is standard output for them);
    /// - for `frame` and `strip`, which write a PNG, a name whose extension names another
    ///   format (`frame -o shot.gif` would be PNG bytes under a GIF's name);
    /// - `-` when standard output is a terminal, which would show the image's bytes as text.
    static func checkOutput(_ path: String, for command: String) throws(CLIError) {
        if path.isEmpty { throw .usage("-o: the path is empty") }
        if path == "-" && command != "frames" && isatty(STDOUT_FILENO) == 1 {
            throw .usage("-o -: standard output is a terminal; send it to a file or a pipe (> out, | command)")
        }
        switch command {
        case "frames" where path == "-":
            throw .usage("-o -: frames writes a folder (PNGs and frames.json); give its path")
        case "frame", "strip":
            let name = path.split(separator: "/").last ?? ""
            let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
            let suffix = dot.map { name[name.index(after: $0)...].lowercased() } ?? ""
            if CLIError.otherImageSuffixes.contains(suffix) {
                throw .usage("-o \(path): \(command) writes a PNG; name it .png (render writes GIF, WebP and APNG)")
            }
        default:
            break
        }
    }

    /// Extensions of image formats other than a still PNG, refused for `frame` and `strip`.
    static let otherImageSuffixes: Set<String> = ["gif", "webp", "apng", "jpg", "jpeg"]

    init(description: String, status: Int32) {
        self.description = description
        self.status = status
    }

    /// `error` in the command line's words; `flags` are the options given as flags.
    init(_ error: CarouselError, flags: Set<OptionKey> = [], config: String? = nil) {
        switch error {
        case let .invalidOption(key, reason):
            if let config, !flags.contains(key) {
                self.init(description: CarouselError.configValue(file: config, key: key, reason: reason).description, status: 64)
            } else {
                self.init(description: "\(key.flag): \(reason)", status: 64)
            }
        case .configValue:
            self.init(description: error.description, status: 64)
        case let .timeOutsideTimeline(_, length):
            self.init(description: "--at: must be in 0 ..< \(length.seconds) seconds (the timeline's length)", status: 64)
        default:
            self.init(description: error.description, status: 1)
        }
    }
}
