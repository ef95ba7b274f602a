#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The looping GIF89a encoder (giflib): a palette per hold and per two moving frames (per
/// move with `.none`, the compact encoding), changed rectangles, unchanged pixels
/// transparent (`SceneEncoder`). On a transparent background, pixels with alpha below 128
/// are transparent and the others opaque, and a frame before one that turns pixels
/// transparent is cleared once shown (GIF disposal 2); with fewer than 128 colours where
/// pixels turn transparent, whole frames with their own palettes instead, each cleared
/// before the next.
public struct GIFEncoder: AnimationEncoder {
    /// Palette size limit, 2...256; a value past either end is taken as that end, here and
    /// in ``init(colors:dither:loop:)``.
    public var colors: Int {
        didSet { colors = GIFEncoder.clamped(colors) }
    }
    /// Dithering when a palette is not exact.
    public var dither: Dither
    /// How many times the GIF plays.
    public var loop: LoopMode

    /// An encoder with the given palette limit, dithering and loop.
    public init(colors: Int = 256, dither: Dither = .ordered, loop: LoopMode = .forever) {
        self.colors = GIFEncoder.clamped(colors)
        self.dither = dither
        self.loop = loop
    }

    static func clamped(_ colors: Int) -> Int { min(256, max(2, colors)) }

    /// Encodes `plan` as a looping GIF on `sink`.
    ///
    /// Frames stream to giflib as they are made, scene by scene, so memory holds the
    /// layer and a few scenes whatever the number of frames.
    public func encode(_ plan: FramePlan, to sink: any ByteSink, name: String,
                       progress: (Int, Int) -> Void) throws(CarouselError) {
        // The encoder's threads are started first, waiting: a run the system gives none stops
        // before the GIF's first byte. The writer comes next, so that one that cannot write
        // (a full disk, a closed pipe) fails before any frame is worked on.
        let workers = Workers.reserve(ProcessInfo.processInfo.activeProcessorCount)
        var path: Path?
        if workers.count == 0 {
            // Only the whole frames are written without threads: the path is chosen first.
            path = self.path(plan)
            if case .scenes = path { throw .output(name, SceneEncoder.noThread) }
        }
        let writer = try GIFWriter(sink: sink, name: name, width: plan.width, height: plan.height, loop: loop)
        switch path ?? self.path(plan) {
        case .scenes(let plan, let canvas):
            try SceneEncoder(plan: plan, colors: colors, dither: dither, canvas: canvas)
                .encode(to: writer, on: workers, progress: progress)
        case .wholeFrames:
            workers.release()
            try writeWholeFrames(plan, to: writer, progress: progress)
        }
        try writer.close()
    }

    /// How a plan is encoded: as scenes (the plan, keyed to binary alpha on a transparent
    /// background, with where its frames turn pixels transparent), or as whole frames.
    private enum Path {
        case scenes(FramePlan, FrameCanvas?)
        case wholeFrames
    }

    private func path(_ plan: FramePlan) -> Path {
        guard plan.background.a < 128 else { return .scenes(plan, nil) }
        // Where the frames turn pixels transparent is worked out once, for the choice of
        // path and for the scenes.
        let keyed = plan.binaryAlpha()
        let canvas = FrameCanvas(keyed)
        if colors < GIFEncoder.scenesWhereDropsFrom && canvas.clears.contains(true) { return .wholeFrames }
        return .scenes(keyed, canvas)
    }

    /// The fewest colours with which a transparent background where pixels turn transparent
    /// takes the scenes, each frame before one that turns pixels transparent cleared once
    /// shown. Measured with `python3 bench/transparent-check.py BIN -- --spacing 16
    /// --item-width 560 --colors N` (bytes; pixels that change where the exact frames do
    /// not; SSIMULACRA2 on white, mean and worst of every 12th frame), scenes against whole
    /// frames: 256 colours 2,086,596 / 4,873 / 88.56 (80.88) against 2,780,576 / 9,563 /
    /// 88.37 (80.43); 192 1,893,917 / 5,279 / 86.01 (79.77) against 2,547,126 / 12,213 /
    /// 86.25 (76.53); 128 1,637,794 / 6,094 / 81.92 (75.34) against 2,217,334 / 15,789 /
    /// 81.53 (73.75); but 64 1,222,104 / 6,212 / 71.95 (50.96) against 1,642,554 / 17,816
    /// / 74.08 (60.16), and 16 637,319 / 15,268 / 33.49 (4.29) against 856,948 / 61,402 /
    /// 38.94 (22.41): with few colours, the hold's colours a moving frame keeps for the
    /// pixels it draws again leave too few for the rest of it.
    static let scenesWhereDropsFrom = 128

    /// `frame` with a transparent entry after its palette where it has none (no pixel of it
    /// transparent). Every whole frame is cleared once shown: giflib and browsers clear it
    /// to transparent whatever the frame, but Pillow only a frame with a transparent entry
    /// (it fills one without with the background colour), and it composites every frame
    /// after a first frame without one as opaque. The entry takes a slot the colour table's
    /// padding to a power of two leaves where there is one; otherwise it doubles the table.
    /// Whole frames have fewer than ``scenesWhereDropsFrom`` colours, so there is room; a
    /// full palette (never a whole frame's) is left as it is.
    static func withTransparentEntry(_ frame: IndexedFrame) -> IndexedFrame {
        guard frame.transparentIndex == nil, frame.palette.count < 256 else { return frame }
        return IndexedFrame(width: frame.width, height: frame.height, palette: frame.palette + [.clear],
                            indices: frame.indices, transparentIndex: frame.palette.count)
    }

    /// The path for a transparent background with fewer than ``scenesWhereDropsFrom``
    /// colours where pixels turn transparent (where ``FrameCanvas`` clears a frame): every
    /// planned frame whole, with its own
    /// palette and a transparent entry, each replacing the last (no partial frames,
    /// since transparency there means the background, not "unchanged"). The dither
    /// pattern and the ``DitherMask`` are fixed to the strip, as in the scenes. A moving
    /// frame next to a hold shows the hold's colours where its picture equals the hold's
    /// (``Quantizer/quantize(_:originX:undithered:beside:)``): content that stands still
    /// as a move starts or ends does not change colour with the palette.
    private func writeWholeFrames(_ plan: FramePlan, to writer: borrowing GIFWriter,
                                  progress: (Int, Int) -> Void) throws(CarouselError) {
        let quantizer = Quantizer(maxColors: colors, dither: dither)
        let mask = dither == .ordered ? DitherMask(plan.layer, colors: colors) : nil
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
            try writer.write(GIFEncoder.withTransparentEntry(quantized), delay: plan.frames[k].delay, clearAfter: true)
            before = (k, quantized, picture)
            progress(plan.framesDone(through: k), plan.timelineFrames)
        }
    }
}
