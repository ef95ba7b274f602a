/// Fits an image into an item: scaling, cropping or letterboxing, then compositing over the background.
///
/// Scaling is separable and filters in premultiplied alpha: a tent filter whose
/// width follows the scale factor, so downscaling averages every source pixel
/// (no aliasing) and upscaling is bilinear. An image already of the item's size
/// is copied exactly, and so is the part a fill or stretch shows at scale 1 from a
/// whole pixel (an image as tall as the item and wider, say: a crop).
public enum ItemFitter {
    /// The longest side of an item (2^30): far past what the options allow (an item
    /// 1,000,000 wide, 65,535 high), and short of what the scaling's arithmetic overflows at.
    public static let maximumSide = 1 << 30

    /// `image` fitted into `width x height` by `mode`, composited over `background`.
    ///
    /// - Precondition: the image and the item are at least 1x1 (``Carousel`` refuses images
    ///   without pixels), and the item's sides are at most ``maximumSide`` (its pixels must
    ///   also fit in memory).
    public static func fit(_ image: RGBAImage, width: Int, height: Int, mode: FitMode,
                           background: RGBA) -> RGBAImage {
        precondition(image.width >= 1 && image.height >= 1 && (1...maximumSide).contains(width)
                     && (1...maximumSide).contains(height),
                     "ItemFitter.fit: a \(image.width)x\(image.height) image into \(width)x\(height); "
                     + "both at least 1x1, the item at most \(maximumSide) a side")
        let iw = Double(image.width), ih = Double(image.height)
        let w = Double(width), h = Double(height)
        // Stretch and fill cover the whole item; fit letterboxes it over the background.
        switch mode {
        case .stretch:
            return resample(image, source: (0, 0, iw, ih), width: width, height: height).composited(over: background)
        case .fill:
            let scale = max(w / iw, h / ih)
            let sw = w / scale, sh = h / scale
            return resample(image, source: ((iw - sw) / 2, (ih - sh) / 2, sw, sh), width: width, height: height)
                .composited(over: background)
        case .fit:
            let scale = min(w / iw, h / ih)
            let dw = max(1, min(width, Int((iw * scale).rounded())))
            let dh = max(1, min(height, Int((ih * scale).rounded())))
            let scaled = resample(image, source: (0, 0, iw, ih), width: dw, height: dh)
            var item = RGBAImage(width: width, height: height, fill: background)
            item.paste(scaled.composited(over: background), x: (width - dw) / 2, y: (height - dh) / 2)
            return item
        }
    }

