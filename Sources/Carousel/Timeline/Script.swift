import Foundation

/// One step of a timeline script, as written (spec section 3).
public enum ScriptStep: Equatable, Sendable {
    /// `hold DURATION`: stay where we are (microseconds).
    case hold(Int)
    /// `next [DURATION] [EASING]`: move forward one page.
    case next(duration: Int?, easing: Easing?)
    /// `prev [DURATION] [EASING]`: move back one page.
    case prev(duration: Int?, easing: Easing?)
    /// `goto PAGE [DURATION] [EASING]`: move to page PAGE (1-based) the shorter way round.
    case goto(page: Int, duration: Int?, easing: Easing?)
    /// `autoplay [CYCLES]`: CYCLES x N times hold then next.
    case autoplay(cycles: Int)
}

/// A parsed timeline script: its steps with where each was written.
public struct Script: Equatable, Sendable {
    /// A step and its place in the source, for error messages.
    public struct Entry: Equatable, Sendable {
        /// The step.
        public let step: ScriptStep
        /// 1-based step number.
        public let number: Int
        /// 1-based line of the source.
        public let line: Int
        /// The step as written.
        public let text: String
    }

    /// The steps in order.
    public let entries: [Entry]
    /// Where the script came from (`--script` or a file name), for error messages.
    public let source: String

    /// The default timeline, `autoplay 1`.
    public static let autoplay = Script(entries: [Entry(step: .autoplay(cycles: 1), number: 1, line: 1, text: "autoplay")],
                                        source: "--script")

    /// Parses `text`: steps separated by newlines or `;`, `#` to the end of the line is a comment.
    public init(parsing text: String, source: String = "--script") throws(CarouselError) {
        self.source = source
        var entries: [Entry] = []
        for (lineIndex, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for piece in line.split(separator: ";", omittingEmptySubsequences: true) {
                let words = Script.words(piece)
                guard !words.isEmpty else { continue }
                let number = entries.count + 1
                let written = words.joined(separator: " ")
                do {
                    let step = try Script.step(words)
                    entries.append(Entry(step: step, number: number, line: lineIndex + 1, text: written))
                } catch let reason {
                    throw .script(source: source, step: number, line: lineIndex + 1, text: written, reason: reason.text)
                }
            }
        }
        guard !entries.isEmpty else {
            throw .script(source: source, step: 0, line: 0, text: "", reason: "the script has no steps; expected e.g. \"hold 2; next\"")
        }
        self.entries = entries
    }

    init(entries: [Entry], source: String) {
        self.entries = entries
        self.source = source
    }

    /// A reason a step is malformed.
    struct StepError: Error {
        let text: String
    }

    /// Splits on white space, keeping `(...)` groups whole so `cubic-bezier(0, 0, 1, 1)` is one word.
    static func words(_ text: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for c in text {
            if c == "(" { depth += 1 }
            if c == ")" { depth = max(0, depth - 1) }
            if c.isWhitespace && depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else if !(c.isWhitespace && depth > 0) {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func step(_ words: [String]) throws(StepError) -> ScriptStep {
        let name = words[0].lowercased()
        let args = Array(words.dropFirst())
        switch name {
        case "hold":
            guard args.count == 1 else {
                throw StepError(text: "hold takes one DURATION (e.g. 2, 1.5s or 300ms), got \(args.count) arguments")
            }
            guard let us = TimeValue.microseconds(args[0]) else {
                throw StepError(text: "\"\(args[0])\" is not a duration; expected e.g. 2, 1.5s or 300ms")
            }
            return .hold(us)
        case "next", "prev":
            let (duration, easing) = try moveArguments(args, step: name)
            return name == "next" ? .next(duration: duration, easing: easing) : .prev(duration: duration, easing: easing)
        case "goto":
            guard let first = args.first else { throw StepError(text: "goto needs a PAGE number (1-based)") }
            guard let page = Int(first), page >= 1 else {
                throw StepError(text: "\"\(first)\" is not a page number; expected a whole number from 1")
            }
            let (duration, easing) = try moveArguments(Array(args.dropFirst()), step: "goto")
            return .goto(page: page, duration: duration, easing: easing)
        case "autoplay":
            guard args.count <= 1 else { throw StepError(text: "autoplay takes at most one CYCLES count") }
            guard let text = args.first else { return .autoplay(cycles: 1) }
            guard let cycles = Int(text), cycles >= 1 else {
                throw StepError(text: "\"\(text)\" is not a cycle count; expected a whole number from 1")
            }
            return .autoplay(cycles: cycles)
        default:
            throw StepError(text: "unknown step \"\(words[0])\"; expected hold, next, prev, goto or autoplay")
        }
    }

    private static func moveArguments(_ args: [String], step: String) throws(StepError) -> (Int?, Easing?) {
        var duration: Int?
        var easing: Easing?
        for arg in args {
            if let us = TimeValue.microseconds(arg), duration == nil, easing == nil {
                duration = us
            } else if let e = Easing(arg), easing == nil {
                easing = e
            } else if duration == nil && easing == nil && (arg.first?.isNumber ?? false) {
                throw StepError(text: "\"\(arg)\" is not a duration; expected e.g. 0.3, 0.3s or 300ms")
            } else {
                throw StepError(text: "\"\(arg)\" is not an easing; expected [DURATION] [EASING] with EASING one of \(Easing.accepted)")
            }
        }
        return (duration, easing)
    }
}

extension Script {
    /// Reads and parses a script file; errors name the file (and the line and step).
    public static func load(path: String) throws(CarouselError) -> Script {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .input(path, "cannot read script file: \(FileErrors.reason(error, path: path))")
        }
        return try Script(parsing: text, source: path)
    }
}
