import Dispatch
import Foundation

/// Encodes a carousel's GIF scene by scene, using what a carousel is: holds repeat one
/// picture, and moves slide a window across known items.
///
/// 1. **Plan.** Consecutive frames that show the same picture (same place in the
///    periodic strip, same lit dot) merge into one GIF frame with the summed delay.
/// 2. **Scenes.** The GIF frames of one timeline segment (a hold, or one move) form a
///    scene; its region is the part of the strip its frames show.
/// 3. **Palette and mapping, once per scene.** A palette is designed for the region
///    (exact when it has few colours), with the dot colours, the footer background and
///    a transparent entry reserved; then the whole region is mapped to indices once.
///    A frame is a crop of those indices, so the dither pattern travels with the
///    content. Scenes are prepared in parallel, in batches, with deterministic output.
/// 4. **Frames.** Each GIF frame covers only the rectangle that changed since the
///    previous frame, and inside it every pixel whose exact colour did not change is
///    transparent: unchanged pixels keep exactly what the viewer already shows (no
///    shimmer), and LZW sees long transparent runs. Dots are composited after mapping:
///    their pixels map from their exact colours, with the dot colours reserved.
struct SceneEncoder {
    let carousel: Carousel

    /// One GIF frame: the first timeline frame it shows and its summed delay.
    struct OutputFrame {
        let source: Int
        var delay: Int
        let segment: Int
        let stripX: Int
    }

    /// A scene made ready: its palette, mapper and the region's indices.
    struct PreparedScene: @unchecked Sendable {
        let regionX: Int
        let regionWidth: Int
        let indices: [UInt8]
        let palette: [RGBA]
        let mapper: ColorMapper
        let transparentIndex: Int
        let backgroundIndex: UInt8
    }

    /// The merged GIF frames.
    func plan() -> [OutputFrame] {
        var frames: [OutputFrame] = []
        var lastKey: PictureKey?
        for i in 0..<carousel.frameCount {
            let info = carousel.info(i)
            let key = carousel.pictureKey(i)
            if key == lastKey, frames[frames.count - 1].delay + info.delay <= 65535 {
                frames[frames.count - 1].delay += info.delay
            } else {
                frames.append(OutputFrame(source: i, delay: info.delay, segment: carousel.states[i].segment, stripX: info.stripX))
                lastKey = key
            }
        }
        return frames
    }

    /// Consecutive runs of GIF frames from the same timeline segment.
    func scenes(_ frames: [OutputFrame]) -> [Range<Int>] {
        var scenes: [Range<Int>] = []
        var start = 0
        for k in 1..<max(1, frames.count) where frames[k].segment != frames[k - 1].segment {
            scenes.append(start..<k)
            start = k
        }
        if !frames.isEmpty { scenes.append(start..<frames.count) }
        return scenes
    }

    /// Designs the scene's palette and maps its region.
    func prepare(_ frames: ArraySlice<OutputFrame>) -> PreparedScene {
        let options = carousel.options
        let g = carousel.geometry
        let xs = frames.map(\.stripX)
        let regionX = xs.min() ?? 0
        let regionWidth = (xs.max() ?? 0) - regionX + g.width
        let region = carousel.strip.cropped(x: regionX, width: regionWidth, height: g.height)
        let background = opaque(options.background)
        var reserved: [RGBA] = []
        if options.dots.placement != .none && g.count > 1 {
            reserved += [opaque(options.dots.currentColor), opaque(options.dots.color)]
        }
        if options.dots.placement == .footer { reserved.append(opaque(options.background)) }
        var unique: [RGBA] = []
        for c in reserved where !unique.contains(c) { unique.append(c) }
        // The palette also sees the dots as drawn in this scene's frames (edges blend with the content).
        var sample = region.pixels
        if !reserved.isEmpty {
            for frame in frames {
                let image = carousel.frame(frame.source)
                for box in dotBoxes(page: carousel.page(frame.source)) {
                    let x0 = max(0, box.x0), x1 = min(image.width, box.x1)
                    let y0 = max(0, box.y0), y1 = min(image.height, box.y1)
                    guard x0 < x1, y0 < y1 else { continue }
                    for y in y0..<y1 {
                        let row = y * image.width * 4
                        sample += image.pixels[(row + x0 * 4)..<(row + x1 * 4)]
                    }
                }
            }
            if options.dots.placement == .footer {
                sample += [background.r, background.g, background.b, 255]
            }
        }
        let designInput = RGBAImage(width: sample.count / 4, height: 1, pixels: sample)
        let moving = frames.count > 1
        let limit = moving ? SceneEncoder.moveColors(options.colors) : options.colors
        let (palette, exact) = PaletteDesigner(maxColors: limit - 1).design(designInput, reserved: unique)
        let mapper = ColorMapper(palette: palette)
        let indices = Quantizer.map(region, mapper: mapper, dither: exact ? .none : options.dither, transparentIndex: nil,
                                    runSlack: moving && !exact ? SceneEncoder.moveRunSlack : 0)
        return PreparedScene(regionX: regionX, regionWidth: regionWidth, indices: indices, palette: palette,
                             mapper: mapper, transparentIndex: palette.count,
                             backgroundIndex: mapper.nearest(Int32(background.r), Int32(background.g), Int32(background.b)))
    }

