/// The layout of a `carousel frames` folder: `frame-00000.png` ... and `frames.json`.
public enum FramesFolder {
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
