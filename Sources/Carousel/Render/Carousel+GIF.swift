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
        var pending: (image: RGBAImage, key: FrameKey, delay: Int)?
        for i in 0..<frameCount {
            let key = FrameKey(stripX: info(i).stripX, page: page(i))
            let delay = FrameInfo.delay(frame: i, fps: options.fps)
            if var held = pending, held.key == key || held.image == frame(i), held.delay + delay <= 65535 {
                held.delay += delay
                held.key = key
                pending = held
            } else {
                if let held = pending {
                    try writer.write(quantizer.quantize(held.image), delay: held.delay, clearAfter: true)
                }
                pending = (frame(i), key, delay)
            }
            progress(i + 1, frameCount)
        }
        if let held = pending {
            try writer.write(quantizer.quantize(held.image), delay: held.delay, clearAfter: true)
        }
    }
}

/// What decides a frame's picture: the same key always gives the same picture.
struct FrameKey: Equatable {
    let stripX: Int
    let page: Int
}
