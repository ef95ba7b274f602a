/// Every option of a render, with the spec's defaults (spec section 5).
///
/// Properties are named after their ``OptionKey``, but for the dots' and the touch
/// indicator's, which are grouped in ``dots`` and ``touches`` (`dotSize` is `dots.size`,
/// `dots` is `dots.placement`). The command line and the config
/// file fill this value through ``set(_:to:context:)``; the library API may set the
/// properties directly, and ``validate()`` then checks them with the same rules.
public struct CarouselOptions: Equatable, Sendable {
    /// Viewport size; `nil` takes the first image's size.
    public var size: PixelSize?
    /// Item width; `nil` takes the viewport width.
    public var itemWidth: Int?
    /// Gap between items.
    public var spacing = 0
    /// Where the current item sits.
    public var align = ItemAlignment.center
    /// Clones per side.
    public var clones = ClonePolicy.auto
    /// How an image fills its item.
    public var fit = FitMode.fill
    /// Gaps, letterbox, transparency and footer colour.
    public var background = RGBA.black
    /// The timeline script; `nil` means `autoplay 1`.
    public var script: Script?
    /// Autoplay dwell.
    public var hold: MediaTime = 2
    /// Default move duration.
    public var duration: MediaTime = 0.3
    /// Default move easing.
    public var easing = Easing.easeInOut
    /// The frame rates a render may have (spec section 3).
    public static let fpsRange = 1...50
    /// ``fpsRange`` as messages and the help write it: `1...50`.
    static let fpsText = "\(fpsRange.lowerBound)...\(fpsRange.upperBound)"

    /// Frames per second, 1...50.
    public var fps = 25
    /// The page dots' placement and look.
    public var dots = PageDots()
    /// When the current dot changes.
    public var dotsSwitch = DotsSwitch.half
    /// The touch indicator of finger gestures.
    public var touches = TouchIndicator()
    /// How many times the animation plays.
    public var loop = LoopMode.forever
    /// The GIF palette size limit, 2...256 (WebP and APNG are full colour).
    public var colors = 256
    /// The GIF dithering when a frame needs more colours than its palette.
    public var dither = Dither.ordered
    /// The animated format; `nil` takes it from the output's extension.
    public var format: OutputFormat?
    /// WebP quality, 0...100; `nil` is the default (``WebPEncoder/defaultQuality``).
    public var quality: Double?
    /// Lossless WebP.
    public var lossless = false

    /// The defaults of the spec.
    public init() {}

    /// Checks every option against its range; throws ``CarouselError/invalidOption(key:reason:)`` naming the first bad one.
    public func validate() throws(CarouselError) {
        for key in OptionKey.allCases {
            if let reason = problem(with: key) { throw .invalidOption(key: key, reason: reason) }
        }
    }

    /// A number as a person writes it in a message: a whole one without ".0" (`0`, `-1`,
    /// `101`), others as Swift prints them (`1.5`).
    static func written(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Why the value of `key` is out of range, or `nil` when it is fine.
    func problem(with key: OptionKey) -> String? {
        switch key {
        case .size:
            guard let size else { return nil }
            return PixelSize.dimensions.contains(size.width) && PixelSize.dimensions.contains(size.height) ? nil
                : "width and height must be 1...\(PixelSize.dimensions.upperBound), got \(size.width)x\(size.height)"
        case .itemWidth:
            guard let itemWidth else { return nil }
            return PixelSize.lengths.contains(itemWidth) ? nil
                : "must be 1...\(PixelSize.lengths.upperBound), got \(itemWidth)"
        case .spacing:
            return (0...PixelSize.lengths.upperBound).contains(spacing) ? nil
                : "must be 0...\(PixelSize.lengths.upperBound), got \(spacing)"
        case .clones:
            guard case .count(let k) = clones else { return nil }
            return (0...ClonePolicy.maximumCount).contains(k) ? nil : "must be 1...\(ClonePolicy.maximumCount) per side, got \(k)"
        case .hold:
            return hold.durationRefusal
        case .duration:
            return duration.durationRefusal
        case .fps:
            return CarouselOptions.fpsRange.contains(fps) ? nil : "must be \(CarouselOptions.fpsText), got \(fps)"
        case .dotSize:
            return dots.size > 0 && dots.size <= 1000 ? nil : "must be above 0 and at most 1000, got \(Self.written(dots.size))"
        case .dotGap:
            return dots.gap >= 0 && dots.gap <= 1000 ? nil : "must be 0...1000, got \(Self.written(dots.gap))"
        case .colors:
            return (2...256).contains(colors) ? nil : "must be 2...256, got \(colors)"
        case .quality:
            guard let quality else { return nil }
            return (0...100).contains(quality) ? nil : "must be 0...100, got \(Self.written(quality))"
        case .touchSize:
            return touches.size > 0 && touches.size <= 1000 ? nil : "must be above 0 and at most 1000, got \(Self.written(touches.size))"
        case .easing:
            return easing.refusal
        case .align, .fit, .background, .script, .scriptFile, .dots, .dotsSwitch, .dotColor,
             .dotCurrentColor, .loop, .dither, .quiet, .touches, .touchColor, .format, .lossless:
            return nil
        }
    }
}

/// A width and height in pixels.
public struct PixelSize: Hashable, Sendable {
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// The viewport dimensions accepted: a GIF's logical screen holds at most 65535.
    public static let dimensions = 1...65535
    /// The item widths and spacings accepted (the padded strip is capped separately).
    public static let lengths = 1...1_000_000

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH`, e.g. `640x360`. A dimension past `Int` is read as `Int.max` (or
    /// `Int.min`), which the options' range check refuses.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Numerals.whole(parts[0]), let h = Numerals.whole(parts[1]) else { return nil }
        self.init(width: w.value, height: h.value)
    }
}
