/// A carousel ready to render: items fitted, the padded strip built, every frame planned.
///
/// The pipeline reads top to bottom: images in, ``ItemFitter``, ``PaddedStrip``,
/// ``Timeline``, then per frame a crop of the strip with its ``Overlay``s drawn
/// over it; ``plan()`` hands the frames to an encoder as a ``FramePlan``.
/// `frame(index:)` returns exactly the pictures an encoder encodes.
public struct Carousel: Sendable {
    /// The options it was made with.
    public let options: CarouselOptions
    /// Geometry: pitch, alignment, clones.
    public let geometry: Geometry
    /// The expanded timeline.
    public let timeline: Timeline
    /// The padded strip the frames are cut from.
    public let strip: RGBAImage
    /// The state of every frame, each worked out when it is read.
    public let states: FrameStates
    /// What is drawn over every frame, bottom first.
    public let overlays: [any Overlay]

    /// The most pixels the padded strip may hold (four times the image size cap).
    public static let maximumStripPixels = 4 * PNGCodec.maximumPixels

    /// Lays out `images` with `options`.
    ///
    /// Everything that can be refused is refused before pixel memory is allocated:
    /// options, geometry, the strip's size and the timeline's length.
    public init(images: [RGBAImage], options: CarouselOptions = CarouselOptions()) throws(CarouselError) {
        try options.validate()
        guard let first = images.first else { throw .noImages }
        // A decoded PNG has at least one pixel each way; an image made in code may have none.
        if let k = images.firstIndex(where: { $0.width < 1 || $0.height < 1 }) {
            throw .input("image \(k + 1)", "is \(images[k].width)x\(images[k].height); an image needs at least one pixel each way")
        }
        try self.init(count: images.count, firstSize: (first.width, first.height), options: options,
                      imageFailure: { () throws(CarouselError) in }, image: { .success(images[$0]) })
    }

    /// Lays out `count` images with `options`, image 0 being `firstSize`: `image(k)` gives
    /// image k, and each is fitted to its item as soon as it is given and then dropped, so a
    /// caller that decodes them there (``init(contentsOf:options:)``) holds at most one source
    /// picture a core at a time, not every one.
    ///
    /// A refusal found before the images are fitted (the options, geometry, the strip's size,
    /// the timeline) comes after `imageFailure`, which throws the first image that cannot be
    /// had, in order, if any: a bad image is named before a bad option, as when every image
    /// was decoded first. Among the images, the first failure in order is thrown.
    init(count: Int, firstSize: (width: Int, height: Int), options: CarouselOptions,
         imageFailure: () throws(CarouselError) -> Void,
         image: @Sendable (Int) -> Result<RGBAImage, CarouselError>) throws(CarouselError) {
        let width: Int, height: Int, geometry: Geometry, timeline: Timeline
        do throws(CarouselError) {
            try options.validate()
            width = options.size?.width ?? firstSize.width
            height = options.size?.height ?? firstSize.height
            guard PixelSize.dimensions.contains(width), PixelSize.dimensions.contains(height) else {
                throw .invalidOption(key: .size, reason: "the first image is \(width)x\(height); give a viewport of at most 65535x65535")
            }
            geometry = try Geometry(count: count, width: width, height: height,
                                    itemWidth: options.itemWidth ?? width, spacing: options.spacing,
                                    alignment: options.align, clones: options.clones)
            let (pixels, overflow) = geometry.stripWidth.multipliedReportingOverflow(by: height)
            guard !overflow, pixels <= Carousel.maximumStripPixels else {
                // Named after what set the strip's length: explicit clones; or else the larger part
                // of the pitch, the spacing or the item width, where it was given; or the viewport.
                let key: OptionKey = options.clones != .auto ? .clones
                    : options.spacing > (options.itemWidth ?? width) ? .spacing
                    : options.itemWidth != nil ? .itemWidth : .size
                let items = geometry.leftClones + geometry.count + geometry.rightClones
                throw .invalidOption(key: key, reason: "the padded strip would be \(geometry.stripWidth)x\(height) (\(items) items "
                                     + "and clones, \(geometry.pitch) px apart), over the limit of \(Carousel.maximumStripPixels) pixels")
            }
            timeline = try Timeline(script: options.script ?? .autoplay, count: count, pitch: geometry.pitch,
                                    hold: options.hold, moveDuration: options.duration, easing: options.easing,
                                    written: options.script != nil)
            guard timeline.frameCount(fps: options.fps) > 0 else { throw Carousel.tooShort(timeline, options) }
        } catch {
            try imageFailure()
            throw error
        }
        self.options = options
        self.geometry = geometry
        self.timeline = timeline
        let fitted = Array(0..<count).parallelMap { k in
            image(k).map { ItemFitter.fit($0, width: geometry.itemWidth, height: height, mode: options.fit, background: options.background) }
        }
        var items: [RGBAImage] = []
        items.reserveCapacity(count)
        for item in fitted { items.append(try item.get()) }
        strip = PaddedStrip.build(items: items, geometry: geometry, background: options.background)
        states = timeline.frameStates(fps: options.fps)
        // With one page the carousel is a still (spec section 2): no dots, and no finger drawn
        // over content that cannot scroll, as apps stop a one-item carousel scrolling.
        var overlays: [any Overlay] = []
        if options.dots.placement != .none && count > 1 { overlays.append(options.dots) }
        if options.touches.mode == .show && count > 1 && timeline.segments.contains(where: { $0.finger != nil }) {
            overlays.append(options.touches)
        }
        self.overlays = overlays
    }

