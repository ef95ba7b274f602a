import Carousel
import Testing

struct TouchIndicatorTests {
    /// A finger far outside the picture, or at no place (NaN), draws nothing and boxes no
    /// pixel of it (an offset of 1e300 trapped converting to `Int`); one at the centre draws.
    @Test func fingerFarAwayDrawsNothing() {
        let indicator = TouchIndicator()
        func frame(_ offset: Double) -> OverlayFrame {
            let state = FrameState(index: 0, position: 0, from: 0, to: 0, moving: false, jumped: false, phase: .drag,
                                   finger: FingerState(offset: offset, alpha: 1))
            return OverlayFrame(state: state, page: 0, count: 3, width: 80, viewportHeight: 60)
        }
        let blank = RGBAImage(width: 80, height: 60, fill: RGBA(r: 0, g: 0, b: 0))
        for offset in [1e300, -1e300, .nan, .infinity, -.infinity, 1e9] {
            var image = blank
            indicator.draw(on: &image, top: 0, frame: frame(offset))
            #expect(image == blank, "offset \(offset)")
            #expect(indicator.boxes(for: frame(offset)).allSatisfy { $0.x1 <= 0 || $0.x0 >= 80 }, "offset \(offset)")
        }
        var image = blank
        indicator.draw(on: &image, top: 0, frame: frame(0))
        #expect(image[40, 30] != RGBA(r: 0, g: 0, b: 0))
        // Rows from a `top` at either end of `Int` lie far from the finger: nothing is drawn
        // (`top + rows` overflowed near `Int.max`).
        for top in [Int.max, Int.max - 5, Int.min, Int.min + 5] {
            var rows = blank
            indicator.draw(on: &rows, top: top, frame: frame(0))
            #expect(rows == blank, "top \(top)")
        }
    }
}
