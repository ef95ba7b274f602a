/// The frames an encoder writes, planned: identical consecutive frames merged, each
/// with its delay, grouped in scenes, with what the encoder may exploit about them.
///
/// An encoder consumes a plan and knows nothing of carousels. What it may rely on:
/// the top ``layer``.height rows of every picture are the crop of ``layer`` that starts
/// at its frame's ``Frame/layerX``, except inside the frame's ``Frame/overlayBoxes``;
/// rows below the layer are ``background`` outside the boxes; the colours in
/// ``reservedColors`` are drawn at full coverage inside the boxes. A scene is a run of
/// frames from one timeline segment (one rest, or one move).
public struct FramePlan: Sendable {
    /// A run of frames from one timeline segment.
    public struct Scene: Sendable {
        /// The frames, indices into ``FramePlan/frames``.
        public let frames: Range<Int>
        /// Whether the layer moves under them (their ``Frame/layerX`` differ), rather than a
        /// still layer with only overlays changing.
        public let isMoving: Bool
    }

    /// One frame to encode.
    public struct Frame: Sendable {
        /// The first timeline frame it shows.
        public let source: Int
        /// How many consecutive timeline frames it stands for.
        public internal(set) var span: Int
        /// How long it shows, in centiseconds, by cumulative rounding of `i / fps`.
        public internal(set) var delay: Int
        /// The scene (index into ``FramePlan/scenes``) it belongs to.
        public internal(set) var scene: Int
        /// Where its picture's top rows start in ``FramePlan/layer``.
        public let layerX: Int
        /// Boxes the overlays may have drawn in.
        public let overlayBoxes: [PixelBox]
    }

    /// Picture width.
    public let width: Int
    /// Picture height.
    public let height: Int
    /// Frames per second of the timeline.
    public let fps: Int
    /// Number of timeline frames.
    public let timelineFrames: Int
    /// The frames in order.
    public let frames: [Frame]
    /// Runs of ``frames`` from one timeline segment.
    public let scenes: [Scene]
    /// The image every picture's top rows are cut from.
    public let layer: RGBAImage
    /// The colour of the rows below the layer, and of transparent input.
    public let background: RGBA
    /// Colours the overlays draw, to keep exact in a palette.
    public let reservedColors: [RGBA]
    /// The rows of timeline frame `i` from row `top` down, exactly as ``picture(_:)`` has
    /// them: the rows an encoder cannot take from the ``layer`` (the overlays', the footer's)
    /// without a copy of the whole picture.
    public let pictureRows: @Sendable (_ i: Int, _ top: Int) -> RGBAImage

    /// The longest delay of one planned frame: a GIF's 16-bit centiseconds.
    public static let maximumDelay = 65535

    /// Plans `count` timeline frames: consecutive frames with the same `key`, or whose
    /// pixels are the same (`samePixels(i - 1, i)`, asked where the keys differ), merge (up
    /// to ``maximumDelay``); `segment(i)` groups frames into scenes.
    init<Key: Equatable>(width: Int, height: Int, fps: Int, count: Int, layer: RGBAImage, background: RGBA,
                         reservedColors: [RGBA], key: (Int) -> Key, samePixels: (Int, Int) -> Bool,
                         segment: (Int) -> Int, moving: (Int) -> Bool,
                         layerX: (Int) -> Int, overlayBoxes: (Int) -> [PixelBox],
                         pictureRows: @escaping @Sendable (Int, Int) -> RGBAImage) {
        var frames: [Frame] = []
        var scenes: [Scene] = []
        var lastKey: Key?
        var lastSegment = 0
        // Frames whose overlays draw in the same boxes (the dots, most often) share one array
        // of them, so a frame costs the same few words whatever its overlays.
        var lastBoxes: [PixelBox] = []
        func endScene() {
            let start = scenes.last?.frames.upperBound ?? 0
            guard start < frames.count else { return }
            let range = start..<frames.count
            scenes.append(Scene(frames: range, isMoving: range.count > 1 && moving(frames[range.lowerBound].source)))
        }
        for i in 0..<count {
            let delay = FrameInfo.delay(frame: i, fps: fps)
            let k = key(i)
            if let lastKey, k == lastKey || samePixels(i - 1, i),
               frames[frames.count - 1].delay + delay <= FramePlan.maximumDelay {
                frames[frames.count - 1].delay += delay
                frames[frames.count - 1].span += 1
            } else {
                let s = segment(i)
                if !frames.isEmpty && s != lastSegment { endScene() }
                lastSegment = s
                let boxes = overlayBoxes(i)
                if boxes != lastBoxes { lastBoxes = boxes }
                frames.append(Frame(source: i, span: 1, delay: delay, scene: scenes.count, layerX: layerX(i), overlayBoxes: lastBoxes))
            }
            lastKey = k
        }
        endScene()
        self.width = width
        self.height = height
        self.fps = fps
        timelineFrames = count
        self.frames = frames
        self.scenes = scenes
        self.layer = layer
        self.background = background
        self.reservedColors = reservedColors
        self.pictureRows = pictureRows
    }

    /// `plan` with another layer, background and pictures, the frames and scenes the same.
    init(copying plan: FramePlan, layer: RGBAImage, background: RGBA,
         pictureRows: @escaping @Sendable (Int, Int) -> RGBAImage) {
        width = plan.width
        height = plan.height
        fps = plan.fps
        timelineFrames = plan.timelineFrames
        frames = plan.frames
        scenes = plan.scenes
        self.layer = layer
        self.background = background
        reservedColors = plan.reservedColors
        self.pictureRows = pictureRows
    }

    /// Timeline frame `i`, exactly: all its rows.
    ///
    /// - Precondition: `i` is in `0..<timelineFrames`.
    public func picture(_ i: Int) -> RGBAImage {
        precondition(i >= 0 && i < timelineFrames, "FramePlan.picture: frame \(i) of \(timelineFrames)")
        return pictureRows(i, 0)
    }

    /// The timeline frames done once planned frame `k` is written, for progress.
    ///
    /// - Precondition: `k` is in `frames.indices`.
    public func framesDone(through k: Int) -> Int {
        precondition(frames.indices.contains(k), "FramePlan.framesDone: planned frame \(k) of \(frames.count)")
        return k + 1 < frames.count ? frames[k + 1].source : timelineFrames
    }
}

extension Carousel {
    /// The frames an encoder writes: merged where the picture repeats (the same key, or the
    /// same pixels under another), grouped by timeline segment.
    public func plan() -> FramePlan {
        let g = geometry
        var reserved = overlays.flatMap(\.colors)
        if options.dots.placement == .footer { reserved.append(options.background.opaque) }
        let carousel = self
        var made: MadeRows?
        return FramePlan(
            width: width, height: height, fps: options.fps, count: frameCount,
            layer: strip, background: options.background, reservedColors: reserved,
            key: { pictureKey(index: $0) }, samePixels: { samePixels($0, $1, made: &made) }, segment: { states[$0].segment },
            moving: { timeline.segments[states[$0].segment].motion.isMoving },
            layerX: { g.stripX(forX0: g.x0(of: states[$0])) },
            overlayBoxes: { i in
                let frame = overlayFrame(states[i], page: page(index: i))
                return overlays.flatMap { $0.boxes(for: frame) }
            },
            pictureRows: { carousel.frame(index: $0, from: $1) })
    }
}
