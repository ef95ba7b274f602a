/// What a GIF can show of a transparent background, planned: a GIF pixel is transparent
/// or opaque, so a plan's pictures are cut at alpha 128, and a GIF frame can leave a pixel
/// as it was (its transparent index) but not make it transparent again, short of clearing
/// the frame's rectangle after it is shown.
extension FramePlan {
    /// This plan with every pixel, in the layer and in every picture, either the
    /// transparent `RGBA.clear` (alpha below 128) or its colour at alpha 255: what a GIF
    /// shows of it, and what tells two pixels apart in a GIF.
    func binaryAlpha() -> FramePlan {
        let rows = pictureRows
        return FramePlan(copying: self, layer: layer.binaryAlpha(), background: background.a < 128 ? .clear : background.opaque,
                         pictureRows: { i, top in rows(i, top).binaryAlpha() })
    }
}

/// Where each planned frame of a plan of ``FramePlan/binaryAlpha()`` pixels draws on a
/// transparent background, and which frames are cleared once shown.
///
/// A GIF frame drawn over the canvas can keep a pixel (its transparent index) or draw it,
/// but not make it transparent. Where the next frame turns pixels transparent, a frame's
/// rectangle also covers them and is cleared once shown (GIF disposal 2), and the next
/// frame draws every opaque pixel of it again. The first frame after the last counts as the
/// next (the GIF loops), and the first frame covers the whole canvas.
struct FrameCanvas: Sendable {
    /// A rectangle of the canvas.
    struct Rect: Sendable, Equatable {
        let left: Int, top: Int, width: Int, height: Int
        var isEmpty: Bool { width <= 0 || height <= 0 }
        var tuple: (left: Int, top: Int, width: Int, height: Int) { (left, top, width, height) }

        init(_ r: (left: Int, top: Int, width: Int, height: Int)) {
            (left, top, width, height) = r
        }

        /// The smallest rectangle holding both.
        func union(_ other: Rect) -> Rect {
            if isEmpty { return other }
            if other.isEmpty { return self }
            let x0 = min(left, other.left), y0 = min(top, other.top)
            let x1 = max(left + width, other.left + other.width), y1 = max(top + height, other.top + other.height)
            return Rect((x0, y0, x1 - x0, y1 - y0))
        }
    }

    /// Each frame's rectangle: what differs from the canvas it is drawn on, and the pixels
    /// the next frame turns transparent.
    let rects: [Rect]
    /// Whether each frame's rectangle is cleared once shown.
    let clears: [Bool]

    /// Works the frames out in order: a frame's rectangle depends on the canvas the frame
    /// before left, cleared or not.
    init(_ plan: FramePlan) {
        var rects: [Rect] = [], clears: [Bool] = []
        let count = plan.frames.count
        if count > 0 {
            let first = FramePicture(plan, frame: 0)
            var current = first
            var canvas: FramePicture?
            for k in 0..<count {
                let next = k + 1 < count ? FramePicture(plan, frame: k + 1) : first
                let changed = canvas.map { Rect(current.changedRect(from: $0)) } ?? Rect((0, 0, plan.width, plan.height))
                let drops = current.dropRect(to: next)
                let rect = changed.union(drops)
                rects.append(rect)
                clears.append(!drops.isEmpty)
                canvas = drops.isEmpty ? current : current.clearing(rect)
                current = next
            }
        }
        self.rects = rects
        self.clears = clears
    }

    /// The canvas that frame `k`, showing `picture`, leaves for the next frame.
    func canvas(after k: Int, _ picture: FramePicture) -> FramePicture {
        clears[k] ? picture.clearing(rects[k]) : picture
    }
}

extension FramePicture {
    /// The bounding box of the pixels opaque here (alpha 128 or more) and transparent in
    /// `next` (alpha below 128).
    func dropRect(to next: FramePicture) -> FrameCanvas.Rect {
        var x0 = width, x1 = -1, y0 = height, y1 = -1
        withRows { current in
            next.withRows { following in
                for y in 0..<height {
                    let a = current(y), b = following(y)
                    // Alpha is the top byte, whose top bit says 128 or more: opaque here and
                    // transparent there sets it.
                    var found: UInt32 = 0
                    for x in 0..<width { found |= a[x] & ~b[x] }
                    guard found >> 31 != 0 else { continue }
                    var first = 0, last = width - 1
                    while (a[first] & ~b[first]) >> 31 == 0 { first += 1 }
                    while (a[last] & ~b[last]) >> 31 == 0 { last -= 1 }
                    x0 = min(x0, first)
                    x1 = max(x1, last)
                    y0 = min(y0, y)
                    y1 = y
                }
            }
        }
        return FrameCanvas.Rect(x1 < 0 ? (0, 0, 0, 0) : (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
    }
}

extension RGBAImage {
    /// The image with alpha below 128 made `RGBA.clear` and alpha from 128 made 255.
    func binaryAlpha() -> RGBAImage {
        var copy = self
        copy.pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for i in words.indices {
                let pixel = UInt32(littleEndian: words[i])
                words[i] = (pixel >> 31 != 0 ? pixel | 0xFF00_0000 : 0).littleEndian
            }
        }
        return copy
    }
}
