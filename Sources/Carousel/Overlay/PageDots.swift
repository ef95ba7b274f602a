#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the page dots go.
public enum DotsPlacement: String, CaseIterable, Codable, Sendable {
    /// Over the viewport, centres 16 px above its bottom edge.
    case overlay
    /// In a 32 px band of background below the viewport (a section footer).
    case footer
    /// No dots.
    case none
}

/// When the current dot changes during a move.
public enum DotsSwitch: String, CaseIterable, Codable, Sendable {
    /// `round(p) mod N`, as a scroll view delegate computes it.
    case half
    /// The target page as soon as a move begins.
    case start
    /// The target page when the move ends.
    case end

    /// The lit page (0-based) for a frame of a carousel of `count` pages (at least 1; a state
    /// the timeline made, whose position is finite).
    public func page(for state: FrameState, count: Int) -> Int {
        precondition(count >= 1 && state.position.isFinite && abs(state.position) < 0x1p52,
                     "DotsSwitch.page: \(count) pages at position \(state.position); at least 1 page, at a finite position")
        switch self {
        case .half:
            let remainder = Int(roundedHalfUp(state.position)) % count
            return remainder < 0 ? remainder + count : remainder
        case .start:
            return state.to
        case .end:
            return state.from
        }
    }
}

/// The look of the page dots (spec section 4), and how to draw them.
public struct PageDots: Equatable, Sendable {
    /// Height of the footer band.
    public static let footerHeight = 32
    /// Distance of the dot centres above the viewport's bottom edge in overlay mode.
    public static let overlayInset = 16

    /// Placement.
    public var placement: DotsPlacement = .overlay
    /// Diameter in pixels.
    public var size: Double = 8
    /// Gap between neighbouring dots in pixels.
    public var gap: Double = 8
    /// Colour of the other dots.
    public var color = RGBA(r: 0x80, g: 0x80, b: 0x80)
    /// Colour of the current dot.
    public var currentColor = RGBA.white

    /// Creates the default UIPageControl look.
    public init() {}

    /// One dot to draw: centre and diameter.
    public struct Dot: Equatable, Sendable {
        /// Centre x.
        public let x: Double
        /// Centre y.
        public let y: Double
        /// Diameter.
        public let diameter: Double
    }

    /// Extra rows the output gets below the viewport.
    public var extraHeight: Int { placement == .footer ? PageDots.footerHeight : 0 }

    /// The dots for `count` pages with `current` lit, in a frame of `width x viewportHeight`.
    ///
    /// The row is centred, one dot a page (spec section 4) wherever the row fits the
    /// viewport. Where it is wider, it behaves like iOS 14's page control: it shows the
    /// odd number of dots that fit in the viewport less one dot pitch of margin (three
    /// where fewer fit so but three fit the viewport, and the current page's dot alone
    /// where three do not), the dots nearest the current one keep their full size and the
    /// others shrink (to 2/3, then 1/3) toward both ends, and the row scrolls so the
    /// current dot stays in view; dots that would leave the row are not drawn. So the
    /// current page's dot is always drawn whole across, centred on the viewport where it
    /// is alone, and cut only where it is wider than the viewport; down, an overlay row in a
    /// viewport less than 16 + size/2 px tall loses the dots' tops. `current` outside the pages is taken at the
    /// nearest end; ``size`` and ``gap`` outside their options' ranges trap, and so do a
    /// `width` or `viewportHeight` outside 0...65535, the viewport's range.
    public func layout(count: Int, current: Int, width: Int, viewportHeight: Int) -> [Dot] {
        guard placement != .none, count > 1 else { return [] }
        precondition(size > 0 && size <= 1000 && gap >= 0 && gap <= 1000,
                     "PageDots: size \(size) and gap \(gap); a size above 0 and at most 1000, a gap 0...1000")
        precondition((0...65535).contains(width) && (0...65535).contains(viewportHeight),
                     "PageDots: a frame of \(width) x \(viewportHeight); each side 0...65535")
        let current = PageDots.clamped(current, count: count)
        let y = placement == .overlay
            ? Double(viewportHeight - PageDots.overlayInset)
            : Double(viewportHeight) + Double(PageDots.footerHeight) / 2
        let pitch = size + gap
        let fullWidth = Double(count) * size + Double(count - 1) * gap
        if fullWidth <= Double(width) {
            let left = Double(width) / 2 - fullWidth / 2 + size / 2
            return (0..<count).map { Dot(x: left + Double($0) * pitch, y: y, diameter: size) }
        }
        // Visible slots, odd so the window can centre on the current dot: those that fit
        // with a pitch of margin; at least three where three fit the viewport, else the
        // current dot alone. Fewer than `count`, as the whole row does not fit.
        var slots = Int((Double(width) - pitch + gap) / pitch)
        if slots < 3 { slots = 3 * pitch - gap <= Double(width) ? 3 : 1 }
        if slots % 2 == 0 { slots -= 1 }
        let half = slots / 2
        let first = min(max(0, current - half), count - slots)
        let left = Double(width) / 2 - (Double(slots) * pitch - gap) / 2 + size / 2
        return (0..<slots).map { s in
            let page = first + s
            let fromEdge = min(s, slots - 1 - s)
            let moreBeyond = (s == 0 && first > 0) || (s == slots - 1 && first + slots < count)
            let nearBeyond = (s == 1 && first > 0) || (s == slots - 2 && first + slots < count)
            var scale = 1.0
            if page != current && fromEdge <= 1 {
                if moreBeyond { scale = 1.0 / 3 } else if nearBeyond { scale = 2.0 / 3 }
            }
            return Dot(x: left + Double(s) * pitch, y: y, diameter: size * scale)
        }
    }

