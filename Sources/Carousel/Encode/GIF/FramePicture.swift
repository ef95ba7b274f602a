import Foundation

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
    let top: Int
    /// The picture's rows from ``top`` down.
    let made: RGBAImage
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

    /// The whole picture, as ``FramePlan/picture`` makes it.
    var image: RGBAImage {
        withRows { rows in
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                for y in 0..<height {
                    UnsafeMutableRawPointer(buffer.baseAddress! + y * width * 4)
                        .copyMemory(from: rows(y), byteCount: width * 4)
                }
                count = width * height * 4
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// The bounding box of the pixels that differ from `other` (a picture of the same
    /// size), as (left, top, width, height); width 0 when none do.
    func changedRect(from other: FramePicture) -> (left: Int, top: Int, width: Int, height: Int) {
        precondition(other.width == width && other.height == height, "changedRect compares pictures of the same size")
        guard width > 0 && height > 0 else { return (0, 0, 0, 0) }
        var x0 = width, x1 = -1, y0 = height, y1 = -1
        withRows { a in
            other.withRows { b in
                for y in 0..<height {
                    let pa = a(y), pb = b(y)
                    // An unchanged row in one comparison; a changed one from each end to its first difference.
                    if pa == pb || memcmp(pa, pb, width * 4) == 0 { continue }
                    var first = 0, last = width - 1
                    while pa[first] == pb[first] { first += 1 }
                    while pa[last] == pb[last] { last -= 1 }
                    x0 = min(x0, first)
                    x1 = max(x1, last)
                    y0 = min(y0, y)
                    y1 = y
                }
            }
        }
        return x1 < 0 ? (0, 0, 0, 0) : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }
}