    private func opaque(_ c: RGBA) -> RGBA { RGBA(r: c.r, g: c.g, b: c.b) }

    /// Writes every GIF frame through `writer`; `progress` gets (timeline frames done, total).
    ///
    /// Scenes are prepared a batch at a time in parallel; then the batch's frames are
    /// composed and LZW-encoded in parallel, in contiguous runs (each from its exact frame
    /// and the one before it), and written in order. Output does not depend on scheduling.
    func encode(to writer: borrowing GIFWriter, progress: (Int, Int) -> Void) throws(CarouselError) {
        let frames = plan()
        let scenes = scenes(frames)
        let batch = max(2, 4 * ProcessInfo.processInfo.activeProcessorCount)
        var start = 0
        while start < scenes.count {
            let slice = Array(scenes[start..<min(scenes.count, start + batch)])
            let prepared = prepareConcurrently(slice.map { frames[$0] })
            let jobs: [(frame: Int, scene: Int)] = slice.enumerated().flatMap { s, range in range.map { ($0, s) } }
            let encoded = Results<Result<EncodedFrame, CarouselError>>(count: jobs.count)
            // Each worker takes a contiguous run of frames, so every exact frame is made once
            // and serves as the next frame's "previous" (only run boundaries make one twice).
            let runs = min(jobs.count, ProcessInfo.processInfo.activeProcessorCount)
            DispatchQueue.concurrentPerform(iterations: runs) { r in
                let range = (jobs.count * r / runs)..<(jobs.count * (r + 1) / runs)
                var previous = range.lowerBound > 0 || jobs[0].frame > 0
                    ? carousel.frame(frames[jobs[range.lowerBound].frame - 1].source) : nil
                for j in range {
                    let k = jobs[j].frame
                    let exact = carousel.frame(frames[k].source)
                    let indexed = compose(frames[k], exact: exact, previous: previous, scene: prepared[jobs[j].scene])
                    previous = exact
                    encoded.set(j, Result { () throws(CarouselError) in
                        try GIFWriter.encode(indexed.frame, left: indexed.left, top: indexed.top, delay: frames[k].delay,
                                             canvasWidth: carousel.width, canvasHeight: carousel.height)
                    })
                }
            }
            for (j, result) in encoded.values.enumerated() {
                try writer.write(result.get())
                let k = jobs[j].frame
                progress(k + 1 < frames.count ? frames[k + 1].source : carousel.frameCount, carousel.frameCount)
            }
            start += batch
        }
    }

    private func prepareConcurrently(_ scenes: [ArraySlice<OutputFrame>]) -> [PreparedScene] {
        let results = Results<PreparedScene>(count: scenes.count)
        DispatchQueue.concurrentPerform(iterations: scenes.count) { k in
            results.set(k, prepare(scenes[k]))
        }
        return results.values
    }

    /// The palette limit for a scene in motion: half the `--colors` limit. Moving frames
    /// are on screen briefly and make up most of the bytes; holds keep the full limit.
    static func moveColors(_ limit: Int) -> Int {
        max(2, limit / 2)
    }

    /// Extra squared error a moving pixel may take to repeat its left neighbour's index.
    static let moveRunSlack: Int32 = 16

