import ArgumentParser
import Carousel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options every subcommand shares (spec section 5), as typed: each `nil` until given.
///
/// Names, help and parsing come from the library's ``OptionKey`` table: every value
/// goes through `CarouselOptions.set(_:to:context:)`, exactly as a config file's do.
/// Enumerated options are typed here (`Choice`) only so `--help` lists their values.
struct CarouselArguments: ParsableArguments {
    @Argument(help: "PNG files or folders (a folder gives its *.png in natural order). Default: the sample images.")
    var images: [String] = []

    @Option(parsing: .unconditional, help: help(.size)) var size: String?
    @Option(name: .customLong("item-width"), parsing: .unconditional, help: help(.itemWidth)) var itemWidth: String?
    @Option(parsing: .unconditional, help: help(.spacing)) var spacing: String?
    @Option(help: help(.align)) var align: Choice<ItemAlignment>?
    @Option(parsing: .unconditional, help: help(.clones)) var clones: String?
    @Option(help: help(.fit)) var fit: Choice<FitMode>?
    @Option(parsing: .unconditional, help: help(.background)) var background: String?
    @Option(parsing: .unconditional, help: help(.script)) var script: String?
    @Option(name: .customLong("script-file"), parsing: .unconditional, help: help(.scriptFile)) var scriptFile: String?
    @Option(parsing: .unconditional, help: help(.hold)) var hold: String?
    @Option(parsing: .unconditional, help: help(.duration)) var duration: String?
    @Option(parsing: .unconditional, help: help(.easing)) var easing: String?
    @Option(parsing: .unconditional, help: help(.fps)) var fps: String?
    @Option(help: help(.dots)) var dots: Choice<DotsPlacement>?
    @Option(name: .customLong("dots-switch"), help: help(.dotsSwitch)) var dotsSwitch: Choice<DotsSwitch>?
    @Option(name: .customLong("dot-size"), parsing: .unconditional, help: help(.dotSize)) var dotSize: String?
    @Option(name: .customLong("dot-gap"), parsing: .unconditional, help: help(.dotGap)) var dotGap: String?
    @Option(name: .customLong("dot-color"), parsing: .unconditional, help: help(.dotColor)) var dotColor: String?
    @Option(name: .customLong("dot-current-color"), parsing: .unconditional, help: help(.dotCurrentColor)) var dotCurrentColor: String?
    @Option(help: help(.touches)) var touches: Choice<TouchesMode>?
    @Option(name: .customLong("touch-size"), parsing: .unconditional, help: help(.touchSize)) var touchSize: String?
    @Option(name: .customLong("touch-color"), parsing: .unconditional, help: help(.touchColor)) var touchColor: String?
    @Option(help: help(.format)) var format: Choice<OutputFormat>?
    @Option(parsing: .unconditional, help: help(.quality)) var quality: String?
    @Flag(inversion: .prefixedNo, help: help(.lossless)) var lossless: Bool?
    @Option(parsing: .unconditional, help: help(.loop)) var loop: String?
    @Option(parsing: .unconditional, help: help(.colors)) var colors: String?
    @Option(help: help(.dither)) var dither: Choice<Dither>?

    @Option(help: ArgumentHelp("Read options from a JSON file (- for standard input): every option as a camelCase key (e.g. \"itemWidth\": 343). Flags override it.", valueName: "FILE.json"))
    var config: String?

    // `--no-quiet` and `--no-lossless` undo a config file's `true`, as any flag overrides its key.
    @Flag(inversion: .prefixedNo, help: help(.quiet)) var quiet: Bool?

    /// The help of `key` from the option table.
    static func help(_ key: OptionKey) -> ArgumentHelp {
        ArgumentHelp(key.help, valueName: key.valueName.isEmpty ? nil : key.valueName)
    }

    /// Every option given as a flag, by key, as typed.
    var given: [(OptionKey, String)] {
        let values: [(OptionKey, String?)] = [
            (.size, size), (.itemWidth, itemWidth), (.spacing, spacing), (.align, align?.text),
            (.clones, clones), (.fit, fit?.text), (.background, background), (.script, script),
            (.scriptFile, scriptFile), (.hold, hold), (.duration, duration), (.easing, easing), (.fps, fps),
            (.dots, dots?.text), (.dotsSwitch, dotsSwitch?.text), (.dotSize, dotSize), (.dotGap, dotGap),
            (.dotColor, dotColor), (.dotCurrentColor, dotCurrentColor), (.touches, touches?.text),
            (.touchSize, touchSize), (.touchColor, touchColor), (.format, format?.text), (.quality, quality),
            (.lossless, lossless.map(String.init)), (.loop, loop), (.colors, colors),
            (.dither, dither?.text), (.quiet, quiet.map(String.init)),
        ]
        return values.compactMap { key, value in value.map { (key, $0) } }
    }

    /// Refuses the first of `keys` given as a flag, a usage error naming it with `reason`: an
    /// option the output format does not have. A config file's keys are left alone (they
    /// have defaults, so the options cannot tell a key written from none), so one file can
    /// serve every format; so is a `--no-` flag, which asks for what the format does anyway.
    func refuseFlags(_ keys: [OptionKey], _ reason: String) throws(CLIError) {
        if let key = given.first(where: { keys.contains($0.0) && $0.1 != "false" })?.0 { throw .usage("\(key.flag): \(reason)") }
    }

    /// `--quiet` or `--no-quiet`, or else `"quiet"` in the config file.
    var isQuiet: Bool {
        quiet ?? ((try? config.map(ConfigFile.init(path:)))??.quiet ?? false)
    }

