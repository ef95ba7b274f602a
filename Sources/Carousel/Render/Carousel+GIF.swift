extension Carousel {
    /// Encodes every frame as a looping GIF on `sink`; `name` is used in errors.
    ///
    /// Consecutive identical frames merge into one GIF frame with the summed delay.
    /// Frames stream to giflib as they are made, scene by scene (``SceneEncoder``), so
    /// memory holds the strip and a few scenes whatever the number of frames.
    /// `progress` is called with (frames done, total).
    public func writeGIF(to sink: any ByteSink, name: String,
                         progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        let writer = try GIFWriter(sink: sink, name: name, width: width, height: height, loop: options.loop)
        if options.background.a >= 128 {
            try SceneEncoder(carousel: self).encode(to: writer, progress: progress)
            try writer.close()
            return
        }
        try writeFramesWhole(writer, progress: progress)
        try writer.close()
    }

    /// The path for a transparent background: every merged frame whole, with its own
    /// palette and a transparent entry, each replacing the last (no partial frames,
    /// since transparency there means the background, not "unchanged").
    private func writeFramesWhole(_ writer: borrowing GIFWriter, progress: (Int, Int) -> Void) throws(CarouselError) {
        let quantizer = Quantizer(maxColors: options.colors, dither: options.dither)
        let frames = SceneEncoder(carousel: self).plan()
        for (k, frame) in frames.enumerated() {
            try writer.write(quantizer.quantize(self.frame(frame.source)), delay: frame.delay, clearAfter: true)
            progress(k + 1 < frames.count ? frames[k + 1].source : frameCount, frameCount)
        }
    }
}