    /// The GIF frame for `frame`: the rectangle that changed since `previous`, with every
    /// pixel whose exact colour did not change left transparent.
    func compose(_ frame: OutputFrame, exact: RGBAImage, previous: RGBAImage?,
                 scene: PreparedScene) -> (frame: IndexedFrame, left: Int, top: Int) {
        let viewportHeight = carousel.geometry.height
        let width = exact.width
        let rect = previous.map { changedRect(exact, $0) } ?? (0, 0, width, exact.height)
        let transparent = UInt8(scene.transparentIndex)
        guard rect.2 > 0 else {
            return (IndexedFrame(width: 1, height: 1, palette: scene.palette + [.clear], indices: [transparent],
                                 transparentIndex: scene.transparentIndex), 0, 0)
        }
        let (left, top, w, h) = rect
        let dots = dotBoxes(page: carousel.page(frame.source))
        var indices = [UInt8](repeating: transparent, count: w * h)
        let offset = frame.stripX - scene.regionX
        let hasPrevious = previous != nil
        let previousPixels = previous?.pixels ?? []
        exact.pixels.withUnsafeBytes { rawExact in
            previousPixels.withUnsafeBytes { rawPrevious in
                let current = rawExact.bindMemory(to: UInt32.self)
                let before = rawPrevious.bindMemory(to: UInt32.self)
                scene.indices.withUnsafeBufferPointer { region in
                    indices.withUnsafeMutableBufferPointer { out in
                        for y in top..<(top + h) {
                            let spans = dots.filter { y >= $0.y0 && y < $0.y1 }.map { $0.x0..<$0.x1 }
                            let row = y * width, outRow = (y - top) * w - left
                            let regionRow = y * scene.regionWidth + offset
                            for x in left..<(left + w) {
                                let c = current[row + x]
                                if hasPrevious && before[row + x] == c { continue }
                                if !spans.isEmpty && spans.contains(where: { $0.contains(x) }) {
                                    out[outRow + x] = scene.mapper.nearestExhaustive(Int32(c & 0xFF), Int32((c >> 8) & 0xFF),
                                                                                     Int32((c >> 16) & 0xFF))
                                } else if y < viewportHeight {
                                    out[outRow + x] = region[regionRow + x]
                                } else {
                                    out[outRow + x] = scene.backgroundIndex
                                }
                            }
                        }
                    }
                }
            }
        }
        return (IndexedFrame(width: w, height: h, palette: scene.palette + [.clear], indices: indices,
                             transparentIndex: scene.transparentIndex), left, top)
    }

    /// The bounding box of pixels that differ, as (left, top, width, height); width 0 when none do.
    func changedRect(_ a: RGBAImage, _ b: RGBAImage) -> (Int, Int, Int, Int) {
        var x0 = a.width, x1 = -1, y0 = a.height, y1 = -1
        a.pixels.withUnsafeBytes { ra in
            b.pixels.withUnsafeBytes { rb in
                let pa = ra.bindMemory(to: UInt32.self), pb = rb.bindMemory(to: UInt32.self)
                for y in 0..<a.height {
                    let row = y * a.width
                    var first = -1, last = -1
                    for x in 0..<a.width where pa[row + x] != pb[row + x] {
                        if first < 0 { first = x }
                        last = x
                    }
                    guard first >= 0 else { continue }
                    x0 = min(x0, first)
                    x1 = max(x1, last)
                    y0 = min(y0, y)
                    y1 = y
                }
            }
        }
        return x1 < 0 ? (0, 0, 0, 0) : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    /// Pixel boxes of the dots drawn for `page`.
    private func dotBoxes(page: Int) -> [(x0: Int, y0: Int, x1: Int, y1: Int)] {
        let g = carousel.geometry
        return carousel.options.dots.layout(count: g.count, current: page, width: carousel.width, viewportHeight: g.height)
            .map { dot in
                let r = dot.diameter / 2
                return (Int((dot.x - r).rounded(.down)), Int((dot.y - r).rounded(.down)),
                        Int((dot.x + r).rounded(.up)) + 1, Int((dot.y + r).rounded(.up)) + 1)
            }
    }

}

/// Values collected from concurrent workers, by index.
final class Results<Value>: @unchecked Sendable {
    private var items: [Value?]
    private let lock = NSLock()

    init(count: Int) { items = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ value: Value) {
        lock.lock()
        items[k] = value
        lock.unlock()
    }

    /// Every value, in index order (all must have been set).
    var values: [Value] { items.compactMap { $0 } }
}
