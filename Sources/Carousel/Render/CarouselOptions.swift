/// Every option of a render, with the spec's defaults (spec section 5).
///
/// The command line and the config file both fill this value; the library API takes it as is.
public struct CarouselOptions: Equatable, Sendable {
    /// Viewport size; `nil` takes the first image's size.
    public var size: PixelSize?
    /// Item width; `nil` takes the viewport width.
    public var itemWidth: Int?
    /// Gap between items.
    public var spacing = 0
    /// Where the current item sits.
    public var align = Alignment.center
    /// Clones per side.
    public var clones = ClonePolicy.auto
    /// How an image fills its item.
    public var fit = FitMode.fill
    /// Gaps, letterbox, transparency and footer colour.
    public var background = RGBA.black
    /// The timeline script; `nil` means `autoplay 1`.
    public var script: Script?
    /// Autoplay dwell in seconds.
    public var hold = 2.0
    /// Default move duration in seconds.
    public var duration = 0.3
    /// Default move easing.
    public var easing = Easing.easeInOut
    /// Frames per second, 1...50.
    public var fps = 25
    /// The page dots' placement and look.
    public var dots = PageDots()
    /// When the current dot changes.
    public var dotsSwitch = DotsSwitch.half
    /// How many times the GIF plays.
    public var loop = LoopMode.forever
    /// Palette size limit, 2...256.
    public var colors = 256
    /// Dithering when a frame needs more colours than its palette.
    public var dither = Dither.none

    /// The defaults of the spec.
    public init() {}

    /// Checks the ranges the spec gives; throws naming the option.
    public func validate() throws(CarouselError) {
        try Geometry.check(size: size, itemWidth: itemWidth, spacing: spacing)
        guard (1...50).contains(fps) else { throw .option("--fps", "must be 1...50, got \(fps)") }
        guard TimeValue.microseconds(seconds: hold) != nil else {
            throw .option("--hold", "must be zero or a positive number of seconds, got \(hold)")
        }
        guard TimeValue.microseconds(seconds: duration) != nil else {
            throw .option("--duration", "must be zero or a positive number of seconds, got \(duration)")
        }
        guard (2...256).contains(colors) else { throw .option("--colors", "must be 2...256, got \(colors)") }
        guard dots.size > 0, dots.size.isFinite, dots.size <= 1000 else {
            throw .option("--dot-size", "must be positive (at most 1000), got \(dots.size)")
        }
        guard dots.gap >= 0, dots.gap.isFinite, dots.gap <= 1000 else {
            throw .option("--dot-gap", "must be zero or positive (at most 1000), got \(dots.gap)")
        }
    }
}

/// A width and height in pixels.
public struct PixelSize: Equatable, Sendable {
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
