/// Whether the finger of a gesture is drawn.
public enum TouchesMode: String, CaseIterable, Codable, Sendable {
    /// A touch indicator while the finger is down, fading after it lifts.
    case show
    /// Nothing.
    case none
}

/// The touch indicator of finger gestures (spec section 3b): a filled circle with a thin
/// dark ring at the finger, drawn above the page dots while the finger is down, fading
/// out over 0.15 s where it lifted.
///
/// The finger is at the viewport's vertical centre; horizontally at the centre plus the
/// finger's offset, which the timeline gives (a gesture is centred on its drags).
/// Anti-aliased like the dots: 4 x 4 coverage samples per pixel.
public struct TouchIndicator: Equatable, Sendable {
    /// Whether it is drawn.
    public var mode = TouchesMode.show
    /// Diameter in pixels.
    public var size: Double = 44
    /// Fill colour.
    public var color = RGBA(r: 0xFF, g: 0xFF, b: 0xFF, a: 0x80)

    /// Width of the ring at the edge, in pixels.
    public static let ringWidth = 1.5
    /// Colour of the ring.
    public static let ringColor = RGBA(r: 0, g: 0, b: 0, a: 0x4D)

    /// The default look.
    public init() {}

    /// Where the indicator is in a frame, and how opaque; `nil` when the finger is neither down nor fading.
    /// This is the finger down, or else the one lifted last (`frames.json`'s `touch`).
    public func touch(in frame: OverlayFrame) -> TouchPoint? {
        touches(in: frame).last
    }

    /// Every indicator drawn in a frame, bottom first: the lifted fingers still fading, the
    /// earliest first, then ``touch(in:)``'s.
    public func touches(in frame: OverlayFrame) -> [TouchPoint] {
        guard mode == .show else { return [] }
        return (frame.state.lifted + [frame.state.finger].compactMap { $0 }).compactMap { point($0, in: frame) }
    }

    /// The indicator of `finger` in `frame`; `nil` once it has faded.
    private func point(_ finger: FingerState, in frame: OverlayFrame) -> TouchPoint? {
        guard finger.alpha > 0 else { return nil }
        return TouchPoint(x: Double(frame.width) / 2 + finger.offset, y: Double(frame.viewportHeight) / 2,
                          alpha: min(1, finger.alpha))
    }
}

/// The touch indicator's centre and opacity in one frame, as `frames.json` gives it.
public struct TouchPoint: Hashable, Sendable, Codable {
    /// Centre x in pixels.
    public let x: Double
    /// Centre y in pixels.
    public let y: Double
    /// Opacity, 0...1.
    public let alpha: Double

    /// A touch at (`x`, `y`) with opacity `alpha`.
    public init(x: Double, y: Double, alpha: Double) {
        self.x = x
        self.y = y
        self.alpha = alpha
    }
}

extension TouchIndicator: Overlay {
    /// Draws each indicator's circle and ring (``touches(in:)``, bottom first), blended by
    /// coverage and the fade.
    public func draw(on image: inout RGBAImage, top: Int, frame: OverlayFrame) {
        for touch in touches(in: frame) {
            draw(touch, on: &image, top: top)
        }
    }

    private func draw(_ touch: TouchPoint, on image: inout RGBAImage, top: Int) {
        let box = box(of: touch)
        let r = size / 2, inner = max(0, r - TouchIndicator.ringWidth)
        let x0 = max(0, box.x0), x1 = min(image.width, box.x1)
        let y0 = max(top, box.y0), y1 = min(rowsEnd(top: top, rows: image.height), box.y1)
        guard x0 < x1, y0 < y1 else { return }
        let n = 4
        for py in y0..<y1 {
            for px in x0..<x1 {
                var fill = 0, ring = 0
                for sy in 0..<n {
                    let dy = Double(py) + (Double(sy) + 0.5) / Double(n) - touch.y
                    for sx in 0..<n {
                        let dx = Double(px) + (Double(sx) + 0.5) / Double(n) - touch.x
                        let d2 = dx * dx + dy * dy
                        if d2 <= inner * inner {
                            fill += 1
                        } else if d2 <= r * r {
                            ring += 1
                        }
                    }
                }
                guard fill + ring > 0 else { continue }
                var pixel = image[px, py - top]
                if fill > 0 { pixel = color.over(pixel, coverage: Double(fill) / Double(n * n) * touch.alpha) }
                if ring > 0 { pixel = TouchIndicator.ringColor.over(pixel, coverage: Double(ring) / Double(n * n) * touch.alpha) }
                image[px, py - top] = pixel
            }
        }
    }

    /// The boxes around the circles drawn in `frame` (``touches(in:)``); none when none is drawn.
    public func boxes(for frame: OverlayFrame) -> [PixelBox] {
        touches(in: frame).map(box(of:))
    }

    /// The pixels `touch`'s circle covers. A touch far outside any picture (or at no place, NaN)
    /// is taken a billion pixels away, where it covers none, so the box stays within `Int`.
    private func box(of touch: TouchPoint) -> PixelBox {
        func place(_ v: Double) -> Double { v.isNaN ? -1e9 : min(max(v, -1e9), 1e9) }
        let r = size.isNaN ? 0 : min(max(size / 2, 0), 1e6), x = place(touch.x), y = place(touch.y)
        return PixelBox(x0: Int((x - r).rounded(.down)), y0: Int((y - r).rounded(.down)),
                        x1: Int((x + r).rounded(.up)) + 1, y1: Int((y + r).rounded(.up)) + 1)
    }

    /// None: the indicator is translucent, so it is never drawn at full coverage.
    public var colors: [RGBA] { [] }
}
