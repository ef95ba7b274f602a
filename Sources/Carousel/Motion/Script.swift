#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One step of a timeline script, as written (spec section 3).
public enum ScriptStep: Equatable, Sendable {
    /// `hold DURATION`: stay where we are.
    case hold(MediaTime)
    /// `next [DURATION] [EASING]`: move forward one page; `nil` takes the option's default.
    case next(duration: MediaTime? = nil, easing: Easing? = nil)
    /// `prev [DURATION] [EASING]`: move back one page; `nil` takes the option's default.
    case prev(duration: MediaTime? = nil, easing: Easing? = nil)
    /// `goto PAGE [DURATION] [EASING]`: move to page PAGE (1-based) the shorter way round.
    case goto(page: Int, duration: MediaTime? = nil, easing: Easing? = nil)
    /// `autoplay [CYCLES]`: CYCLES x N times hold then next.
    case autoplay(cycles: Int)
    /// `drag DX [DURATION] [EASING]`: the finger goes down (if it is not down yet) and moves
    /// `dx` pixels (negative = left = towards the next page) over DURATION (default: the
    /// `duration` option), its path eased by EASING (default `linear`). While the finger
    /// is down, `hold` keeps it still.
    case drag(dx: Double, duration: MediaTime? = nil, easing: Easing? = nil)
    /// `release`: the finger lifts and the carousel settles on a page.
    case release
    /// `swipe next|prev [DURATION]`: a drag of a third of a page towards `direction`, linear,
    /// over DURATION (default 0.15 s), then `release`.
    case swipe(SwipeDirection, duration: MediaTime? = nil)

    /// The largest drag distance accepted, in pixels either way.
    public static let maximumDrag = 1_000_000.0

    /// Why this step's values lie outside what a script's text may give, or `nil`. A step
    /// made in Swift (`.autoplay(cycles: -3)`, `.drag(dx: .nan)`, `.hold(-1)`, an easing out
    /// of range) is checked as the parser checks text, when a timeline is built, so it is a
    /// ``CarouselError``, never a trap or a timeline running backwards.
    public var refusal: String? {
        func time(_ t: MediaTime?) -> String? { t?.durationRefusal.map { "DURATION: \($0)" } }
        func move(_ t: MediaTime?, _ e: Easing?) -> String? { time(t) ?? e?.refusal }
        switch self {
        case .hold(let t): return time(t)
        case let .next(t, e), let .prev(t, e): return move(t, e)
        case let .goto(page, t, e):
            return page >= 1 ? move(t, e) : ScriptStep.pageRefusal("\(page)")
        case .autoplay(let cycles):
            return cycles >= 1 ? nil : ScriptStep.cycleRefusal("\(cycles)")
        case let .drag(dx, t, e):
            return dx.isFinite && abs(dx) <= ScriptStep.maximumDrag ? move(t, e)
                : ScriptStep.dragRefusal("\(dx)")
        case .release: return nil
        case let .swipe(_, t): return time(t)
        }
    }

    /// The refusals the parser and ``refusal`` share, of a value `shown` as the error shows it.
    static func pageRefusal(_ shown: String) -> String { "\(shown) is not a page number; expected a whole number from 1" }
    static func cycleRefusal(_ shown: String) -> String { "\(shown) is not a cycle count; expected a whole number from 1" }
    static func dragRefusal(_ shown: String) -> String {
        "\(shown) is not a distance in pixels; expected a decimal number from -\(Int(maximumDrag)) to \(Int(maximumDrag))"
    }
}

/// Which way a swipe goes.
public enum SwipeDirection: String, Sendable, CaseIterable, Codable {
    /// Towards the next page (the finger moves left).
    case next
    /// Towards the previous page (the finger moves right).
    case prev
}

/// A parsed timeline script: its steps with where each was written.
public struct Script: Equatable, Sendable {
    /// A step and its place in the source, for error messages.
    public struct Entry: Equatable, Sendable {
        /// The step.
        public let step: ScriptStep
        /// 1-based step number.
        public let number: Int
        /// 1-based line of the source; 0 for an inline script, whose errors name the step only.
        public let line: Int
        /// The step as written.
        public let text: String
    }

    /// The steps in order.
    public let entries: [Entry]
    /// Where the script came from (`script`, a file name, or as the command line names it), for error messages.
    public let source: String
    /// The file the script was read from (``load(path:name:)``), as its path was given; nil
    /// for a script written inline or in Swift. The command line refuses an output that would
    /// overwrite it, as it refuses one over an input image or the config file; the library's
    /// write methods take the path they are given.
    public private(set) var file: String?

    /// Two scripts are equal when their steps are: `hold 1500ms` as text equals
    /// `.hold(1.5)` in Swift. Where each came from and how its steps were written, kept for
    /// error messages, does not count.
    public static func == (lhs: Script, rhs: Script) -> Bool {
        lhs.entries.map(\.step) == rhs.entries.map(\.step)
    }