    /// Resamples the rectangle `source` (x, y, width, height in source pixels) of `image` to `width x height`.
    ///
    /// The output rows are made in bands (`bandRows` rows each when given, a few a core by
    /// default); the output is the same whatever the bands.
    static func resample(_ image: RGBAImage, source: (x: Double, y: Double, w: Double, h: Double),
                         width: Int, height: Int, bandRows: Int? = nil) -> RGBAImage {
        // At scale 1 from a whole pixel the filter takes each source pixel alone: a crop, exact.
        if source.w == Double(width), source.h == Double(height), source.x == source.x.rounded(),
           source.y == source.y.rounded(), source.x >= 0, source.y >= 0,
           Int(source.x) + width <= image.width, Int(source.y) + height <= image.height {
            return image.width == width && image.height == height
                ? image : image.cropped(x: Int(source.x), y: Int(source.y), width: width, height: height)
        }
        let across = Taps(from: source.x, length: source.w, to: width, limit: image.width)
        let down = Taps(from: source.y, length: source.h, to: height, limit: image.height)
        let sourceWidth = image.width, sourcePixels = image.pixels
        // The source columns any output reads.
        let (left, right) = across.span(0..<width)
        // Bands of output rows. A band resamples horizontally, one at a time, the source rows
        // its output rows read (a row is filtered once for each band that reads it), and adds
        // each to the sums of the output rows that read it, weighted; every output pixel is the
        // same sums in the same order (its source rows from the top) whichever band makes it.
        // What the bands gain is memory: a band's sums are its rows times the width times 16
        // bytes (460 KB for 45 rows of 640), where the whole image's took about 3 MB a
        // photograph and fresh pages for each (when each band kept its source rows filtered,
        // the benchmark's five photographs fitted in 7.2–7.5 ms against 11.5–12.2 ms in one
        // band, timed inside the renderer). They run on all cores when one image is fitted;
        // inside the images' parallel map, libdispatch runs a nested map's iterations on the
        // calling thread. Keeping a band's source rows filtered took their count times the
        // width: 68 GB for one row 65535 pixels wide from a picture 65535 pixels tall.
        let pixels = [UInt8].parallelRows(height, rowBytes: width * 4, bandRows: bandRows) { band, start in
            let (low, high) = down.span(band)
            let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, sourceWidth))
            let horizontal = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width * band.count)
            sums.initialize(repeating: .zero, count: width * band.count)
            defer {
                row.deallocate()
                horizontal.deallocate()
                sums.deallocate()
            }
            sourcePixels.withUnsafeBufferPointer { src in
                across.withPointers { first, offset, taps in down.withPointers { firstRow, rowOffset, rowTaps in
                    for y in low..<high {
                        // Premultiplied row y, resampled horizontally: a pixel's four channels
                        // are the lanes of one vector, each lane worked out as it would be alone.
                        let base = y * sourceWidth * 4
                        for x in left..<right {
                            let i = base + x * 4, a = Float(src[i + 3]) * (1 / 255)
                            row[x] = SIMD4(Float(src[i]), Float(src[i + 1]), Float(src[i + 2]), Float(src[i + 3]))
                                * SIMD4(a, a, a, 1)
                        }
                        for x in 0..<width {
                            var total = SIMD4<Float>.zero
                            var s = first[x]
                            for k in offset[x]..<offset[x + 1] {
                                total += row[s] * taps[k]
                                s += 1
                            }
                            horizontal[x] = total
                        }
                        for o in band {
                            let k = y - firstRow[o]
                            guard k >= 0, k < rowOffset[o + 1] - rowOffset[o] else { continue }
                            let weight = rowTaps[rowOffset[o] + k], sum = sums + (o - band.lowerBound) * width
                            for i in 0..<width { sum[i] += horizontal[i] * weight }
                        }
                    }
                } }
            }
            let dst = start.assumingMemoryBound(to: UInt8.self)
            for y in band {
                let sum = sums + (y - band.lowerBound) * width
                let o = y * width * 4
                for x in 0..<width {
                    let v = sum[x]
                    let alpha = min(255, max(0, v[3]))
                    if alpha > 0 {
                        let unpremultiply = 255 / alpha
                        dst[o + x * 4] = UInt8(min(255, max(0, v[0] * unpremultiply + 0.5)))
                        dst[o + x * 4 + 1] = UInt8(min(255, max(0, v[1] * unpremultiply + 0.5)))
                        dst[o + x * 4 + 2] = UInt8(min(255, max(0, v[2] * unpremultiply + 0.5)))
                    } else {
                        dst[o + x * 4] = 0
                        dst[o + x * 4 + 1] = 0
                        dst[o + x * 4 + 2] = 0
                    }
                    dst[o + x * 4 + 3] = UInt8(alpha + 0.5)
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// One axis' filter taps, flattened: output sample o reads source samples from `first[o]`
    /// on, with the weights `weights[offset[o]..<offset[o + 1]]`.
    private struct Taps: Sendable {
        let first: [Int]
        let offset: [Int]
        let weights: [Float]

        /// The tent filter's taps for `count` outputs over `length` source samples from `start`
        /// (of `limit`): each output's source samples within the filter's radius (the scale,
        /// at least one), weighted by their distance from its centre, normalised; the nearest
        /// sample alone where none has weight.
        init(from start: Double, length: Double, to count: Int, limit: Int) {
            let scale = length / Double(count)
            let radius = max(1, scale)
            var first: [Int] = [], offset = [0], weights: [Float] = []
            first.reserveCapacity(count)
            offset.reserveCapacity(count + 1)
            for o in 0..<count {
                let centre = start + (Double(o) + 0.5) * scale
                let lo = max(0, Int((centre - radius - 0.5).rounded(.down)))
                let hi = min(limit - 1, Int((centre + radius - 0.5).rounded(.up)))
                var taps: [Float] = []
                var total = 0.0
                for i in lo...max(lo, hi) {
                    let w = max(0, 1 - abs(Double(i) + 0.5 - centre) / radius)
                    taps.append(Float(w))
                    total += w
                }
                if total <= 0 {
                    first.append(min(limit - 1, max(0, Int(centre))))
                    weights.append(1)
                } else {
                    first.append(lo)
                    weights += taps.map { $0 / Float(total) }
                }
                offset.append(weights.count)
            }
            self.first = first
            self.offset = offset
            self.weights = weights
        }

        /// The source samples the outputs `outputs` read: from the least first to the greatest end.
        func span(_ outputs: Range<Int>) -> (Int, Int) {
            var low = Int.max, high = 0
            for o in outputs {
                low = min(low, first[o])
                high = max(high, first[o] + offset[o + 1] - offset[o])
            }
            return outputs.isEmpty ? (0, 0) : (low, high)
        }

        /// `body` with the three arrays' storage, read without bounds checks in the loops.
        func withPointers<R>(_ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> R) -> R {
            first.withUnsafeBufferPointer { first in
                offset.withUnsafeBufferPointer { offset in
                    weights.withUnsafeBufferPointer { weights in
                        body(first.baseAddress!, offset.baseAddress!, weights.baseAddress!)
                    }
                }
            }
        }
    }

}
