/// Something drawn over a frame after it is cut from the strip: page dots, a touch indicator.
///
/// An overlay knows the frame it draws on and nothing of encoders. It tells the
/// encoder which pixels it may touch (``boxes(for:)``), so those are mapped from
/// their exact colours, and which colours it paints (``colors``), so a palette
/// reserves them. The overlays a ``Carousel`` draws are the ones its options describe
/// (``Carousel/overlays``, read-only): the page dots and the touch indicator. In this
/// package, a new kind of overlay is a new conformer beside ``PageDots``, added where
/// ``Carousel`` builds that list; a library user reads the list but cannot add to it.
public protocol Overlay: Sendable {
    /// Draws on `rows`, the rows of a frame described by `frame` from row `top` down, at
    /// the frame's full width: what drawing on the whole frame draws in those rows.
    func draw(on rows: inout RGBAImage, top: Int, frame: OverlayFrame)
    /// The pixel boxes `draw` may change in `frame` (they may reach outside the image).
    func boxes(for frame: OverlayFrame) -> [PixelBox]
    /// The colours drawn at full coverage, opaque first; empty when nothing is drawn.
    var colors: [RGBA] { get }
}

/// The frame row just below `rows` rows drawn from row `top` (`Int.max` where that row is past
/// `Int`): any `top` draws what falls in those rows, and nothing past the frame.
func rowsEnd(top: Int, rows: Int) -> Int {
    let (end, overflow) = top.addingReportingOverflow(rows)
    return overflow ? Int.max : end
}

extension Overlay {
    /// Draws on `image`, a whole frame described by `frame`.
    public func draw(on image: inout RGBAImage, frame: OverlayFrame) {
        draw(on: &image, top: 0, frame: frame)
    }
}

/// What an overlay knows of the frame it draws on.
public struct OverlayFrame: Sendable {
    /// The timeline's state at this frame.
    public let state: FrameState
    /// The lit page, 0-based.
    public let page: Int
    /// Number of real pages N.
    public let count: Int
    /// Output width.
    public let width: Int
    /// Height of the viewport (the top rows of the output).
    public let viewportHeight: Int

    /// Describes a frame for overlays.
    public init(state: FrameState, page: Int, count: Int, width: Int, viewportHeight: Int) {
        self.state = state
        self.page = page
        self.count = count
        self.width = width
        self.viewportHeight = viewportHeight
    }
}

/// A box of pixels, `x0 ..< x1` by `y0 ..< y1`.
public struct PixelBox: Hashable, Sendable {
    /// Left column.
    public let x0: Int
    /// Top row.
    public let y0: Int
    /// Column after the right edge.
    public let x1: Int
    /// Row after the bottom edge.
    public let y1: Int

    /// A box from its edges.
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}
