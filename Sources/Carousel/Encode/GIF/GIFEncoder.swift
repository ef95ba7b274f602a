/// The looping GIF89a encoder (giflib): a palette per hold and per two moving frames (per
/// move with `.none`, the compact encoding), changed rectangles, unchanged pixels
/// transparent (`SceneEncoder`); a transparent background takes whole frames with their
/// own palettes instead.
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
            try writeWholeFrames(plan, to: writer, progress: progress)
        }
        try writer.close()
    }

    /// The path for a transparent background: every planned frame whole, with its own
    /// palette and a transparent entry, each replacing the last (no partial frames,
    /// since transparency there means the background, not "unchanged"). The dither
    /// pattern and the ``DitherMask`` are fixed to the strip, as in the scenes.
    private func writeWholeFrames(_ plan: FramePlan, to writer: borrowing GIFWriter,
                                  progress: (Int, Int) -> Void) throws(CarouselError) {
        let quantizer = Quantizer(maxColors: colors, dither: dither)
        let mask = dither == .ordered ? DitherMask(plan.layer) : nil
        for (k, frame) in plan.frames.enumerated() {
            let picture = quantizer.quantize(plan.picture(frame.source), originX: frame.layerX,
                                             undithered: mask?.cut(x: frame.layerX, width: plan.width, height: plan.height))
            try writer.write(picture, delay: frame.delay, clearAfter: true)
            progress(plan.framesDone(through: k), plan.timelineFrames)
        }
    }
}
