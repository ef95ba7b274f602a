import ArgumentParser
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

/// `carousel`: renders an iOS-style infinite carousel to a GIF, WebP or APNG, or PNG frames.
@main
struct CarouselCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carousel",
        abstract: "Render the infinite carousel of an iOS app (paging banner with page dots) to a GIF, WebP or APNG, or PNG frames.",
        version: Carousel.version,
        subcommands: [Render.self, Frame.self, Frames.self, Strip.self]
    )

    /// Parses, runs, and turns every failure into one line on stderr and an exit status:
    /// 1 for bad input, 64 for usage errors.
    static func main() {
        StandardDescriptors.reopenClosed()
        SignalCleanup.install()
        let raw = (1..<Int(CommandLine.argc)).map { k in
            CommandLine.unsafeArgv[k].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self),
                                                                   count: strlen($0))) } ?? []
        }
        let outcome = nonUTF8Refusal(raw).map { Outcome(status: 64, error: $0) }
            ?? execute(Array(CommandLine.arguments.dropFirst()))
        if outcome.status != 0 { SignalCleanup.settle() }
        if let output = outcome.output { print(output) }
        if let error = outcome.error { writeToStandardError("error: \(error)\n") }
        #if canImport(Glibc)
        Glibc.exit(outcome.status)
        #else
        Darwin.exit(outcome.status)
        #endif
    }

    /// The refusal of the first argument (as its bytes) that is not UTF-8 text, or nil. Swift
    /// reads such an argument with U+FFFD in place of its bytes, so a file named that way would
    /// not be found, and an output named that way would be written under another name (perhaps
    /// a file that is there). Its bytes outside UTF-8 are shown as `\xNN`, after the option
    /// whose value it is (`--fps: \xFF: ...`); a file's name, an image's or an option's, gets
    /// the hint to rename it.
    static func nonUTF8Refusal(_ arguments: [[UInt8]]) -> String? {
        guard let at = arguments.firstIndex(where: { String(utf8: $0) == nil }) else { return nil }
        let bytes = arguments[at]
        var option: String?, value = bytes[...], isFile = true
        switch role(of: at, in: arguments) {
        case .value(let name):
            (option, isFile) = (name, fileOptions.contains(name))
        case .afterTerminator:
            break
        case .word:
            // `--name=VALUE` or `-o=VALUE`, as the parser splits them; else an option's name, or an image.
            if bytes.first == UInt8(ascii: "-"), let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
               let name = String(utf8: bytes[..<equals]), valueOptions.contains(name) {
                (option, value, isFile) = (name, bytes[(equals + 1)...], fileOptions.contains(name))
            } else if bytes.first == UInt8(ascii: "-") {
                isFile = false
            }
        }
        let shown = shownBytes(Array(value)).escapingControlCharacters
        return (option.map { "\($0): " } ?? "") + shown + ": not UTF-8 text; carousel reads its arguments as UTF-8"
            + (isFile ? " (rename a file named so)" : "")
    }

    /// The options that take a value: the option table's, the output, the config file, `--at`,
    /// and the argument parser's own `--generate-completion-script`.
    static let valueOptions: Set<String> = Set(OptionKey.allCases.filter { !$0.valueName.isEmpty }.map(\.flag))
        .union(["-o", "--output", "--config", "--at", "--generate-completion-script"])

    /// Those whose value is the next argument only where it does not look like an option
    /// (the argument parser's default); the others take the next argument whatever it is.
    static let nextValueOptions: Set<String> = [OptionKey.align, .fit, .dots, .dotsSwitch, .touches, .format, .dither]
        .reduce(into: ["-o", "--output", "--config", "--generate-completion-script"]) { $0.insert($1.flag) }

    /// The options whose value names a file.
    static let fileOptions: Set<String> = ["-o", "--output", "--config", OptionKey.scriptFile.flag]

    /// What an argument is to the argument parser, from the arguments before it.
    enum Role: Equatable {
        /// The value of the option named.
        case value(of: String)
        /// After `--`: an image, whatever it looks like.
        case afterTerminator
        /// A word of its own: an option, an image or a subcommand.
        case word
    }

    /// The role of `arguments[at]`, walking the arguments before it as the parser does: an
    /// option that takes a value takes the next argument (``nextValueOptions`` only one that
    /// does not look like an option), and `--` ends the options.
    static func role(of at: Int, in arguments: [[UInt8]]) -> Role {
        func looksLikeOption(_ bytes: [UInt8]) -> Bool { bytes.count > 1 && bytes.first == UInt8(ascii: "-") }
        var k = 0
        while k < at {
            guard let text = String(utf8: arguments[k]) else { return .word }
            if text == "--" { return .afterTerminator }
            if valueOptions.contains(text), !(nextValueOptions.contains(text) && looksLikeOption(arguments[k + 1])) {
                if k + 1 == at { return .value(of: text) }
                k += 2
            } else {
                k += 1
            }
        }
        return .word
    }

    /// `bytes` as text, each byte outside UTF-8 as `\xNN`. The standard library's UTF-8 parser
    /// says which bytes make a character and which none.
    static func shownBytes(_ bytes: [UInt8]) -> String {
        var shown = ""
        var at = 0
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                shown.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                at += encoded.count
            case .error(let length):
                for byte in bytes[at..<(at + length)] { shown += "\\x" + String(byte, radix: 16, uppercase: true) }
                at += length
            case .emptyInput:
                return shown
            }
        }
    }

    /// What a run ends with: exit status, text for stdout (help) and the error line, if any.
    struct Outcome: Equatable {
        var status: Int32
        var output: String?
        var error: String?
    }

    /// The first line of the argument parser's message for `error`. A value with a control
    /// character would split it, so the arguments are parsed again with such characters
    /// escaped, and that message is used.
    static func firstLine(of error: any Error, arguments: [String]) -> String {
        var message = self.message(for: error)
        let escaped = arguments.map(\.escapingControlCharacters)
        if escaped != arguments {
            do {
                _ = try parseAsRoot(escaped)
            } catch {
                message = self.message(for: error)
            }
        }
        return (message.split(separator: "\n").first.map(String.init) ?? "\(error)").escapingControlCharacters
    }

    /// Why `word`, the first argument, names no subcommand, or `nil` when it names one
    /// (or `help`): one line with the nearest name, or a reminder that the subcommand comes
    /// before the images. The argument parser would blame the first option after it
    /// (`Unknown option '-o'`).
    static func subcommandRefusal(_ word: String) -> String? {
        let names = configuration.subcommands.map { $0._commandName }
        guard !names.contains(word), word != "help" else { return nil }
        let shown = "unknown subcommand \"\(word.escapingControlCharacters)\""
        if word.contains(".") || word.contains("/") {
            return "\(shown); the subcommand comes first, e.g. carousel render \(word.escapingControlCharacters) -o banner.gif"
        }
        if let nearest = names.map({ (name: $0, distance: editDistance($0, word.lowercased())) }).min(by: { $0.distance < $1.distance }),
           nearest.distance <= 2 {
            return "\(shown); did you mean \"\(nearest.name)\"?"
        }
        return "\(shown); expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"
    }

    /// Why a file option (`-o`, `--output`, `--config`) followed by a name that starts with a
    /// dash (`-o -dash.gif`) has no value, or nil: the parser reads such a name as options
    /// (an unknown option, or with an `h` in it the help), not as the file's name.
    static func dashNameRefusal(_ arguments: [String]) -> String? {
        let bytes = arguments.map { Array($0.utf8) }
        for k in arguments.indices.dropFirst() where ["-o", "--output", "--config"].contains(arguments[k - 1]) {
            let name = arguments[k]
            guard name.count > 1, name.hasPrefix("-"), !name.hasPrefix("--"), name != "-o", name != "-h",
                  role(of: k - 1, in: bytes) == .word else { continue }
            let option = arguments[k - 1], shown = name.escapingControlCharacters
            return "\(option): \(shown) starts with -, as an option does; write \(option)=\(shown) or \(option) ./\(shown)"
        }
        return nil
    }

    /// The first argument the argument parser would read as single-letter options, `-h` among
    /// them, without being `-h` itself: `render -dash.png -o x.gif` (an image named with a
    /// leading dash) printed the help and exited 0, with nothing rendered and nothing said,
    /// where `-xyz.png` is an unknown option. Only a word of its own counts: not an option's
    /// value, nor anything after `--`.
    static func helpCluster(_ arguments: [String]) -> String? {
        let bytes = arguments.map { Array($0.utf8) }
        for (k, argument) in arguments.enumerated()
        where argument.count > 2 && argument.hasPrefix("-") && !argument.hasPrefix("--") && role(of: k, in: bytes) == .word {
            if argument.dropFirst().prefix(while: { $0 != "=" }).contains("h") { return argument }
        }
        return nil
    }

    /// A flag given an empty value (`--quiet=`, `--no-lossless=`), or nil. The argument parser
    /// refuses `--quiet=false` and `--quiet=1` but takes `--quiet=` for the flag itself, so a
    /// value cut short in a script (`--quiet=$QUIET` with the variable unset) turned the flag on
    /// without a word. Only a word of its own counts, as in ``helpCluster(_:)``.
    static func emptyFlagValue(_ arguments: [String]) -> String? {
        // The on-off flags are the keys that take no value (`--quiet`, `--lossless`), each with its `--no-` form.
        let flags = OptionKey.allCases.filter { $0.valueName.isEmpty }.flatMap { [$0.flag, "--no-" + $0.flag.dropFirst(2)] }
        let bytes = arguments.map { Array($0.utf8) }
        for (k, argument) in arguments.enumerated()
        where argument.hasSuffix("=") && flags.contains(String(argument.dropLast())) && role(of: k, in: bytes) == .word {
            return "the option '\(argument.dropLast())' does not take any value, but an empty one was given"
        }
        return nil
    }

    /// Levenshtein distance between `a` and `b`, by characters.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                (diagonal, row[j + 1]) = (row[j + 1], min(row[j + 1] + 1, row[j] + 1, diagonal + (x == y ? 0 : 1)))
            }
        }
        return row[b.count]
    }

    /// The argument parser's line in the words of carousel's own: a sentence's first word in
    /// lowercase, a suggestion after a semicolon (`unknown option '--bogus'; did you mean
    /// '--dots'?`, not `Unknown option '--bogus'. Did you mean '--dots'?`), and no full stop
    /// at the end (`... but 'false' was specified`), as carousel's own lines have none.
    static func parserLine(_ line: String) -> String {
        let line = line.hasSuffix(".") && !line.hasSuffix("..") ? String(line.dropLast()) : line
        return line.replacing(". Did you mean ", with: "; did you mean ").sentenceInLowercase
    }

    /// Runs `arguments` in process and reports the outcome instead of exiting.
    static func execute(_ arguments: [String]) -> Outcome {
        // The subcommand named first, or after `help` (`carousel help rendr`).
        let named = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        if let named, !named.hasPrefix("-") || named == "-", let refusal = subcommandRefusal(named) {
            return Outcome(status: 64, error: refusal)
        }
        if let refusal = dashNameRefusal(arguments) { return Outcome(status: 64, error: refusal) }
        if let cluster = helpCluster(arguments) {
            return Outcome(status: 64, error: "unknown option '\(cluster.escapingControlCharacters)'")
        }
        if let refusal = emptyFlagValue(arguments) { return Outcome(status: 64, error: refusal) }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return Outcome(status: 0)
        } catch let error as CLIError {
            return Outcome(status: error.status, error: error.description.escapingControlCharacters)
        } catch let error as CarouselError {
            let line = CLIError(error)
            return Outcome(status: line.status, error: line.description)
        } catch {
            let code = exitCode(for: error)
            if code == .success { return Outcome(status: 0, output: fullMessage(for: error)) }
            var line = firstLine(of: error, arguments: arguments)
            if line.lowercased().hasPrefix("error: ") { line = String(line.dropFirst(7)) }
            return Outcome(status: code == .validationFailure ? 64 : code.rawValue, error: parserLine(line))
        }
    }
}
