import ArgumentParser
import Carousel
import CarouselSamples
import Foundation

/// The options every subcommand shares (spec section 5), each `nil` until given.
struct CarouselArguments: ParsableArguments {
    @Argument(help: "PNG files or folders (a folder gives its *.png in natural order). Default: the sample images.")
    var images: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Viewport size. Default: the first image's size.", valueName: "WxH"),
            transform: Parse.size)
    var size: PixelSize?

    @Option(name: .customLong("item-width"), parsing: .unconditional, help: ArgumentHelp("Item width in pixels. Default: the viewport width.", valueName: "PX"))
    var itemWidth: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Gap between items in pixels (shows the background). Default: 0.", valueName: "PX"))
    var spacing: Int?

    @Option(help: "Where the current item sits: start or center. Default: center.")
    var align: Alignment?

    @Option(help: ArgumentHelp("Clones per side: auto (the fewest the layout needs), a number K, or set (a whole copy of the set). Default: auto.", valueName: "auto|K|set"),
            transform: Parse.clones)
    var clones: ClonePolicy?

    @Option(help: "How an image fills its item: fill (aspect fill, centred crop), fit (aspect fit, letterboxed) or stretch. Default: fill.")
    var fit: FitMode?

    @Option(help: ArgumentHelp("Colour of gaps, letterbox, transparent pixels and footer: #RRGGBB or #RRGGBBAA. Default: #000000.", valueName: "COLOR"), transform: Parse.color)
    var background: RGBA?

    @Option(help: ArgumentHelp("Timeline script, steps separated by ';' or newlines: hold DURATION, next|prev [DURATION] [EASING], goto PAGE [DURATION] [EASING], autoplay [CYCLES]. Default: autoplay 1.", valueName: "TEXT"))
    var script: String?

    @Option(name: .customLong("script-file"), help: ArgumentHelp("Read the timeline script from a file.", valueName: "PATH"))
    var scriptFile: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Autoplay dwell on each page in seconds. Default: 2.", valueName: "SECONDS"))
    var hold: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Default move duration in seconds. Default: 0.3.", valueName: "SECONDS"))
    var duration: Double?

    @Option(help: ArgumentHelp("Default move easing: \(Easing.accepted). Default: ease-in-out.", valueName: "EASING"), transform: Parse.easing)
    var easing: Easing?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second, 1...50. Default: 25.", valueName: "N"))
    var fps: Int?

    @Option(help: "Page dots: overlay (over the viewport), footer (a 32 px band below it) or none. Default: overlay.")
    var dots: DotsPlacement?

    @Option(name: .customLong("dots-switch"), help: "When the current dot changes: half (round(p) mod N), start (as a move begins) or end (when it ends). Default: half.")
    var dotsSwitch: DotsSwitch?

    @Option(name: .customLong("dot-size"), parsing: .unconditional, help: ArgumentHelp("Dot diameter in pixels. Default: 8.", valueName: "PX"))
    var dotSize: Double?

    @Option(name: .customLong("dot-gap"), parsing: .unconditional, help: ArgumentHelp("Gap between dots in pixels. Default: 8.", valueName: "PX"))
    var dotGap: Double?

    @Option(name: .customLong("dot-color"), help: ArgumentHelp("Colour of the other dots. Default: #808080.", valueName: "COLOR"), transform: Parse.color)
    var dotColor: RGBA?

    @Option(name: .customLong("dot-current-color"), help: ArgumentHelp("Colour of the current dot. Default: #FFFFFF.", valueName: "COLOR"), transform: Parse.color)
    var dotCurrentColor: RGBA?

    @Option(help: ArgumentHelp("How often the GIF plays: forever, once, or N total plays. Default: forever.", valueName: "forever|once|N"), transform: Parse.loop)
    var loop: LoopMode?

    @Option(parsing: .unconditional, help: ArgumentHelp("Palette size limit, 2...256. Default: 256.", valueName: "N"))
    var colors: Int?

    @Option(help: "Dithering when a frame needs more colours than its palette: none, ordered (8x8 Bayer) or diffusion (Floyd-Steinberg). Default: none.")
    var dither: Dither?

    @Option(help: ArgumentHelp("Read options from a JSON file: every option as a camelCase key (e.g. \"itemWidth\": 343). Flags override it.", valueName: "FILE.json"))
    var config: String?

    @Flag(help: "No progress output and no summary line.")
    var quiet = false

    /// `--quiet`, or `"quiet": true` in the config file.
    var isQuiet: Bool {
        quiet || ((try? config.map(ConfigFile.init(path:)))??.quiet ?? false)
    }

    /// The options these arguments give: the spec's defaults, then the config file, then the flags.
    func options() throws(CarouselError) -> CarouselOptions {
        var o = CarouselOptions()
        if let config { try ConfigFile(path: config).apply(to: &o) }
        if let size { o.size = size }
        if let itemWidth { o.itemWidth = itemWidth }
        if let spacing { o.spacing = spacing }
        if let align { o.align = align }
        if let clones { o.clones = clones }
        if let fit { o.fit = fit }
        if let background { o.background = background }
        if let hold { o.hold = hold }
        if let duration { o.duration = duration }
        if let easing { o.easing = easing }
        if let fps { o.fps = fps }
        if let dots { o.dots.placement = dots }
        if let dotsSwitch { o.dotsSwitch = dotsSwitch }
        if let dotSize { o.dots.size = dotSize }
        if let dotGap { o.dots.gap = dotGap }
        if let dotColor { o.dots.color = dotColor }
        if let dotCurrentColor { o.dots.currentColor = dotCurrentColor }
        if let loop { o.loop = loop }
        if let colors { o.colors = colors }
        if let dither { o.dither = dither }
        if script != nil, scriptFile != nil {
            throw .option("--script", "give either --script or --script-file, not both")
        }
        if let script {
            o.script = try Script(parsing: script, source: "--script")
        } else if let scriptFile {
            o.script = try Script.load(path: scriptFile)
        }
        try o.validate()
        return o
    }

    /// The carousel these arguments describe, its images decoded.
    func carousel() throws(CarouselError) -> Carousel {
        let options = try options()
        let urls = images.isEmpty ? SampleImages.urls : try ImageInputs.resolve(images)
        guard !urls.isEmpty else { throw .noImages }
        return try Carousel(images: ImageInputs.load(urls), options: options)
    }
}