    /// A current page outside `0..<count` taken at the nearest end, as ``layout(count:current:width:viewportHeight:)``,
    /// ``pages(count:current:width:viewportHeight:)`` and the drawing take it.
    static func clamped(_ current: Int, count: Int) -> Int { count >= 1 ? min(max(current, 0), count - 1) : 0 }

    /// Which page each dot of `layout(count:current:...)` stands for.
    public func pages(count: Int, current: Int, width: Int, viewportHeight: Int) -> [Int] {
        let current = PageDots.clamped(current, count: count)
        let dots = layout(count: count, current: current, width: width, viewportHeight: viewportHeight)
        guard dots.count < count else { return Array(0..<dots.count) }
        let half = dots.count / 2
        let first = min(max(0, current - half), count - dots.count)
        return Array(first..<(first + dots.count))
    }

    /// Draws the dots onto `image` (whose top `viewportHeight` rows are the viewport), `current` lit.
    public func draw(on image: inout RGBAImage, count: Int, current: Int, viewportHeight: Int) {
        draw(on: &image, top: 0, count: count, current: current, viewportHeight: viewportHeight)
    }

    /// Draws the dots onto `rows`, the rows of such an image from row `top` down.
    func draw(on rows: inout RGBAImage, top: Int, count: Int, current: Int, viewportHeight: Int) {
        let current = PageDots.clamped(current, count: count)
        let dots = layout(count: count, current: current, width: rows.width, viewportHeight: viewportHeight)
        let pages = self.pages(count: count, current: current, width: rows.width, viewportHeight: viewportHeight)
        for (dot, page) in zip(dots, pages) {
            PageDots.fillCircle(&rows, top: top, dot: dot, color: page == current ? currentColor : color)
        }
    }

    /// Fills a disc with anti-aliased edges: each pixel is covered by the share of its
    /// 4x4 sub-samples inside the circle, and the colour is blended by that coverage.
    /// `image` holds the rows from `top` down; the disc's coordinates are the whole picture's.
    static func fillCircle(_ image: inout RGBAImage, top: Int, dot: Dot, color: RGBA) {
        let r = dot.diameter / 2
        guard r > 0 else { return }
        let x0 = max(0, Int((dot.x - r).rounded(.down))), x1 = min(image.width - 1, Int((dot.x + r).rounded(.up)))
        let y0 = max(top, Int((dot.y - r).rounded(.down)))
        let y1 = min(rowsEnd(top: top, rows: image.height) - 1, Int((dot.y + r).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        let n = 4
        for py in y0...y1 {
            for px in x0...x1 {
                var inside = 0
                for sy in 0..<n {
                    let dy = Double(py) + (Double(sy) + 0.5) / Double(n) - dot.y
                    for sx in 0..<n {
                        let dx = Double(px) + (Double(sx) + 0.5) / Double(n) - dot.x
                        if dx * dx + dy * dy <= r * r { inside += 1 }
                    }
                }
                guard inside > 0 else { continue }
                image[px, py - top] = color.over(image[px, py - top], coverage: Double(inside) / Double(n * n))
            }
        }
    }
}

extension PageDots: Overlay {
    /// Draws the row of dots with the frame's page lit.
    public func draw(on rows: inout RGBAImage, top: Int, frame: OverlayFrame) {
        draw(on: &rows, top: top, count: frame.count, current: frame.page, viewportHeight: frame.viewportHeight)
    }

    /// The box around each dot drawn in `frame`.
    public func boxes(for frame: OverlayFrame) -> [PixelBox] {
        layout(count: frame.count, current: frame.page, width: frame.width, viewportHeight: frame.viewportHeight)
            .map { dot in
                let r = dot.diameter / 2
                return PixelBox(x0: Int((dot.x - r).rounded(.down)), y0: Int((dot.y - r).rounded(.down)),
                                x1: Int((dot.x + r).rounded(.up)) + 1, y1: Int((dot.y + r).rounded(.up)) + 1)
            }
    }

    /// The current dot's colour and the others', opaque; none when the dots are hidden.
    public var colors: [RGBA] {
        placement == .none ? [] : [currentColor.opaque, color.opaque]
    }
}
