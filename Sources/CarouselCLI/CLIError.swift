import Carousel

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

    init(description: String, status: Int32) {
        self.description = description
        self.status = status
    }

    /// `error` in the command line's words; `flags` are the options given as flags, and
    /// `configKeys` those the config file `config` gives. An option given neither way (a
    /// default, or a size taken from the first image) is named by its flag, as it is with
    /// no config file.
    init(_ error: CarouselError, flags: Set<OptionKey> = [], config: String? = nil, configKeys: Set<OptionKey> = []) {
        switch error {
        case let .invalidOption(key, reason):
            if let config, !flags.contains(key), configKeys.contains(key) {
                self.init(description: CarouselError.configValue(file: config, key: key, reason: reason).description, status: 64)
            } else {
                self.init(description: "\(key.flag): \(reason)", status: 64)
            }
        case .configValue:
            self.init(description: error.description, status: 64)
        default:
            self.init(description: error.description, status: 1)
        }
    }
}
