/// Fits an image into an item: scaling, cropping or letterboxing, then compositing over the background.
///
/// Scaling is separable and filters in premultiplied alpha: a tent filter whose
/// width follows the scale factor, so downscaling averages every source pixel
/// (no aliasing) and upscaling is bilinear. An image already of the item's size
/// is copied exactly, and so is the part a fill or stretch shows at scale 1 from a
/// whole pixel (an image as tall as the item and wider, say: a crop).
public enum ItemFitter {
    /// `image` fitted into `width x height` by `mode`, composited over `background`.
    public static func fit(_ image: RGBAImage, width: Int, height: Int, mode: FitMode,
                           background: RGBA) -> RGBAImage {
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
    static func resample(_ image: RGBAImage, source: (x: Double, y: Double, w: Double, h: Double),
                         width: Int, height: Int) -> RGBAImage {
        // At scale 1 from a whole pixel the filter takes each source pixel alone: a crop, exact.
        if source.w == Double(width), source.h == Double(height), source.x == source.x.rounded(),
           source.y == source.y.rounded(), source.x >= 0, source.y >= 0,
           Int(source.x) + width <= image.width, Int(source.y) + height <= image.height {
            return image.width == width && image.height == height
                ? image : image.cropped(x: Int(source.x), y: Int(source.y), width: width, height: height)
        }
        let columns = weights(from: source.x, length: source.w, to: width, limit: image.width)
        let rows = weights(from: source.y, length: source.h, to: height, limit: image.height)
        let firstRow = rows.map(\.first).min() ?? 0
        let lastRow = rows.map { $0.first + $0.weights.count }.max() ?? 0
        let sourceWidth = image.width
        // Premultiplied rows the vertical pass reads, resampled horizontally: a pixel's four
        // channels are the lanes of one vector, each lane worked out as it would be alone.
        var horizontal = [SIMD4<Float>](repeating: .zero, count: width * (lastRow - firstRow))
        let columnFirst = columns.map(\.first), columnCount = columns.map(\.weights.count)
        var columnOffset = [0]
        for count in columnCount { columnOffset.append(columnOffset[columnOffset.count - 1] + count) }
        let columnWeights = columns.flatMap(\.weights)
        image.pixels.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                var premultiplied = [SIMD4<Float>](repeating: .zero, count: sourceWidth)
                premultiplied.withUnsafeMutableBufferPointer { row in
                    for y in firstRow..<lastRow {
                        let base = y * sourceWidth * 4
                        for x in 0..<sourceWidth {
                            let i = base + x * 4, a = Float(src[i + 3]) * (1 / 255)
                            row[x] = SIMD4(Float(src[i]), Float(src[i + 1]), Float(src[i + 2]), Float(src[i + 3]))
                                * SIMD4(a, a, a, 1)
                        }
                        let out = (y - firstRow) * width
                        for x in 0..<width {
                            var sum = SIMD4<Float>.zero
                            var s = columnFirst[x]
                            for k in columnOffset[x]..<columnOffset[x + 1] {
                                sum += row[s] * columnWeights[k]
                                s += 1
                            }
                            dst[out + x] = sum
                        }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        var acc = [SIMD4<Float>](repeating: .zero, count: width)
        horizontal.withUnsafeBufferPointer { h in
            out.withUnsafeMutableBufferPointer { dst in
                acc.withUnsafeMutableBufferPointer { sum in
                    for (y, tap) in rows.enumerated() {
                        for i in 0..<sum.count { sum[i] = .zero }
                        for (k, weight) in tap.weights.enumerated() {
                            let base = (tap.first + k - firstRow) * width
                            for i in 0..<sum.count { sum[i] += h[base + i] * weight }
                        }
                        let o = y * width * 4
                        for x in 0..<width {
                            let v = sum[x]
                            let alpha = min(255, max(0, v[3]))
                            if alpha > 0 {
                                let unpremultiply = 255 / alpha
                                dst[o + x * 4] = UInt8(min(255, max(0, v[0] * unpremultiply + 0.5)))
                                dst[o + x * 4 + 1] = UInt8(min(255, max(0, v[1] * unpremultiply + 0.5)))
                                dst[o + x * 4 + 2] = UInt8(min(255, max(0, v[2] * unpremultiply + 0.5)))
                            }
                            dst[o + x * 4 + 3] = UInt8(alpha + 0.5)
                        }
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }

    /// Filter taps for one axis: for each output sample, the first source index and normalised weights.
    private static func weights(from start: Double, length: Double, to count: Int,
                                limit: Int) -> [(first: Int, weights: [Float])] {
        let scale = length / Double(count)
        let radius = max(1, scale)
        return (0..<count).map { o in
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
                let nearest = min(limit - 1, max(0, Int(centre)))
                return (nearest, [1])
            }
            return (lo, taps.map { $0 / Float(total) })
        }
    }
}
