/// Where the current item sits in the viewport (`--align`).
///
/// Named `ItemAlignment`, not `Alignment`, so a file that imports both this library and
/// SwiftUI can still write SwiftUI's `Alignment` unqualified.
public enum ItemAlignment: String, CaseIterable, Codable, Sendable {
    /// The current item's left edge at the viewport's left edge.
    case start
    /// The current item centred, neighbours peeking on both sides.
    case center
}

/// How many clones the padded strip gets on each side.
public enum ClonePolicy: Hashable, Sendable, CustomStringConvertible {
    /// The fewest the geometry needs, per side.
    case auto
    /// Exactly this many per side; an error if the geometry needs more.
    case count(Int)
    /// Whole copies of the set on each side (as many sets as the geometry needs, at least one).
    case set

    /// The most clones per side `count(K)` accepts.
    public static let maximumCount = 100_000

    /// Parses `auto`, `set` (in any case, as the command line and ``Easing`` take words) or a
    /// non-negative integer.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "set": self = .set
        default:
            guard let k = Int(text), k >= 0 else { return nil }
            self = .count(k)
        }
    }

    /// `auto`, `set` or the number, as the option takes it.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .set: return "set"
        case .count(let k): return String(k)
        }
    }
}

/// The carousel's geometry (spec section 2): pitch, alignment offset, clones, strip offsets.
///
/// Pure integer arithmetic, so every frame's offset is exact. The periodic strip
/// S has item `j mod N` at `x = j * pitch` for every integer `j`; the padded strip
/// holds items `-leftClones ..< N + rightClones` of S, each followed by its gap.
public struct Geometry: Equatable, Sendable {
    /// Number of real items, N.
    public let count: Int
    /// Viewport width W.
    public let width: Int
    /// Viewport height H (also the item height).
    public let height: Int
    /// Item width.
    public let itemWidth: Int
    /// Gap between items.
    public let spacing: Int
    /// Alignment of the current item.
    public let alignment: ItemAlignment
    /// Clones before the first real item.
    public let leftClones: Int
    /// Clones after the last real item.
    public let rightClones: Int

    /// The most pages a geometry may have (more than any strip under ``Carousel/maximumStripPixels``
    /// holds); the strip's arithmetic stays within `Int` below it.
    public static let maximumCount = 1 << 31

    /// Builds the geometry and resolves `clones` against what it needs: throws for no
    /// pages and for sizes out of their options' ranges; more than ``maximumCount`` pages traps.
    public init(count: Int, width: Int, height: Int, itemWidth: Int, spacing: Int,
                alignment: ItemAlignment, clones: ClonePolicy) throws(CarouselError) {
        guard count >= 1 else { throw .noImages }
        precondition(count <= Geometry.maximumCount, "Geometry: \(count) pages; at most \(Geometry.maximumCount)")
        try Geometry.check(width: width, height: height, itemWidth: itemWidth, spacing: spacing)
        self.count = count
        self.width = width
        self.height = height
        self.itemWidth = itemWidth
        self.spacing = spacing
        self.alignment = alignment
        let need = Geometry.minimumClones(width: width, itemWidth: itemWidth, spacing: spacing, alignment: alignment)
        switch clones {
        case .auto:
            (leftClones, rightClones) = need
        case .count(let k) where k <= ClonePolicy.maximumCount:
            guard k >= max(need.left, need.right) else {
                throw .invalidOption(key: .clones, reason: "\(k) per side is too few for this layout; it needs at least \(max(need.left, need.right)) (\(need.left) before, \(need.right) after)")
            }
            (leftClones, rightClones) = (k, k)
        case .count:
            throw .invalidOption(key: .clones, reason: "must be 1...\(ClonePolicy.maximumCount) per side, got \(clones)")
        case .set:
            let sets = max(1, (max(need.left, need.right) + count - 1) / count)
            (leftClones, rightClones) = (sets * count, sets * count)
        }
    }

    /// Checks the viewport size, item width and spacing against the ranges of ``CarouselOptions``.
    static func check(width: Int, height: Int, itemWidth: Int, spacing: Int) throws(CarouselError) {
        var options = CarouselOptions()
        options.size = PixelSize(width: width, height: height)
        options.itemWidth = itemWidth
        options.spacing = spacing
        for key in [OptionKey.size, .itemWidth, .spacing] {
            if let reason = options.problem(with: key) { throw .invalidOption(key: key, reason: reason) }
        }
    }

    /// Distance between the left edges of neighbouring items.
    public var pitch: Int { itemWidth + spacing }

    /// The alignment offset `a`: 0 for start, `floor((W - itemWidth) / 2)` for center.
    public var alignOffset: Int {
        switch alignment {
        case .start: return 0
        case .center: return floorDiv(width - itemWidth, 2)
        }
    }

