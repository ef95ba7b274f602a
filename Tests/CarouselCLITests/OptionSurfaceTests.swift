@testable import CarouselCLI
import Carousel
import Foundation
import Testing

/// The command line says the library's option errors in its own words.
struct OptionSurfaceTests {
    /// Every key of the option table has a flag with the table's help, and a JSON key.
    @Test func tableDrivesTheFlags() throws {
        let outcome = CarouselCommand.execute(["render", "--help"])
        let help = (outcome.output ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for key in OptionKey.allCases {
            #expect(help.contains(key.flag), "help lists \(key.flag)")
            let words = key.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains(words), "help of \(key.flag) is the table's")
        }
        // Every flag given reaches the table by its key.
        var arguments = ["render"]
        for key in OptionKey.allCases where ![.quiet, .scriptFile, .lossless].contains(key) {
            arguments += [key.flag, Self.flagSample[key] ?? "?"]
        }
        arguments += ["--quiet", "--lossless"]
        let render = try #require(try CarouselCommand.parseAsRoot(arguments) as? Render)
        #expect(Set(render.arguments.given.map(\.0)) == Set(OptionKey.allCases).subtracting([.scriptFile]))
        _ = try render.arguments.options()
    }

    /// The options the non-UTF-8 check knows to take a value are those each subcommand's help
    /// shows with one, and those it knows to take only a value that does not look like an
    /// option are those the parser refuses `--lossless` as the value of.
    @Test func valueOptionsAreTheParsers() throws {
        var shown: Set<String> = [], tried = 0
        for command in ["render", "frame", "frames", "strip"] {
            let help = CarouselCommand.execute([command, "--help"]).output ?? ""
            for line in help.split(separator: "\n") {
                let words = line.split(separator: " ")
                for (k, word) in words.enumerated() where word.hasPrefix("-") && k + 1 < words.count && words[k + 1].hasPrefix("<") {
                    shown.insert(String(word.hasSuffix(",") ? word.dropLast() : word))
                }
                if let short = words.first, short == "-o,", words.count > 2, words[2].hasPrefix("<") { shown.insert("-o") }
            }
            // The options the subcommand needs, less the one tried.
            let needed: [String: [[String]]] = ["frame": [["--at", "1"], ["-o", "x.png"]], "frames": [["-o", "d"]], "strip": [["-o", "s.png"]]]
            // The table's options come from one option group (`CarouselArguments`), tried in
            // `render`; each subcommand's own (`-o`, `--output`, `--at`) in each.
            let tries = { (name: String) in command == "render" || ["-o", "--output", "--at"].contains(name) }
            for name in CarouselCommand.valueOptions
            where tries(name) && (help.contains(name + " <") || (name == "-o" && help.contains("-o, --output <"))) {
                let others = (needed[command] ?? []).filter { pair in pair[0] != name && !(pair[0] == "-o" && name == "--output") }
                let arguments = [command] + others.flatMap { $0 } + [name, "--lossless"]
                let takes = (try? CarouselCommand.parseAsRoot(arguments)) != nil
                #expect(takes == !CarouselCommand.nextValueOptions.contains(name), "\(arguments)")
                tried += 1
            }
        }
        #expect(shown == CarouselCommand.valueOptions.subtracting(["--generate-completion-script"]))
        // Every value option of the table, the output and the config file in `render` (all but
        // `--at` and `--generate-completion-script`); `-o` and `--output` in the other three, and
        // `--at` in `frame`.
        #expect(tried == CarouselCommand.valueOptions.count - 2 + 3 * 2 + 1, "\(tried) tried")
    }

    static let flagSample: [OptionKey: String] = [
        .size: "375x211", .itemWidth: "343", .spacing: "8", .align: "start", .clones: "3", .fit: "fit",
        .background: "#101014", .script: "hold 1; next", .hold: "1.5", .duration: "300ms", .easing: "ease-out",
        .fps: "30", .dots: "footer", .dotsSwitch: "end", .dotSize: "6", .dotGap: "4", .dotColor: "#11223344",
        .dotCurrentColor: "#FF0000", .loop: "3", .colors: "64", .dither: "ordered", .touches: "none",
        .touchSize: "30", .touchColor: "#FF000080", .format: "webp", .quality: "90",
    ]

    /// A config value out of range names the file and the key; the same value as a flag names the flag.
    @Test func configErrorsNameFileAndKey() throws {
        let w = try Workspace()
        defer { w.remove() }
        try Data("{\"fps\": 60}".utf8).write(to: w.url.appendingPathComponent("banner.json"))
        try Data("{\"clones\": 0, \"itemWidth\": 30}".utf8).write(to: w.url.appendingPathComponent("peek.json"))
        let config = w.path("banner.json")
        let fromFile = CarouselCommand.execute(["render", "--config", config, "-o", w.path("x.gif"), "--quiet"])
        #expect(fromFile.status == 64)
        #expect(fromFile.error == "\(config): key \"fps\": must be 1...50, got 60")
        #expect(fromFile.error?.contains("--fps") == false)
        try Data("{\"fps\": 10}".utf8).write(to: w.url.appendingPathComponent("ok.json"))
        let fromFlag = CarouselCommand.execute(["render", "--config", w.path("ok.json"), "--fps", "70", "-o", w.path("x.gif"), "--quiet"])
        #expect(fromFlag.error == "--fps: must be 1...50, got 70")
        // A number past every range is still the key's usage error, shown as the file writes it.
        try Data("{\"fps\": 1e400}".utf8).write(to: w.url.appendingPathComponent("huge.json"))
        let huge = CarouselCommand.execute(["render", "--config", w.path("huge.json"), "-o", w.path("x.gif"), "--quiet"])
        #expect(huge.status == 64)
        #expect(huge.error == "\(w.path("huge.json")): key \"fps\": must be 1...50, got 1e400")
        // A check across options (too few clones for the layout) names where the value came from.
        let peek = CarouselCommand.execute(["render", w.path("imgs"), "--config", w.path("peek.json"), "-o", w.path("x.gif"), "--quiet"])
        #expect(peek.status == 64)
        #expect(peek.error?.hasPrefix("\(w.path("peek.json")): key \"clones\": 0 per side is too few") == true)
        #expect(!w.exists("x.gif"))
    }
}