    /// The largest script file read, in bytes.
    public static let maximumSize = 1 << 20

    /// The default timeline, `autoplay 1`; its errors name it `the default script`, since
    /// the user wrote no step.
    public static let autoplay = Script(steps: [.autoplay(cycles: 1)], source: "the default script")

    /// A script of `steps` written in Swift; errors name the step by its number.
    public init(steps: [ScriptStep], source: String = "script") {
        entries = steps.enumerated().map { Entry(step: $1, number: $0 + 1, line: 0, text: $1.description) }
        self.source = source
    }

    /// Parses `text`: steps separated by line breaks or `;`, `#` to the end of the line is a
    /// comment (a `;` after it included).
    ///
    /// A line break is any of `\n`, `\r\n` (Windows) and `\r` (classic Mac OS), so a script
    /// saved by any editor reads the same; a byte-order mark before the first step is skipped.
    /// `source` names the script in errors; `isFile` adds line numbers to them.
    public init(parsing text: String, source: String = "script", isFile: Bool = false) throws(CarouselError) {
        self.source = source
        var entries: [Entry] = []
        let text = text.first == "\u{FEFF}" ? text.dropFirst() : Substring(text)
        let lineBreaks: Set<Character> = ["\n", "\r\n", "\r"]
        for (lineIndex, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: lineBreaks.contains).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for piece in line.split(separator: ";", omittingEmptySubsequences: true) {
                let words = Script.words(piece)
                guard !words.isEmpty else { continue }
                let number = entries.count + 1
                let written = words.joined(separator: " ")
                let line = isFile ? lineIndex + 1 : 0
                do {
                    let step = try Script.step(words)
                    entries.append(Entry(step: step, number: number, line: line, text: written))
                } catch let reason {
                    throw .script(source: source, step: number, line: line, text: written, reason: reason.text)
                }
            }
        }
        guard !entries.isEmpty else { throw Script.noSteps(source) }
        self.entries = entries
    }

    /// The error of a script without steps, parsed or made in Swift (`Script(steps: [])`).
    static func noSteps(_ source: String) -> CarouselError {
        .script(source: source, step: 0, line: 0, text: "", reason: "the script has no steps; expected e.g. \"hold 2; next\"")
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
            guard let time = MediaTime(parsing: args[0]) else { throw durationError(args[0]) }
            return .hold(time)
        case "next", "prev":
            let (duration, easing) = try moveArguments(args, step: [name])
            return name == "next" ? .next(duration: duration, easing: easing) : .prev(duration: duration, easing: easing)
        case "goto":
            guard let first = args.first else { throw StepError(text: "goto needs a PAGE number (1-based)") }
            guard let (page, beyond) = Numerals.whole(first), page >= 1 else {
                throw StepError(text: ScriptStep.pageRefusal("\"\(first)\""))
            }
            // A whole number past `Int` is a page out of range, as an option's is, shown as written.
            guard !beyond else { throw StepError(text: "page \(first) does not exist; pages are numbered from 1 to the number of pictures") }
            let (duration, easing) = try moveArguments(Array(args.dropFirst()), step: ["goto", first])
            return .goto(page: page, duration: duration, easing: easing)
        case "autoplay":
            guard args.count <= 1 else { throw StepError(text: "autoplay takes at most one CYCLES count") }
            guard let text = args.first else { return .autoplay(cycles: 1) }
            guard let (cycles, beyond) = Numerals.whole(text), cycles >= 1 else {
                throw StepError(text: ScriptStep.cycleRefusal("\"\(text)\""))
            }
            guard !beyond else { throw StepError(text: "\(text) is more cycles than a timeline may have") }
            return .autoplay(cycles: cycles)
        case "drag":
            guard let first = args.first else {
                throw StepError(text: "drag needs a distance DX in pixels (negative = towards the next page), e.g. \"drag -120 0.3\"")
            }
            guard let dx = Numerals.decimal(first), abs(dx) <= ScriptStep.maximumDrag else {
                throw StepError(text: ScriptStep.dragRefusal("\"\(first)\"") + ", e.g. -120")
            }
            let (duration, easing) = try moveArguments(Array(args.dropFirst()), step: ["drag", first])
            return .drag(dx: dx, duration: duration, easing: easing)
        case "release":
            guard args.isEmpty else { throw StepError(text: "release takes no arguments") }
            return .release
        case "swipe":
            guard let first = args.first, let direction = SwipeDirection(rawValue: first.lowercased()) else {
                throw StepError(text: "swipe needs a direction, next or prev, e.g. \"swipe next\"")
            }
            guard args.count <= 2 else { throw StepError(text: "swipe takes a direction and at most one DURATION") }
            var duration: MediaTime?
            if args.count == 2 {
                guard let time = MediaTime(parsing: args[1]) else { throw durationError(args[1]) }
                duration = time
            }
            return .swipe(direction, duration: duration)
        default:
            throw StepError(text: "unknown step \"\(words[0])\"; expected hold, next, prev, goto, autoplay, drag, release or swipe")
        }
    }

    /// A step's DURATION refused in the words an option's is (``MediaTime/refusal(_:)``): out
    /// of range where it is written as a duration (`5000`, `-1`), else not a duration (`1e-3`).
    private static func durationError(_ text: String) -> StepError {
        StepError(text: "DURATION: \(MediaTime.refusal(text)), got \"\(text)\"")
    }

    /// The DURATION and EASING of a move or drag, `args`, after the step's name and its own
    /// argument (`step`: `["next"]`, `["goto", "2"]`, `["drag", "-40"]`), which its errors show.
    private static func moveArguments(_ args: [String], step: [String]) throws(StepError) -> (MediaTime?, Easing?) {
        var duration: MediaTime?
        var easing: Easing?
        for (k, arg) in args.enumerated() {
            if let time = MediaTime(parsing: arg), duration == nil, easing == nil {
                duration = time
            } else if let e = Easing(arg), easing == nil {
                easing = e
            } else if duration == nil && easing == nil, let first = arg.drop(while: { $0 == "-" }).first, first.isNumber || first == "." {
                // Numeric after any sign: meant as a DURATION.
                throw durationError(arg)
            } else if duration != nil, k == 1, easing == nil, ["s", "ms"].contains(arg.lowercased()) {
                // `next 1.5 s`: the unit apart from its number.
                throw StepError(text: "\"\(arg)\" is not an easing; a DURATION's unit goes right after its number, as in \(args[0])\(arg)")
            } else if let function = ["cubic-bezier", "spring"].first(where: { $0 == arg.lowercased() }),
                      k + 1 < args.count, args[k + 1].hasPrefix("(") {
                // `cubic-bezier (0,0,1,1)`: the values apart from the name.
                throw StepError(text: "\"\(arg)\" is not an easing; \(function) takes its values right after it, with no space, "
                                + "as in \(function)\(args[(k + 1)...].joined())")
            } else if duration == nil, easing != nil, let first = arg.drop(while: { $0 == "-" }).first, first.isNumber || first == "." {
                // `prev ease-in 0.2`: a DURATION after the EASING (numeric after any sign, as
                // above, whether or not it is a DURATION in range).
                throw StepError(text: "the DURATION goes before the EASING, as in \((step + [arg, args[k - 1]]).joined(separator: " "))")
            } else if MediaTime(parsing: arg) != nil || Easing(arg) != nil {
                // A second DURATION or EASING.
                let before = ["next": "", "prev": "", "goto": "a PAGE, then ", "drag": "a DX, then "][step[0]] ?? ""
                throw StepError(text: "\(step[0]) takes \(before)at most one DURATION and one EASING, in that order, "
                                + "got \(step.count - 1 + args.count) arguments")
            } else {
                throw StepError(text: "\"\(arg)\" is not an easing; expected [DURATION] [EASING] with EASING one of \(Easing.accepted)")
            }
        }
        return (duration, easing)
    }
}

