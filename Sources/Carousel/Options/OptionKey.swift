/// Every option of a render (spec section 5), by key: the one table behind
/// ``CarouselOptions``, the JSON config file and the command-line flags.
///
/// The raw value is the config file's key, and the Swift name of the ``CarouselOptions``
/// property where there is one: the dots' and the touch indicator's keys name the
/// properties of ``CarouselOptions/dots`` and ``CarouselOptions/touches`` (`dotSize` is
/// `dots.size`, `dots` is `dots.placement`, `touches` is `touches.mode`), and `scriptFile`
/// and `quiet` have none (a script file is read into ``CarouselOptions/script``; `quiet` is
/// the command line's); ``flag`` is the command line's spelling; ``help``
/// and ``valueName`` are what `--help` shows; ``expects`` is what an error says a
/// value must look like. A new option is a new case here, a property of
/// ``CarouselOptions``, and its parsing in `CarouselOptions+Set.swift`; the flag, the
/// key and the help follow from this table.
public enum OptionKey: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The viewport's size, `--size`: ``CarouselOptions/size``.
    case size
    /// The width of an item, `--item-width`: ``CarouselOptions/itemWidth``.
    case itemWidth
    /// The gap between items, `--spacing`: ``CarouselOptions/spacing``.
    case spacing
    /// Where the current item sits, `--align`: ``CarouselOptions/align``.
    case align
    /// The copies on each side of the strip, `--clones`: ``CarouselOptions/clones``.
    case clones
    /// How a picture fills its item, `--fit`: ``CarouselOptions/fit``.
    case fit
    /// The colour behind the items, `--background`: ``CarouselOptions/background``.
    case background
    /// The timeline script as text, `--script`: ``CarouselOptions/script``.
    case script
    /// A file the script is read from, `--script-file`; read into ``CarouselOptions/script``.
    case scriptFile
    /// Autoplay's dwell on each page, `--hold`: ``CarouselOptions/hold``.
    case hold
    /// A move's length where the script gives none, `--duration`: ``CarouselOptions/duration``.
    case duration
    /// A move's easing where the script gives none, `--easing`: ``CarouselOptions/easing``.
    case easing
    /// Frames per second, `--fps`: ``CarouselOptions/fps``.
    case fps
    /// Where the page dots go, `--dots`: ``PageDots/placement``.
    case dots
    /// When the current dot changes, `--dots-switch`: ``CarouselOptions/dotsSwitch``.
    case dotsSwitch
    /// A dot's diameter, `--dot-size`: ``PageDots/size``.
    case dotSize
    /// The gap between dots, `--dot-gap`: ``PageDots/gap``.
    case dotGap
    /// The colour of the other dots, `--dot-color`: ``PageDots/color``.
    case dotColor
    /// The colour of the current dot, `--dot-current-color`: ``PageDots/currentColor``.
    case dotCurrentColor
    /// Whether finger gestures show a touch, `--touches`: ``TouchIndicator/mode``.
    case touches
    /// The touch indicator's diameter, `--touch-size`: ``TouchIndicator/size``.
    case touchSize
    /// The touch indicator's colour, `--touch-color`: ``TouchIndicator/color``.
    case touchColor
    /// The output format, `--format`: ``CarouselOptions/format``.
    case format
    /// A lossy WebP's quality, `--quality`: ``CarouselOptions/quality``.
    case quality
    /// Whether a WebP is lossless, `--lossless`: ``CarouselOptions/lossless``.
    case lossless
    /// How often the animation plays, `--loop`: ``CarouselOptions/loop``.
    case loop
    /// The most colours a GIF palette holds, `--colors`: ``CarouselOptions/colors``.
    case colors
    /// How a GIF dithers, `--dither`: ``CarouselOptions/dither``.
    case dither
    /// No progress and no summary line, `--quiet`; the command line's alone.
    case quiet

    /// The command-line flag: the key in kebab case, e.g. `--item-width`.
    public var flag: String {
        var text = "--"
        for c in rawValue {
            if c.isUppercase {
                text += "-" + c.lowercased()
            } else {
                text.append(c)
            }
        }
        return text
    }

    /// The key, as errors of the library API show it (the raw value: `dotSize` for
    /// `options.dots.size`).
    public var description: String { rawValue }

    /// The placeholder `--help` shows for the value, e.g. `WxH`.
    public var valueName: String {
        switch self {
        case .size: return "WxH"
        case .itemWidth, .spacing, .dotSize, .dotGap: return "PX"
        case .align: return "start|center"
        case .clones: return "auto|K|set"
        case .fit: return "fill|fit|stretch"
        case .background, .dotColor, .dotCurrentColor: return "COLOR"
        case .script: return "TEXT"
        case .scriptFile: return "PATH"
        case .hold, .duration: return "SECONDS"
        case .easing: return "NAME"
        case .fps: return "N"
        case .colors: return "2...256"
        case .dots: return "overlay|footer|none"
        case .dotsSwitch: return "half|start|end"
        case .loop: return "forever|once|N"
        case .dither: return "none|ordered|diffusion"
        case .format: return "gif|webp|apng"
        case .quality: return "0...100"
        case .lossless: return ""
        case .touches: return "show|none"
        case .touchSize: return "PX"
        case .touchColor: return "COLOR"
        case .quiet: return ""
        }
    }

    /// One sentence for `--help`, ending with the default.
    public var help: String {
        switch self {
        case .size: return "Viewport size in pixels, each side 1...\(PixelSize.dimensions.upperBound). Default: the first image's size."
        case .itemWidth: return "Item width in pixels, 1...\(PixelSize.lengths.upperBound). Default: the viewport width."
        case .spacing: return "Gap between items in pixels (shows the background), 0...\(PixelSize.lengths.upperBound). Default: 0."
        case .align: return "Where the current item sits: start or center. Default: center."
        case .clones: return "Clones per side: auto (the fewest the layout needs), a number K (1...\(ClonePolicy.maximumCount), and at least what the layout needs), or set (a whole copy of the set). Default: auto."
        case .fit: return "How an image fills its item: fill (aspect fill, centred crop), fit (aspect fit, letterboxed) or stretch. Default: fill."
        case .background: return "Colour of gaps, letterbox, transparent pixels and footer: #RRGGBB or #RRGGBBAA (quote it in a shell: '#101014'). Default: #000000."
        case .script: return "Timeline script, steps separated by ';' or newlines: hold DURATION, next|prev [DURATION] [EASING], goto PAGE [DURATION] [EASING], autoplay [CYCLES], and finger gestures: drag DX [DURATION] [EASING], release, swipe next|prev [DURATION]. Default: autoplay 1."
        case .scriptFile: return "Read the timeline script from a file (- for standard input)."
        case .hold: return "Autoplay dwell on each page: seconds, or 1.5s, 300ms; 0 to \(MediaTime.maximum.microseconds / 1_000_000) s. Default: 2."
        case .duration: return "Default move duration: seconds, or 1.5s, 300ms; 0 to \(MediaTime.maximum.microseconds / 1_000_000) s. Default: 0.3."
        case .easing: return "Default move easing: \(Easing.accepted). Default: ease-in-out."
        case .fps: return "Frames per second, \(CarouselOptions.fpsText). Default: 25."
        case .dots: return "Page dots: overlay (over the viewport), footer (a 32 px band below it, so the output is 32 px taller) or none. Default: overlay."
        case .dotsSwitch: return "When the current dot changes: half (round(p) mod N), start (as a move begins) or end (when it ends). Default: half."
        case .dotSize: return "Dot diameter in pixels, above 0 and at most 1000. Default: 8."
        case .dotGap: return "Gap between dots in pixels, 0...1000. Default: 8."
        case .dotColor: return "Colour of the other dots: #RRGGBB or #RRGGBBAA. Default: #808080."
        case .dotCurrentColor: return "Colour of the current dot: #RRGGBB or #RRGGBBAA. Default: #FFFFFF."
        case .loop: return "How often the animation plays: forever, once, or N total plays (1...65536; a WebP at most 65535). Default: forever."
        case .colors: return "GIF palette size limit, 2...256. Default: 256."
        case .dither: return "GIF dithering when a frame needs more colours than its palette: none, ordered (a pattern fixed to the content) or diffusion (Floyd-Steinberg). Default: ordered."
        case .format: return "Output format of render: gif, webp or apng. Default: from the extension of -o (.gif, .webp, .apng or .png); needed with -o -."
        case .quality: return "WebP quality, 0...100 (lossy). Default: 97, which keeps the sample banners above SSIMULACRA2 85."
        case .lossless: return "Lossless WebP."
        case .touches: return "The touch indicator of finger gestures (drag, release, swipe): show or none. Default: show."
        case .touchSize: return "Touch indicator diameter in pixels, above 0 and at most 1000. Default: 44."
        case .touchColor: return "Touch indicator colour: #RRGGBB or #RRGGBBAA. Default: #FFFFFF80."
        case .quiet: return "No progress output and no summary line."
        }
    }

    /// Whether the value is a number or a size, whose range errors show it as written.
    var isNumeric: Bool {
        switch self {
        case .size, .itemWidth, .spacing, .clones, .hold, .duration, .fps, .dotSize, .dotGap,
             .loop, .colors, .quality, .touchSize: return true
        case .align, .fit, .background, .script, .scriptFile, .easing, .dots, .dotsSwitch,
             .dotColor, .dotCurrentColor, .touches, .touchColor, .format, .lossless, .dither, .quiet: return false
        }
    }

    /// What a value must look like, for errors: e.g. `a whole number`.
    public var expects: String {
        switch self {
        case .size: return "\"WxH\" in pixels, e.g. \"640x360\""
        case .itemWidth, .spacing, .fps, .colors: return "a whole number"
        case .align: return "start or center"
        case .clones: return "auto, set or a whole number of clones per side, from 1"
        case .fit: return "fill, fit or stretch"
        case .background, .dotColor, .dotCurrentColor: return "a colour #RRGGBB or #RRGGBBAA"
        case .script: return "a script text"
        case .scriptFile: return "a path"
        case .hold, .duration: return "a duration in seconds (2, 1.5s or 300ms)"
        case .easing: return Easing.accepted
        case .dots: return "overlay, footer or none"
        case .dotsSwitch: return "half, start or end"
        case .dotSize, .dotGap: return "a number of pixels"
        case .loop: return "forever, once or a number of plays from 1 to 65536"
        case .dither: return "none, ordered or diffusion"
        case .format: return "gif, webp or apng"
        case .quality: return "a number from 0 to 100"
        case .lossless: return "true or false"
        case .touches: return "show or none"
        case .touchSize: return "a number of pixels"
        case .touchColor: return "a colour #RRGGBB or #RRGGBBAA"
        case .quiet: return "true or false"
        }
    }
}
