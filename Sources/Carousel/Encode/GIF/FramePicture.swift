/// A planned frame's picture, read where it lies: its layer rows in the plan's layer,
/// only the rows below them made.
///
/// By ``FramePlan``'s contract a picture's top rows are the crop of ``FramePlan/layer``
/// at the frame's ``FramePlan/Frame/layerX``, except inside its overlay boxes. So only
/// the rows from the first box (or from the end of the layer, where a footer follows)
/// down are made, by ``FramePlan/pictureRows``; a moving frame's picture costs no copy of
/// the megabytes of layer it shows.
struct FramePicture: Sendable {
    let width: Int
    let height: Int
    /// The first row made; the rows above it are the layer's.
    private(set) var top: Int
    /// The picture's rows from ``top`` down.
    private(set) var made: RGBAImage
    private let layer: RGBAImage
    private let layerX: Int

    /// Planned frame `k` of `plan`.
    init(_ plan: FramePlan, frame k: Int) {
        let frame = plan.frames[k]
        var top = min(plan.height, plan.layer.height)
        for box in frame.overlayBoxes where box.x0 < box.x1 && box.y0 < box.y1 { top = min(top, max(0, box.y0)) }
        width = plan.width
        height = plan.height
        self.top = top
        made = plan.pictureRows(frame.source, top)
        layer = plan.layer
        layerX = frame.layerX
    }

    /// The picture with the pixels of `rect` made transparent (`RGBA.clear`): the canvas a
    /// GIF frame leaves when it is cleared once shown.
    func clearing(_ rect: FrameCanvas.Rect) -> FramePicture {
        guard !rect.isEmpty else { return self }
        let newTop = min(top, rect.top)
        var rows = [UInt8](repeating: 0, count: (height - newTop) * width * 4)
        withRows { current in
            rows.withUnsafeMutableBytes { raw in
                let out = raw.bindMemory(to: UInt32.self).baseAddress!
                for y in newTop..<height {
                    let row = out + (y - newTop) * width
                    row.update(from: current(y), count: width)
                    if y >= rect.top && y < rect.top + rect.height {
                        (row + rect.left).update(repeating: 0, count: rect.width)
                    }
                }
            }
        }
        var cleared = self
        cleared.top = newTop
        cleared.made = RGBAImage(width: width, height: height - newTop, pixels: rows)
        return cleared
    }

    /// Row pointers into a picture: `rows(y)` is row y's first pixel (its RGBA bytes as one word).
    struct Rows {
        fileprivate let layer: UnsafePointer<UInt32>
        fileprivate let layerWidth: Int
        fileprivate let made: UnsafePointer<UInt32>
        fileprivate let top: Int
        fileprivate let width: Int

        @inline(__always) func callAsFunction(_ y: Int) -> UnsafePointer<UInt32> {
            y < top ? layer + y &* layerWidth : made + (y &- top) &* width
        }
    }

    /// `body` with the picture's rows (valid only inside it).
    func withRows<R>(_ body: (Rows) throws -> R) rethrows -> R {
        try layer.pixels.withUnsafeBytes { rawLayer in
            try made.pixels.withUnsafeBytes { rawMade in
                // An empty buffer may have no address; its rows are never read.
                let none = UnsafeRawPointer(bitPattern: MemoryLayout<UInt32>.alignment)!
                return try body(Rows(layer: (rawLayer.baseAddress ?? none).assumingMemoryBound(to: UInt32.self) + layerX,
                                     layerWidth: layer.width,
                                     made: (rawMade.baseAddress ?? none).assumingMemoryBound(to: UInt32.self),
                                     top: top, width: width))
            }
        }
    }

    /// The bounding box of the pixels that differ from `other` (a picture of the same
    /// size), as ``RGBAImage/changedRect(from:)`` gives it.
    func changedRect(from other: FramePicture) -> (left: Int, top: Int, width: Int, height: Int) {
        precondition(other.width == width && other.height == height, "changedRect compares pictures of the same size")
        return withRows { a in
            other.withRows { b in RGBAImage.changedRect(width: width, height: height) { y in (a(y), b(y)) } }
        }
    }
}