extension Script {
    /// Reads and parses a script file; errors name the file as `name` (default: `path`, or
    /// "standard input" for `-`), and the line and step.
    ///
    /// `path` may be a regular file or a pipe: `-` reads standard input, and a FIFO or a
    /// shell's `<(command)` is read to its end.
    public static func load(path: String, name: String? = nil) throws(CarouselError) -> Script {
        let name = name ?? InputFile.displayName(path)
        let data: Data
        do {
            data = try InputFile.read(path, limit: Script.maximumSize, as: "script file")
        } catch {
            throw .input(name, "cannot read script file: \(error.reason)")
        }
        guard let text = String(utf8: data) else {
            throw .input(name, "cannot read script file: not UTF-8 text")
        }
        var script = try Script(parsing: text, source: name, isFile: true)
        script.file = path
        return script
    }
}

extension ScriptStep: CustomStringConvertible {
    /// The step as a script writes it, e.g. `next 0.4 ease`.
    public var description: String {
        func move(_ name: String, _ duration: MediaTime?, _ easing: Easing?) -> String {
            ([name] + [duration.map { Numerals.plain($0.seconds) }, easing.map(\.description)].compactMap { $0 }).joined(separator: " ")
        }
        switch self {
        case .hold(let time): return "hold \(Numerals.plain(time.seconds))"
        case let .next(duration, easing): return move("next", duration, easing)
        case let .prev(duration, easing): return move("prev", duration, easing)
        case let .goto(page, duration, easing): return move("goto \(page)", duration, easing)
        case .autoplay(let cycles): return "autoplay \(cycles)"
        case let .drag(dx, duration, easing): return move("drag \(Numerals.plain(dx))", duration, easing)
        case .release: return "release"
        case let .swipe(direction, duration): return move("swipe \(direction.rawValue)", duration, nil)
        }
    }
}
