/// What a palette group's frames drew last at each pixel of the canvas, where frames are
/// cleared: a frame after a cleared one draws every opaque pixel of the cleared rectangle
/// again, and a pixel whose picture did not change would take the index its new place in
/// the layer maps to, which is another entry where that place is an edge or texture (left
/// undithered by the layer's ``DitherMask``) or repeats its left neighbour's index
/// (``SceneEncoder/orderedRunSlack``). Drawn again with the index the group drew there before,
/// it does not change on screen. Only the pixels the group itself drew are kept: one drawn by
/// the group before, with another palette, is drawn afresh.
///
/// Not used with Floyd–Steinberg diffusion, where an index belongs to the pattern its
/// neighbours' errors made: kept among neighbours that moved, it left a finger's drag and the
/// rest after it about 0.8 lower (docs/behaviour.md, *Still pixels keep their entry*).
struct ShownIndices {
    private let width: Int
    /// Each pixel's index as last drawn by the group's frames, or -1 where none drew it.
    private var shown: [Int16]
    /// The picture of the group's frame before, whose unchanged pixels keep their index.
    private var before: FramePicture?

    init(width: Int, height: Int) {
        self.width = width
        shown = [Int16](repeating: -1, count: width * height)
    }

    /// Starts from the indices the group before left (``indices``) after showing `picture`,
    /// where this group has the same palette.
    mutating func seed(_ indices: [Int16], picture: FramePicture) {
        if indices.count == shown.count { shown = indices }
        before = picture
    }

    /// Each pixel's index as last drawn by the group's frames, or -1 where none drew it.
    var indices: [Int16] { shown }

    /// `frame` (drawn at `left`, `top`, showing `picture`) with each drawn pixel that shows
    /// the same colour as in the group's frame before, and that the group drew, taking the
    /// index drawn there last; then records what it draws.
    mutating func keep(_ frame: IndexedFrame, left: Int, top: Int, picture: FramePicture) -> IndexedFrame {
        defer { before = picture }
        let transparent = frame.transparentIndex ?? Int(UInt16.max)
        var indices = frame.indices
        let w = frame.width, width = self.width, kept: UInt8 = before != nil ? 1 : 0
        picture.withRows { current in
            (before ?? picture).withRows { previous in
                indices.withUnsafeMutableBufferPointer { indices in
                    shown.withUnsafeMutableBufferPointer { shown in
                        for y in 0..<frame.height {
                            // Through pointers; the conditions as 0 or 1 and-ed, without branches.
                            let now = current(top + y) + left, then = previous(top + y) + left
                            let out = indices.baseAddress! + y * w, last = shown.baseAddress! + ((top + y) * width + left)
                            for x in 0..<w {
                                let index = out[x], earlier = last[x]
                                let drawn: UInt8 = Int(index) != transparent ? 1 : 0
                                let keeps = kept & drawn & (now[x] == then[x] ? 1 : 0) & (earlier >= 0 ? 1 : 0)
                                let chosen = keeps != 0 ? UInt8(truncatingIfNeeded: earlier) : index
                                out[x] = chosen
                                last[x] = drawn != 0 ? Int16(chosen) : earlier
                            }
                        }
                    }
                }
            }
        }
        return IndexedFrame(width: w, height: frame.height, palette: frame.palette, indices: indices,
                            transparentIndex: frame.transparentIndex)
    }
}