/// Parsers for option values that say what was expected when a value is wrong.
enum Parse {
    struct Expected: Error, CustomStringConvertible {
        let description: String
    }

    static func size(_ text: String) throws -> PixelSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw Expected(description: "expected WxH in pixels, e.g. 640x360")
        }
        guard w > 0, h > 0 else { throw Expected(description: "width and height must be positive") }
        return PixelSize(width: w, height: h)
    }

    static func clones(_ text: String) throws -> ClonePolicy {
        guard let policy = ClonePolicy(text) else { throw Expected(description: "expected auto, set or a whole number of clones per side") }
        return policy
    }

    static func color(_ text: String) throws -> RGBA {
        guard let color = RGBA(hex: text) else { throw Expected(description: "expected #RRGGBB or #RRGGBBAA") }
        return color
    }

    static func easing(_ text: String) throws -> Easing {
        guard let easing = Easing(text) else { throw Expected(description: "expected \(Easing.accepted)") }
        return easing
    }

    static func loop(_ text: String) throws -> LoopMode {
        guard let loop = LoopMode(text) else { throw Expected(description: "expected forever, once or a number of plays from 1 to 65536") }
        return loop
    }
}

extension Alignment: ExpressibleByArgument {}
extension FitMode: ExpressibleByArgument {}
extension DotsPlacement: ExpressibleByArgument {}
extension DotsSwitch: ExpressibleByArgument {}
extension Dither: ExpressibleByArgument {}
