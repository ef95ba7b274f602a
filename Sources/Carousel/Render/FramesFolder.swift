import Dispatch
import Foundation

/// The layout of a `carousel frames` folder: `frame-00000.png` ... and `frames.json`.
public enum FramesFolder {
    /// Writes every frame of `carousel` as PNG and `frames.json` into `folder` (which must exist).
    ///
    /// A frame showing the same picture as the one before reuses its PNG bytes; the
    /// others are encoded in parallel, a batch at a time, and written in order.
    /// `progress` gets (frames written, total).
    public static func write(_ carousel: Carousel, to folder: URL, name: String,
                             progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        let batch = 8 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        var previous: (key: PictureKey, data: Data)?
        var start = 0
        while start < carousel.frameCount {
            let range = start..<min(carousel.frameCount, start + batch)
            let distinct = range.filter { i in
                carousel.pictureKey(i) != (i == range.lowerBound ? previous?.key : carousel.pictureKey(i - 1))
            }
            let encoded = Results<Result<Data, PNGError>>(count: distinct.count)
            DispatchQueue.concurrentPerform(iterations: distinct.count) { k in
                encoded.set(k, Result { () throws(PNGError) in try PNGCodec.encode(carousel.frame(distinct[k])) })
            }
            var byFrame: [Int: Data] = [:]
            for (k, result) in encoded.values.enumerated() {
                switch result {
                case .success(let data): byFrame[distinct[k]] = data
                case .failure(let error): throw .image(error)
                }
            }
            for i in range {
                // The first frame of a batch differs from `previous` or is in `byFrame`.
                guard let data = byFrame[i] ?? previous?.data else { continue }
                do {
                    try data.write(to: folder.appendingPathComponent(fileName(i)))
                } catch {
                    throw .output(name, "cannot write \(fileName(i)): \(FileErrors.reason(error, path: folder.path))")
                }
                previous = (carousel.pictureKey(i), data)
                progress(i + 1, carousel.frameCount)
            }
            start = range.upperBound
        }
        do {
            try Data(json(carousel).utf8).write(to: folder.appendingPathComponent("frames.json"))
        } catch {
            throw .output(name, "cannot write frames.json")
        }
    }

    /// The PNG name of frame `i`.
    public static func fileName(_ i: Int) -> String {
        let digits = String(i)
        return "frame-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
    }

    /// Whether `name` is a file a frames folder holds (so an old output may be replaced).
    public static func isOwnFile(_ name: String) -> Bool {
        name == "frames.json" || (name.hasPrefix("frame-") && name.hasSuffix(".png"))
    }

    /// `frames.json`: the carousel's size and fps, and per frame index, time, delay (cs),
    /// x0, stripX, position p and page (0-based, as `UIPageControl.currentPage`).
    public static func json(_ carousel: Carousel) -> String {
        var lines: [String] = []
        for i in 0..<carousel.frameCount {
            let f = carousel.info(i)
            lines.append("    {\"index\": \(f.index), \"time\": \(f.time), \"delay\": \(f.delay), \"x0\": \(f.x0), "
                + "\"stripX\": \(f.stripX), \"position\": \(f.position), \"page\": \(f.page)}")
        }
        let g = carousel.geometry
        return """
        {
          "width": \(carousel.width),
          "height": \(carousel.height),
          "fps": \(carousel.options.fps),
          "pages": \(g.count),
          "pitch": \(g.pitch),
          "duration": \(Double(carousel.timeline.duration) / 1_000_000),
          "frames": [
        \(lines.joined(separator: ",\n"))
          ]
        }

        """
    }
}