    private static func tooShort(_ timeline: Timeline, _ options: CarouselOptions) -> CarouselError {
        // Seconds as a person writes them, to the microsecond every time has: `0.000001`,
        // `0`, never an exponent or seventeen digits.
        func seconds(_ time: MediaTime) -> String {
            let text = Numerals.plain(time.seconds)
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        // The shortest timeline with a frame: round(T * fps) >= 1, T in whole microseconds.
        let least = MediaTime(microseconds: (500_000 + options.fps - 1) / options.fps)
        let reason = "the timeline lasts \(seconds(timeline.length)) s, less than one frame at \(options.fps) fps; "
            + "it needs at least \(seconds(least)) s"
        guard let script = options.script else {
            return .invalidOption(key: .hold, reason: "with hold \(seconds(options.hold)) s and duration \(seconds(options.duration)) s \(reason)")
        }
        return .script(source: script.source, step: 0, line: 0, text: "", reason: reason)
    }

    /// Output width.
    public var width: Int { geometry.width }
    /// Output height: the viewport, plus the footer band when dots are in the footer.
    public var height: Int { geometry.height + options.dots.extraHeight }
    /// Number of frames, `round(T * fps)`.
    ///
    /// The methods that take a frame `index` (``frame(index:)``, ``info(index:)``,
    /// ``page(index:)``, ``touch(index:)``, ``touches(index:)``, ``pictureKey(index:)``)
    /// take `0..<frameCount` and trap outside it, as an array's subscript does;
    /// ``frame(at:)`` and ``frameIndex(at:)`` throw for a time outside the timeline.
    public var frameCount: Int { states.count }

    /// How long the frames play, in seconds: ``frameCount`` / fps, what a player reports for
    /// the file. The script's length (``Timeline/length``) can differ by up to half a frame:
    /// the default script over the five sample banners (hold 2 s, duration 0.3 s) lasts
    /// 11.5 s and makes `round(11.5 x 25)` = 288 frames, which play 11.52 s.
    public var playLength: Double { Double(frameCount) / Double(options.fps) }

    /// What `frames.json` says of frame `index`.
    public func info(index i: Int) -> FrameInfo {
        let state = states[i]
        let x0 = geometry.x0(of: state)
        return FrameInfo(index: i, time: Double(i) / Double(options.fps), delay: FrameInfo.delay(frame: i, fps: options.fps),
                         x0: x0, stripX: geometry.stripX(forX0: x0), position: state.position, page: page(index: i),
                         phase: state.phase, touch: touch(index: i))
    }

    /// What decides frame `index`'s picture: its place in the periodic strip (modulo one
    /// period), its lit page and the touch indicator. Frames with equal keys are the same picture.
    public func pictureKey(index i: Int) -> PictureKey {
        let period = geometry.count * geometry.pitch
        let x0 = geometry.x0(of: states[i])
        let touches = touches(index: i)
        return PictureKey(x0: ((x0 % period) + period) % period, page: page(index: i), touch: touches.last,
                          lifted: Array(touches.dropLast()))
    }

    /// The touch indicator of frame `index`, if any: the finger down, or else the one lifted
    /// last, fading (`frames.json`'s `touch`).
    public func touch(index i: Int) -> TouchPoint? {
        touches(index: i).last
    }

    /// Every touch indicator drawn in frame `index`, bottom first: fingers lifted before
    /// ``touch(index:)``'s and still fading, then that one.
    public func touches(index i: Int) -> [TouchPoint] {
        // Out of range traps, as for every index, with or without an indicator.
        let state = states[i]
        guard overlays.contains(where: { $0 is TouchIndicator }) else { return [] }
        return options.touches.touches(in: overlayFrame(state, page: page(index: i)))
    }

    /// The rows of one frame made for ``samePixels(_:_:made:)``, kept for the next call.
    struct MadeRows {
        /// The frame they are of.
        let frame: Int
        /// Which rows.
        let rows: Range<Int>
        /// The rows, as ``frame(index:rows:)`` makes them.
        let image: RGBAImage
    }

    /// Whether frames `i` and `j` show the same pixels, whatever their keys: a picture of one
    /// colour sliding with no gap or dots to show it, a page lit where no dots are drawn.
    /// Outside the rows the overlays' boxes span, a frame's rows are its crop of the strip
    /// (and the footer's background), so those are compared in the strip, row by row until
    /// one differs (on moving content, the first); only where they all match are the rows
    /// the boxes span made for both and compared. `made` keeps the rows made for `j`, which
    /// the next call, asking about `j` and `j + 1`, takes when the boxes span the same rows
    /// (a touch indicator moving along a row).
    func samePixels(_ i: Int, _ j: Int, made: inout MadeRows?) -> Bool {
        let boxes = [i, j].flatMap { k in
            overlays.flatMap { $0.boxes(for: overlayFrame(states[k], page: page(index: k))) }
        }
        let top = max(0, boxes.map(\.y0).min() ?? 0), bottom = min(height, boxes.map(\.y1).max() ?? 0)
        let rows = top..<max(top, bottom)
        let xi = geometry.stripX(forX0: geometry.x0(of: states[i]))
        let xj = geometry.stripX(forX0: geometry.x0(of: states[j]))
        if xi != xj {
            for y in 0..<geometry.height where !rows.contains(y) {
                if !strip.pixelsMatch(row: y, xi, xj, count: geometry.width) { return false }
            }
        }
        guard !rows.isEmpty else { return true }
        let before = made.flatMap { $0.frame == i && $0.rows == rows ? $0.image : nil } ?? frame(index: i, rows: rows)
        let after = frame(index: j, rows: rows)
        made = MadeRows(frame: j, rows: rows, image: after)
        return before == after
    }

    /// The lit page (0-based) of frame `index` under `--dots-switch`.
    public func page(index i: Int) -> Int {
        options.dotsSwitch.page(for: states[i], count: geometry.count)
    }

    /// Frame `index`: the viewport's crop of the strip, with the footer and the overlays.
    public func frame(index i: Int) -> RGBAImage {
        picture(of: states[i], page: page(index: i))
    }

    /// The frame shown at `time` (``frameIndex(at:)``), exactly as an encoder gets it;
    /// throws ``CarouselError/timeOutsideTimeline(_:length:)`` outside the timeline.
    public func frame(at time: MediaTime) throws(CarouselError) -> RGBAImage {
        frame(index: try frameIndex(at: time))
    }

    /// The index of the frame shown at `time`: frame i is shown from `i / fps`, to the
    /// microsecond, until the next (``Timeline/frameIndex(at:fps:)``), so a frame's
    /// ``FrameInfo/time`` gives that frame.
    public func frameIndex(at time: MediaTime) throws(CarouselError) -> Int {
        try timeline.frameIndex(at: time, fps: options.fps)
    }

    /// The picture at `position` (pages) with `page` lit: what any resting frame there shows.
    /// Pages repeat every ``Geometry/count``, as positions do: `page` -1 is the last page.
    public func picture(at position: Double, page: Int) -> RGBAImage {
        let count = geometry.count, lit = (page % count + count) % count
        return picture(of: FrameState(index: 0, position: position, from: lit, to: lit, moving: false, jumped: false), page: lit)
    }

    /// Frame `index`'s rows from row `top` (at most ``height``) down, exactly as
    /// ``frame(index:)`` has them.
    func frame(index i: Int, from top: Int) -> RGBAImage {
        frame(index: i, rows: top..<height)
    }

    /// Frame `index`'s rows `rows` (within 0..<``height``), exactly as ``frame(index:)`` has them.
    func frame(index i: Int, rows: Range<Int>) -> RGBAImage {
        picture(of: states[i], page: page(index: i), rows: rows)
    }

    /// Rows `rows` of the picture of `state` with `page` lit (every row by default).
    private func picture(of state: FrameState, page: Int, rows: Range<Int>? = nil) -> RGBAImage {
        let rows = rows ?? 0..<height
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "Carousel.picture: rows \(rows) are outside 0..<\(height)")
        let stripX = geometry.stripX(forX0: geometry.x0(of: state))
        // The viewport's crop with the footer band below it, in one buffer.
        let cropTop = min(rows.lowerBound, geometry.height), cropBottom = min(rows.upperBound, geometry.height)
        var image = strip.cropped(x: stripX, y: cropTop, width: geometry.width, height: cropBottom - cropTop,
                                  padding: max(0, rows.upperBound - max(rows.lowerBound, geometry.height)),
                                  fill: options.background)
        let frame = overlayFrame(state, page: page)
        for overlay in overlays { overlay.draw(on: &image, top: rows.lowerBound, frame: frame) }
        return image
    }

    /// What the overlays know of a frame.
    func overlayFrame(_ state: FrameState, page: Int) -> OverlayFrame {
        OverlayFrame(state: state, page: page, count: geometry.count, width: width, viewportHeight: geometry.height)
    }
}

/// Identifies a frame's picture: equal keys, equal pictures.
public struct PictureKey: Hashable, Sendable {
    /// Offset in the periodic strip, reduced to one period.
    public let x0: Int
    /// Lit page.
    public let page: Int
    /// The touch indicator, if drawn: the finger down, or else the one lifted last.
    public let touch: TouchPoint?
    /// The indicators of fingers lifted before ``touch``'s, still fading, bottom first.
    public let lifted: [TouchPoint]
}
