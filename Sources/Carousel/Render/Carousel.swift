import Dispatch
import Foundation

/// A carousel ready to render: items fitted, the padded strip built, every frame planned.
///
/// The pipeline reads top to bottom: images in, ``ItemFitter``, ``PaddedStrip``,
/// ``Timeline``, then per frame a crop of the strip with ``PageDots`` over it,
/// and for a GIF the ``Quantizer`` and ``GIFWriter``. `frame(_:)` returns exactly
/// the pictures the GIF encodes.
public struct Carousel: Sendable {
    /// The options it was made with.
    public let options: CarouselOptions
    /// Geometry: pitch, alignment, clones.
    public let geometry: Geometry
    /// The expanded timeline.
    public let timeline: Timeline
    /// The padded strip the frames are cut from.
    public let strip: RGBAImage
    /// The state of every frame.
    public let states: [FrameState]

    /// Lays out `images` with `options`.
    public init(images: [RGBAImage], options: CarouselOptions) throws(CarouselError) {
        try options.validate()
        guard let first = images.first else { throw .noImages }
        let width = options.size?.width ?? first.width
        let height = options.size?.height ?? first.height
        let geometry = try Geometry(count: images.count, width: width, height: height,
                                    itemWidth: options.itemWidth ?? width, spacing: options.spacing,
                                    alignment: options.align, clones: options.clones)
        guard geometry.stripWidth.multipliedReportingOverflow(by: height).partialValue <= 4 * PNGCodec.maximumPixels else {
            throw .option("--size", "the padded strip would be \(geometry.stripWidth)x\(height), over the limit of \(4 * PNGCodec.maximumPixels) pixels")
        }
        self.options = options
        self.geometry = geometry
        let fitted = Results<RGBAImage>(count: images.count)
        DispatchQueue.concurrentPerform(iterations: images.count) { k in
            fitted.set(k, ItemFitter.fit(images[k], width: geometry.itemWidth, height: height, mode: options.fit,
                                         background: options.background))
        }
        let items = fitted.values
        strip = PaddedStrip.build(items: items, geometry: geometry, background: options.background)
        timeline = try Timeline(script: options.script ?? .autoplay, count: images.count,
                                hold: TimeValue.microseconds(seconds: options.hold) ?? 0,
                                moveDuration: TimeValue.microseconds(seconds: options.duration) ?? 0,
                                easing: options.easing)
        states = timeline.frames(fps: options.fps)
        guard !states.isEmpty else {
            let script = options.script ?? .autoplay
            throw .script(source: script.source, step: 0, line: 0, text: "",
                          reason: "the timeline lasts \(Double(timeline.duration) / 1_000_000) s, less than one frame at \(options.fps) fps; it needs at least \(String(format: "%.3f", 0.5 / Double(options.fps))) s")
        }
    }

    /// Output width.
    public var width: Int { geometry.width }
    /// Output height: the viewport, plus the footer band when dots are in the footer.
    public var height: Int { geometry.height + options.dots.extraHeight }
    /// Number of frames, `round(T * fps)`.
    public var frameCount: Int { states.count }

    /// What `frames.json` says of frame `i`.
    public func info(_ i: Int) -> FrameInfo {
        let state = states[i]
        let x0 = geometry.x0(at: state.position)
        return FrameInfo(index: i, time: state.time, delay: FrameInfo.delay(frame: i, fps: options.fps),
                         x0: x0, stripX: geometry.stripX(forX0: x0), position: state.position,
                         page: page(i))
    }

    /// What decides frame `i`'s picture: its place in the periodic strip (modulo one
    /// period) and its lit page. Frames with equal keys are the same picture.
    public func pictureKey(_ i: Int) -> PictureKey {
        let period = geometry.count * geometry.pitch
        let x0 = geometry.x0(at: states[i].position)
        return PictureKey(x0: ((x0 % period) + period) % period, page: page(i))
    }

    /// The lit page (0-based) of frame `i` under `--dots-switch`.
    public func page(_ i: Int) -> Int {
        options.dotsSwitch.page(for: states[i], count: geometry.count)
    }

    /// Frame `i`: the viewport's crop of the strip, with the footer and dots.
    public func frame(_ i: Int) -> RGBAImage {
        picture(at: states[i].position, page: page(i))
    }

    /// The picture at position `position` (pages) with page `page` lit: what any frame at that position shows.
    public func picture(at position: Double, page: Int) -> RGBAImage {
        let stripX = geometry.stripX(forX0: geometry.x0(at: position))
        let view = strip.cropped(x: stripX, width: geometry.width, height: geometry.height)
        var image: RGBAImage
        if options.dots.extraHeight > 0 {
            image = RGBAImage(width: width, height: height, fill: options.background)
            image.paste(view, x: 0, y: 0)
        } else {
            image = view
        }
        options.dots.draw(on: &image, count: geometry.count, current: page, viewportHeight: geometry.height)
        return image
    }

    /// The index of the frame shown at `seconds` (frame i is shown from `i / fps` until the next).
    public func frameIndex(at seconds: Double) throws(CarouselError) -> Int {
        let total = Double(timeline.duration) / 1_000_000
        guard seconds.isFinite, seconds >= 0, seconds < total || (frameCount == 1 && seconds == 0) else {
            throw .option("--at", "must be in 0..<\(total) seconds (the timeline's length), got \(seconds)")
        }
        return min(frameCount - 1, Int((seconds * Double(options.fps)).nextUp.rounded(.down)))
    }
}

/// Identifies a frame's picture: equal keys, equal pictures.
public struct PictureKey: Hashable, Sendable {
    /// Offset in the periodic strip, reduced to one period.
    public let x0: Int
    /// Lit page.
    public let page: Int
}

/// One frame as `frames.json` describes it.
public struct FrameInfo: Equatable, Sendable, Codable {
    /// Frame index i.
    public let index: Int
    /// Time `i / fps` in seconds.
    public let time: Double
    /// Delay in centiseconds before the next frame (before merging).
    public let delay: Int
    /// Offset in the periodic strip, `round(p * pitch) - a`.
    public let x0: Int
    /// Column of the padded strip (as `carousel strip` writes it) at the viewport's left edge.
    public let stripX: Int
    /// Position p in pages.
    public let position: Double
    /// Lit page, 0-based.
    public let page: Int

    /// The spec's delay of frame `i`: `round(100 (i+1) / fps) - round(100 i / fps)`, half up.
    public static func delay(frame i: Int, fps: Int) -> Int {
        func centiseconds(_ k: Int) -> Int { (200 * k + fps) / (2 * fps) }
        return centiseconds(i + 1) - centiseconds(i)
    }
}