    /// Width of the padded strip: `(leftClones + N + rightClones) * pitch`.
    public var stripWidth: Int { (leftClones + count + rightClones) * pitch }

    /// Offset in the periodic strip at position `p` (pages): `round(p * pitch) - a`, half up,
    /// where a position no more than 1e-9 pages below a half counts as the half (floating
    /// point puts an eased move's exact ties a few units in the last place below).
    public func x0(at position: Double) -> Int {
        // Positions are bounded by the options' ranges; the clamp keeps a wrong one from trapping.
        let x = roundedHalfUp(position * Double(pitch), scale: Double(pitch))
        return Int(x.isNaN ? 0 : min(Geometry.farthest, max(-Geometry.farthest, x))) - alignOffset
    }

    /// The farthest strip offset represented, in pixels either way.
    static let farthest = Double(1 << 52)

    /// ``x0(at:)`` of a frame: from the timeline's exact `round(p * pitch)` where it has one
    /// (linear motion, ``FrameState/offset``), so an offset exactly half way between two
    /// pixels rounds up as the spec says, else from the position.
    public func x0(of state: FrameState) -> Int {
        guard let offset = state.offset else { return x0(at: state.position) }
        let farthest = Int(Geometry.farthest)
        return min(farthest, max(-farthest, offset)) - alignOffset
    }

    /// The column of the padded strip that shows periodic-strip column `x0`.
    ///
    /// Unshifted when the viewport fits there (every `next`/`prev` move from a real
    /// page does); otherwise shifted by whole periods `N * pitch`, which shows the
    /// same pixels: the recentring an iOS carousel does with a non-animated
    /// `setContentOffset` during a long `goto`. An `x0` beyond 2^52 either way is taken at
    /// that bound, the farthest ``x0(at:)`` gives.
    public func stripX(forX0 x0: Int) -> Int {
        // Taken within the offsets ``x0(at:)`` gives, so the sums below stay within `Int`.
        let period = count * pitch, far = Int(Geometry.farthest)
        var x = min(far, max(-far, x0)) + leftClones * pitch
        if x < 0 { x += ceilDiv(-x, period) * period }
        let overflow = x + width - stripWidth
        if overflow > 0 { x -= ceilDiv(overflow, period) * period }
        return x
    }

    /// The fewest clones per side for moves of one page from any real page.
    ///
    /// Positions range over `[-1, N]` pages (a `prev` from the first page settles
    /// on the clone before it, a `next` from the last on the clone after it), so
    /// the viewport spans periodic columns `-pitch - a ..< N * pitch - a + W`. A width or item
    /// width below 1, a negative spacing, or any of them past 2^30 traps (the options' ranges
    /// are far inside: ``init(count:width:height:itemWidth:spacing:alignment:clones:)`` refuses
    /// what lies outside them as an error).
    public static func minimumClones(width: Int, itemWidth: Int, spacing: Int,
                                     alignment: ItemAlignment) -> (left: Int, right: Int) {
        precondition(width >= 1 && itemWidth >= 1 && spacing >= 0 && max(width, itemWidth, spacing) <= 1 << 30,
                     "Geometry.minimumClones: width \(width), item width \(itemWidth), spacing \(spacing); "
                     + "widths 1 ... 2^30, spacing 0 ... 2^30 (Geometry(...) checks them and throws)")
        let pitch = itemWidth + spacing
        let a = alignment == .start ? 0 : floorDiv(width - itemWidth, 2)
        return (max(0, ceilDiv(pitch + a, pitch)), max(0, ceilDiv(width - a, pitch)))
    }
}

/// `x` rounded half up, where `x` lying below a half by no more than `scale` times
/// ``halfTieTolerance`` counts as that half: an eased move's or a settle's position is
/// worked out in floating point, and where it is exactly half way (half a pixel of `x0`,
/// half a page of the lit dot: the middle of a symmetric curve, a settle at a simple
/// fraction of its time) it can come out a few units in the last place below, as
/// `-0.5000000000000001` pages or `0.49999999999999975` pixels, and round down.
/// `scale` is the size, in `x`'s units, of one page.
func roundedHalfUp(_ x: Double, scale: Double = 1) -> Double {
    let up = (x + 0.5).rounded(.down)
    // x lies in [up - 0.5, up + 0.5): the half that would round it up is up + 0.5.
    return up + 0.5 - x <= halfTieTolerance * scale ? up + 1 : up
}

/// How far below a half, in pages, a position still counts as the half: far above the
/// floating-point error of an eased position (the Bézier solved to 1e-12 in x, times the
/// curve's slope; a few units in the last place of the sums), and far below any
/// difference the frames could show.
let halfTieTolerance = 1e-9

/// Integer division rounding toward minus infinity.
func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// Integer division rounding toward plus infinity.
func ceilDiv(_ a: Int, _ b: Int) -> Int {
    -floorDiv(-a, b)
}
