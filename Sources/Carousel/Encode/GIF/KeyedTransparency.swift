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

    /// Whether a pixel opaque in one planned frame (alpha 128 or more) is transparent in the
    /// next (alpha below 128), or in the first frame after the last (the GIF loops). Where
    /// none is, every GIF frame can draw over the one before (the scenes' changed
    /// rectangles, unchanged pixels transparent); where one is, that frame needs the
    /// canvas cleared under it.
    func dropsToTransparent() -> Bool {
        guard frames.count > 1 else { return false }
        var before = FramePicture(self, frame: frames.count - 1)
        for k in frames.indices {
            let now = FramePicture(self, frame: k)
            let drops = now.withRows { current in
                before.withRows { previous in
                    var found: UInt32 = 0
                    for y in 0..<height {
                        let a = previous(y), b = current(y)
                        // Alpha is the top byte, whose top bit says 128 or more: opaque before and
                        // transparent now sets it.
                        for x in 0..<width { found |= a[x] & ~b[x] }
                        if found >> 31 != 0 { return true }
                    }
                    return false
                }
            }
            if drops { return true }
            before = now
        }
        return false
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
