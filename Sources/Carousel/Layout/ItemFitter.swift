/// Fits an image into an item: scaling, cropping or letterboxing, then compositing over the background.
///
/// Scaling is separable and filters in premultiplied alpha: a tent filter whose
/// width follows the scale factor, so downscaling averages every source pixel
/// (no aliasing) and upscaling is bilinear. An image already of the item's size
/// is copied exactly.
public enum ItemFitter {
    /// `image` fitted into `width x height` by `mode`, composited over `background`.
    public static func fit(_ image: RGBAImage, width: Int, height: Int, mode: FitMode,
                           background: RGBA) -> RGBAImage {
        let iw = Double(image.width), ih = Double(image.height)
        let w = Double(width), h = Double(height)
        var item = RGBAImage(width: width, height: height, fill: background)
        switch mode {
        case .stretch:
            item.paste(resample(image, source: (0, 0, iw, ih), width: width, height: height)
                .composited(over: background), x: 0, y: 0)
        case .fill:
            let scale = max(w / iw, h / ih)
            let sw = w / scale, sh = h / scale
            item.paste(resample(image, source: ((iw - sw) / 2, (ih - sh) / 2, sw, sh), width: width, height: height)
                .composited(over: background), x: 0, y: 0)
        case .fit:
            let scale = min(w / iw, h / ih)
            let dw = max(1, min(width, Int((iw * scale).rounded())))
            let dh = max(1, min(height, Int((ih * scale).rounded())))
            let scaled = resample(image, source: (0, 0, iw, ih), width: dw, height: dh)
            item.paste(scaled.composited(over: background), x: (width - dw) / 2, y: (height - dh) / 2)
        }
        return item
    }

    /// Resamples the rectangle `source` (x, y, width, height in source pixels) of `image` to `width x height`.
    static func resample(_ image: RGBAImage, source: (x: Double, y: Double, w: Double, h: Double),
                         width: Int, height: Int) -> RGBAImage {
        if source.x == 0, source.y == 0, Int(source.w) == width, Int(source.h) == height,
           source.w == Double(width), source.h == Double(height) {
            return image.width == width && image.height == height
                ? image : image.cropped(x: 0, y: 0, width: width, height: height)
        }
        let columns = weights(from: source.x, length: source.w, to: width, limit: image.width)
        let rows = weights(from: source.y, length: source.h, to: height, limit: image.height)
        // Premultiply once.
        var premultiplied = [Float](repeating: 0, count: image.width * image.height * 4)
        image.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = Float(p[i + 3]) / 255
                premultiplied[i] = Float(p[i]) * a
                premultiplied[i + 1] = Float(p[i + 1]) * a
                premultiplied[i + 2] = Float(p[i + 2]) * a
                premultiplied[i + 3] = Float(p[i + 3])
            }
        }
        // Horizontal pass over the rows the vertical pass reads.
        let firstRow = rows.map(\.first).min() ?? 0
        let lastRow = rows.map { $0.first + $0.weights.count }.max() ?? 0
        var horizontal = [Float](repeating: 0, count: width * (lastRow - firstRow) * 4)
        for y in firstRow..<lastRow {
            for (x, tap) in columns.enumerated() {
                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for (k, weight) in tap.weights.enumerated() {
                    let i = (y * image.width + tap.first + k) * 4
                    acc.0 += premultiplied[i] * weight
                    acc.1 += premultiplied[i + 1] * weight
                    acc.2 += premultiplied[i + 2] * weight
                    acc.3 += premultiplied[i + 3] * weight
                }
                let o = ((y - firstRow) * width + x) * 4
                horizontal[o] = acc.0
                horizontal[o + 1] = acc.1
                horizontal[o + 2] = acc.2
                horizontal[o + 3] = acc.3
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for (y, tap) in rows.enumerated() {
            for x in 0..<width {
                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for (k, weight) in tap.weights.enumerated() {
                    let i = ((tap.first + k - firstRow) * width + x) * 4
                    acc.0 += horizontal[i] * weight
                    acc.1 += horizontal[i + 1] * weight
                    acc.2 += horizontal[i + 2] * weight
                    acc.3 += horizontal[i + 3] * weight
                }
                let o = (y * width + x) * 4
                let alpha = min(255, max(0, acc.3))
                if alpha > 0 {
                    let unpremultiply = 255 / alpha
                    out[o] = UInt8(min(255, max(0, (acc.0 * unpremultiply).rounded())))
                    out[o + 1] = UInt8(min(255, max(0, (acc.1 * unpremultiply).rounded())))
                    out[o + 2] = UInt8(min(255, max(0, (acc.2 * unpremultiply).rounded())))
                }
                out[o + 3] = UInt8(alpha.rounded())
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
