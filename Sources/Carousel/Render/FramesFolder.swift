#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `carousel frames` folder: every frame as `frame-00000.png` ... (``PNGSequenceEncoder``)
/// and `frames.json`, which says what each frame shows.
public enum FramesFolder {
    /// Writes every frame of `carousel` and `frames.json` into `folder` (which must exist).
    public static func write(_ carousel: Carousel, to folder: URL, name: String,
                             progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        try PNGSequenceEncoder().write(carousel.plan(), to: folder, name: name, progress: progress)
        // Written a piece at a time, so the text of a long timeline is never held whole.
        let written = AtomicOutput.writeInFolder(to: folder.appendingPathComponent("frames.json").path) { sink throws(CarouselError) in
            var text = ""
            try json(carousel) { (piece: String) throws(CarouselError) in
                text += piece
                if text.utf8.count >= 1 << 16 {
                    try sink.write(Data(text.utf8))
                    text = ""
                }
            }
            try sink.write(Data(text.utf8))
        }
        if let reason = written {
            throw .output(name, "cannot write frames.json: \(reason)")
        }
    }

    /// Whether `name` is a file a frames folder holds (so an old output may be replaced):
    /// the frames and `frames.json`, and what macOS's Finder leaves beside them once the
    /// folder has been looked at (`.DS_Store`, and `._NAME`, the AppleDouble file of one of
    /// them on a volume without extended attributes).
    public static func isOwnFile(_ name: String) -> Bool {
        let own = name.hasPrefix("._") ? String(name.dropFirst(2)) : name
        return own == ".DS_Store" || own == "frames.json" || (own.hasPrefix("frame-") && own.hasSuffix(".png"))
    }

    private static func touchJSON(_ touch: TouchPoint?) -> String {
        guard let touch else { return "null" }
        return "{\"x\": \(touch.x), \"y\": \(touch.y), \"alpha\": \(touch.alpha)}"
    }

    /// `frames.json`: the carousel's size and fps, and per frame index, time, delay (cs),
    /// x0, stripX, position p, page (0-based, as `UIPageControl.currentPage`), phase
    /// (`hold`, `move`, `drag`, `settle`) and touch (`null` or the indicator's x, y, alpha).
    public static func json(_ carousel: Carousel) -> String {
        var text = ""
        json(carousel) { text += $0 }
        return text
    }

    /// `frames.json` in pieces, in order, each handed to `write`: the header, then each
    /// frame's line.
    static func json<E: Error>(_ carousel: Carousel, _ write: (String) throws(E) -> Void) throws(E) {
        let g = carousel.geometry
        try write("""
        {
          "width": \(carousel.width),
          "height": \(carousel.height),
          "fps": \(carousel.options.fps),
          "pages": \(g.count),
          "pitch": \(g.pitch),
          "duration": \(carousel.timeline.length.seconds),
          "frames": [

        """)
        for i in 0..<carousel.frameCount {
            let f = carousel.info(index: i)
            try write((i > 0 ? ",\n" : "") + "    {\"index\": \(f.index), \"time\": \(f.time), \"delay\": \(f.delay), \"x0\": \(f.x0), "
                + "\"stripX\": \(f.stripX), \"position\": \(f.position), \"page\": \(f.page), "
                + "\"phase\": \"\(f.phase.rawValue)\", \"touch\": \(touchJSON(f.touch))}")
        }
        try write("\n  ]\n}\n")
    }
}
