/// The looping GIF89a encoder (giflib): a palette per hold and per two moving frames (per
/// move with `.none`, the compact encoding), changed rectangles, unchanged pixels
/// transparent (`SceneEncoder`). A transparent background takes the same path while no
/// pixel turns transparent from one frame to the next (pixels with alpha below 128 are
/// transparent, the others opaque: ``FramePlan/binaryAlpha()``), since a GIF frame drawn
/// over the one before can keep a pixel but not clear it; otherwise whole frames with
/// their own palettes, each cleared before the next.
public struct GIFEncoder: AnimationEncoder {
    /// Palette size limit, 2...256.
    public var colors: Int
    /// Dithering when a palette is not exact.
    public var dither: Dither
    /// How many times the GIF plays.
    public var loop: LoopMode

    /// An encoder with the given palette limit, dithering and loop.
    public init(colors: Int = 256, dither: Dither = .ordered, loop: LoopMode = .forever) {
        self.colors = min(256, max(2, colors))
        self.dither = dither
        self.loop = loop
    }

    /// Encodes `plan` as a looping GIF on `sink`.
    ///
    /// Frames stream to giflib as they are made, scene by scene, so memory holds the
    /// layer and a few scenes whatever the number of frames.
    public func encode(_ plan: FramePlan, to sink: any ByteSink, name: String,
                       progress: (Int, Int) -> Void) throws(CarouselError) {
        let writer = try GIFWriter(sink: sink, name: name, width: plan.width, height: plan.height, loop: loop)
        if plan.background.a >= 128 {
            try SceneEncoder(plan: plan, colors: colors, dither: dither).encode(to: writer, progress: progress)
        } else {
            if plan.dropsToTransparent() {
                try writeWholeFrames(plan, to: writer, progress: progress)
            } else {
                try SceneEncoder(plan: plan.binaryAlpha(), colors: colors, dither: dither).encode(to: writer, progress: progress)
            }
        }
        try writer.close()
    }

    /// The path for a transparent background where pixels turn transparent
    /// (``FramePlan/dropsToTransparent()``): every planned frame whole, with its own
    /// palette and a transparent entry, each replacing the last (no partial frames,
    /// since transparency there means the background, not "unchanged"). The dither
    /// pattern and the ``DitherMask`` are fixed to the strip, as in the scenes. A moving
    /// frame next to a hold shows the hold's colours where its picture equals the hold's
    /// (``Quantizer/quantize(_:originX:undithered:beside:)``): content that stands still
    /// as a move starts or ends does not change colour with the palette.
    private func writeWholeFrames(_ plan: FramePlan, to writer: borrowing GIFWriter,
                                  progress: (Int, Int) -> Void) throws(CarouselError) {
        let quantizer = Quantizer(maxColors: colors, dither: dither)
        let mask = dither == .ordered ? DitherMask(plan.layer) : nil
        func holds(_ k: Int) -> Bool { !plan.scenes[plan.frames[k].scene].isMoving }
        func undithered(_ k: Int) -> [Bool]? { mask?.cut(x: plan.frames[k].layerX, width: plan.width, height: plan.height) }
        func alone(_ k: Int, _ picture: RGBAImage) -> IndexedFrame {
            quantizer.quantize(picture, originX: plan.frames[k].layerX, undithered: undithered(k))
        }
        // The frame before, and a hold after a moving frame, quantized ahead of its turn.
        var before: (k: Int, frame: IndexedFrame, picture: RGBAImage)?
        var ahead: (k: Int, frame: IndexedFrame, picture: RGBAImage)?
        for k in plan.frames.indices {
            let picture: RGBAImage, quantized: IndexedFrame
            if let ahead, ahead.k == k {
                (picture, quantized) = (ahead.picture, ahead.frame)
            } else {
                picture = plan.picture(plan.frames[k].source)
                var beside: [(frame: IndexedFrame, picture: RGBAImage)] = []
                if !holds(k) {
                    if let before, before.k == k - 1, holds(k - 1) { beside.append((before.frame, before.picture)) }
                    if k + 1 < plan.frames.count, holds(k + 1) {
                        let next = plan.picture(plan.frames[k + 1].source)
                        ahead = (k + 1, alone(k + 1, next), next)
                        beside.append((ahead!.frame, next))
                    }
                }
                quantized = beside.isEmpty ? alone(k, picture)
                    : quantizer.quantize(picture, originX: plan.frames[k].layerX, undithered: undithered(k), beside: beside)
            }
            try writer.write(quantized, delay: plan.frames[k].delay, clearAfter: true)
            before = (k, quantized, picture)
            progress(plan.framesDone(through: k), plan.timelineFrames)
        }
    }
}