    /// The run's progress and summary on stderr, from `start`, with a note before the summary
    /// for each folder among the images that holds images in other formats beside its PNG
    /// files: those are not read, and a carousel without them would otherwise say nothing.
    /// `output`, the file the run writes, is not counted among them.
    func progress(start: Date, output: String? = nil) -> Progress {
        let quiet = isQuiet
        let notes = quiet ? [] : ImageInputs.passedOver(images, output: output).map { folder, others in
            "note: \(folder): other images passed over (\(others)); only .png files are read from a folder, so convert them to PNG to show them"
        }
        return Progress(quiet: quiet, start: start, notes: notes)
    }

    /// The options these arguments give: the spec's defaults, then the config file, then the flags.
    ///
    /// An error about an option names it as the user gave it: `--fps` for a flag,
    /// `FILE: key "fps"` for the config file.
    func options() throws(CLIError) -> CarouselOptions {
        if script != nil, scriptFile != nil {
            throw .usage("--script: give either --script or --script-file, not both")
        }
        if config == "-", scriptFile == "-" {
            // Standard input is one file: read as the config, it has nothing left for the script.
            throw .usage("--script-file -: standard input is already the config file (--config -); give a file's path for one of them")
        }
        var o = CarouselOptions()
        let file = try attributed { () throws(CarouselError) in try config.map(ConfigFile.init(path:)) }
        if let file {
            try attributed { () throws(CarouselError) in try file.apply(to: &o) }
        }
        // A flag of an either-or pair overrides the config file's other half, as a flag overrides
        // its own key: `--quality 50` over `"lossless": true` is lossy, `--lossless` over
        // `"quality": 50` lossless (`--script` and `--script-file` replace the script either way).
        let flags = Set(given.map(\.0))
        if flags.contains(.quality) && !flags.contains(.lossless) { o.lossless = false }
        if lossless == true && !flags.contains(.quality) { o.quality = nil }
        for (key, text) in given where key != .quiet {
            try attributed { () throws(CarouselError) in
                try o.set(key, to: .text(text), context: OptionContext(scriptName: key.flag))
            }
        }
        try attributed { () throws(CarouselError) in try o.validate() }
        return o
    }

    /// The carousel these arguments describe, its images decoded; `output` as for
    /// ``carousel(options:output:)``.
    func carousel(output: String? = nil) throws(CLIError) -> Carousel {
        try carousel(options: options(), output: output)
    }

    /// The carousel of these arguments' images with `options` (from ``options()``). An
    /// `output` that would overwrite a file the run reads (an image, the config file, the
    /// script file) is refused, a usage error, before any image is read.
    ///
    /// With `folder`, the frames' output folder, an input in that folder under a name of a
    /// frames output is refused: the folder is replaced as a whole (a folder with other
    /// files is refused as it is written).
    func carousel(options: CarouselOptions, output: String? = nil, folder: String? = nil) throws(CLIError) -> Carousel {
        let urls = try attributed { () throws(CarouselError) in images.isEmpty ? [] : try ImageInputs.resolve(images) }
        // The script file the options took (`--script-file`, or the config's `scriptFile`
        // joined to its folder), as it was read; standard input (`-`) is read before any
        // output is opened, and names no file.
        let inputs = urls.map { (what: "the input image", path: $0.relativePath) }
            + [config.map { (what: "the config file", path: $0) },
               options.script?.file.map { (what: "the script file", path: $0) }].compactMap { $0 }.filter { $0.path != "-" }
        if let output {
            if let refusal = StandardDescriptors.refusal(of: output) { throw CLIError(description: refusal, status: 1) }
            if let input = AtomicOutput.overwrittenInput(by: output, among: inputs) {
                throw .usage("-o \(output): is \(input.what) \(input.path); give another output")
            }
        }
        if let folder, let input = AtomicOutput.inputInFolder(folder, among: inputs, isReplaceable: FramesFolder.isOwnFile) {
            throw .usage("-o \(folder): holds \(input.what) \(input.path), and the frames replace the folder; give another folder")
        }
        return try attributed { () throws(CarouselError) in
            try urls.isEmpty ? Carousel(images: SampleBanners.images(), options: options) : Carousel(contentsOf: urls, options: options)
        }
    }

    /// Runs `body`, saying a library error in the command line's words.
    func attributed<T>(_ body: () throws(CarouselError) -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            // The config file's keys, read again (a file that cannot be read has none; a pipe
            // gives the bytes it gave the first time), and its name as its errors give it
            // (`standard input` for `-`).
            let file = config.flatMap { try? ConfigFile(path: $0) }
            let keys = file.map { Set($0.values.map(\.key)) } ?? []
            throw CLIError(error, flags: Set(given.map(\.0)), config: file?.path ?? config, configKeys: keys)
        }
    }
}

/// An enumerated option's value as typed. ArgumentParser keeps the text, and the option table
/// reads it as it reads every value (`CarouselOptions.set(_:to:context:)`): the spaces and tabs
/// at either end dropped, and a value it does not take refused in the same words as a config
/// file's (`--dots: expected overlay, footer or none, got "top"`). `Value`'s cases still
/// show in `--help` and in shell completion.
struct Choice<Value: CaseIterable & RawRepresentable<String>>: ExpressibleByArgument {
    let text: String
    init?(argument: String) { text = argument }
    static var allValueStrings: [String] { Value.allCases.map(\.rawValue) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
