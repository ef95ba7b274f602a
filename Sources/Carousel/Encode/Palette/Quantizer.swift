#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reduces an RGBA frame to at most `maxColors` palette entries.
///
/// Exact when the frame has that few colours (every pixel keeps its colour).
/// Otherwise ``PaletteDesigner`` designs the palette (median cut refined by k-means)
/// and every pixel maps to its nearest entry through ``ColorMapper``, optionally
/// dithered, so the result is deterministic. Pixels with alpha below 128 map to a
/// reserved transparent entry.
public struct Quantizer: Sendable {
    /// Palette size limit, 2...256.
    public let maxColors: Int
    /// Dithering used when the palette is not exact.
    public let dither: Dither

    /// Creates a quantizer for at most `maxColors` colours (clamped to 2...256).
    public init(maxColors: Int = 256, dither: Dither = .none) {
        self.maxColors = min(256, max(2, maxColors))
        self.dither = dither
    }

    /// Quantizes `image`; `originX` is its column in the picture it was cut from, to
    /// which ordered dithering fixes its pattern.
    public func quantize(_ image: RGBAImage, originX: Int = 0) -> IndexedFrame {
        quantize(image, originX: originX, undithered: nil)
    }

    /// ``quantize(_:originX:)``, with the pixels `undithered` flags (a ``DitherMask``) left
    /// at their nearest entry when dithering in order.
    func quantize(_ image: RGBAImage, originX: Int, undithered: [Bool]?) -> IndexedFrame {
        let transparent = Quantizer.hasTransparency(image)
        let (palette, exact) = designer(transparent: transparent).design(image)
        return indexed(image, palette: palette, exact: exact, transparent: transparent, originX: originX,
                       undithered: undithered)
    }

    /// Whether `image` has pixels with alpha below 128, which take the transparent entry.
    private static func hasTransparency(_ image: RGBAImage) -> Bool {
        stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] < 128 }
    }

    /// The palette designer for a picture with or without `transparent` pixels: maxColors
    /// for the picture, the transparent entry on top, within a GIF's 256.
    private func designer(transparent: Bool) -> PaletteDesigner {
        PaletteDesigner(maxColors: transparent ? min(maxColors, 255) : maxColors, weights: dither.weights,
                        space: dither.space)
    }

    /// `image` mapped to `palette` (dithered unless `exact`), with the transparent entry after
    /// it when the picture has `transparent` pixels; `then` may change the indices.
    private func indexed(_ image: RGBAImage, palette: [RGBA], exact: Bool, transparent: Bool, originX: Int,
                         undithered: [Bool]?, then: (inout [UInt8]) -> Void = { _ in }) -> IndexedFrame {
        let transparentIndex = transparent ? palette.count : nil
        var indices = Quantizer.map(image, mapper: ColorMapper(palette: palette, dither: dither, exact: exact),
                                    dither: exact ? .none : dither,
                                    transparentIndex: transparentIndex, originX: originX, only: nil,
                                    undithered: undithered)
        then(&indices)
        return IndexedFrame(width: image.width, height: image.height,
                            palette: transparent ? palette + [.clear] : palette,
                            indices: indices, transparentIndex: transparentIndex)
    }

    /// ``quantize(_:originX:undithered:)`` of a picture shown next to pictures already
    /// quantized (`beside`: each an indexed frame and the picture it was made from, of the
    /// same size). A pixel whose colour equals such a picture's at the same place shows the
    /// colour that frame shows there (the first such frame's), so it does not change on
    /// screen from one to the other; those colours are reserved in the palette, which is
    /// designed for the other pixels. When they would take more than
    /// ``PaletteDesigner/reservable(_:)`` entries (three quarters), the colours most pixels
    /// keep are reserved, and the pixels of the others count among the rest. On the sample
    /// banners on a transparent background (`bench/transparent-check.py`; pixels that change
    /// on screen where the exact frames do not, SSIMULACRA2 mean and worst of every 12th
    /// frame on white), with 256 colours: 32 entries left to design gave 5,198 changes at
    /// 89.71 (worst 82.80), 64 5,258 at 89.71 (82.78), 128 9,686 at 89.76 (83.88); taking
    /// the matching picture's whole palette instead, 5,186 at 88.52 (54.20).
    func quantize(_ image: RGBAImage, originX: Int, undithered: [Bool]?,
                  beside: [(frame: IndexedFrame, picture: RGBAImage)]) -> IndexedFrame {
        let n = image.width * image.height
        let transparent = Quantizer.hasTransparency(image)
        let designer = designer(transparent: transparent)
        // Each pixel's reserved colour, as an index into `reserved`, or -1.
        var kept = [Int](repeating: -1, count: n)
        var reserved: [RGBA] = [], slot: [RGBA: Int] = [:]
        image.pixels.withUnsafeBytes { raw in
            // Bytes r, g, b, a in memory order: a pixel is one word, alpha its top byte on any host
            // once read little-endian.
            let pixels = raw.bindMemory(to: UInt32.self)
            for other in beside where other.picture.width == image.width && other.picture.height == image.height
                && other.frame.indices.count == n {
                other.picture.pixels.withUnsafeBytes { otherRaw in
                    let theirs = otherRaw.bindMemory(to: UInt32.self)
                    for p in 0..<n where kept[p] < 0 && pixels[p] == theirs[p] && UInt32(littleEndian: pixels[p]) >> 24 >= 128 {
                        let index = Int(other.frame.indices[p])
                        guard index != other.frame.transparentIndex, index < other.frame.palette.count else { continue }
                        let colour = other.frame.palette[index]
                        if let s = slot[colour] {
                            kept[p] = s
                        } else {
                            slot[colour] = reserved.count
                            kept[p] = reserved.count
                            reserved.append(colour)
                        }
                    }
                }
            }
        }
        guard !reserved.isEmpty else { return quantize(image, originX: originX, undithered: undithered) }
        let limit = max(1, PaletteDesigner.reservable(designer.maxColors))
        if reserved.count > limit {
            // The colours most pixels keep stay reserved; the other pixels are designed for.
            var counts = [Int](repeating: 0, count: reserved.count)
            for s in kept where s >= 0 { counts[s] += 1 }
            let chosen = reserved.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }.prefix(limit)
            var renumber = [Int](repeating: -1, count: reserved.count)
            for (new, old) in chosen.sorted().enumerated() { renumber[old] = new }
            reserved = chosen.sorted().map { reserved[$0] }
            for p in 0..<n where kept[p] >= 0 { kept[p] = renumber[kept[p]] }
        }
        // The palette is designed for the pixels that are not kept.
        var others: [UInt8] = []
        others.reserveCapacity(image.pixels.count)
        for p in 0..<n where kept[p] < 0 && image.pixels[4 * p + 3] >= 128 {
            others.append(image.pixels[4 * p])
            others.append(image.pixels[4 * p + 1])
            others.append(image.pixels[4 * p + 2])
            others.append(image.pixels[4 * p + 3])
        }
        let (palette, exact) = others.isEmpty ? (reserved, true)
            : designer.design(RGBAImage(width: others.count / 4, height: 1, pixels: others), reserved: reserved)
        return indexed(image, palette: palette, exact: exact, transparent: transparent, originX: originX,
                       undithered: undithered) { indices in
            // The reserved colours lead the palette, in order.
            for p in 0..<n where kept[p] >= 0 { indices[p] = UInt8(kept[p]) }
        }
    }

    /// The opaque colours of `image` in order of first appearance, or `nil` when there are more than `limit`.
    ///
    /// The colours met are kept in an open-addressed table of at least 2 x (`limit` + 1) slots
    /// (fewer for an image of fewer pixels; never fewer than 64), so it is never half full. A
    /// grey or few-coloured picture is read to its end, and with a `Set` the hashing and
    /// inserting of every pixel that differs from its left neighbour took 5.6% of the CPU
    /// samples of the benchmark's `others` render (two grey pictures among six); the render's
    /// instructions went from 7.235 to 6.838 G (`bench/render-instructions.py`, the same bytes).
    static func distinctColors(_ image: RGBAImage, limit: Int) -> [RGBA]? {
        // No image has more colours than pixels: the table need not hold more.
        let held = min(limit, image.pixels.count / 4)
        var capacity = 64
        while capacity < 2 * (held + 1) { capacity <<= 1 }
        let mask = capacity - 1
        // A slot holds a colour (24 bits) or `.max`, empty.
        var table = [UInt32](repeating: .max, count: capacity)
        var palette: [RGBA] = []
        var last: UInt32 = .max
        let overflowed = table.withUnsafeMutableBufferPointer { table in
            image.pixels.withUnsafeBufferPointer { p in
                for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] >= 128 {
                    let key = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
                    if key == last { continue }
                    last = key
                    var slot = Int((key &* 2_654_435_761) >> 16) & mask
                    while table[slot] != .max && table[slot] != key { slot = (slot &+ 1) & mask }
                    if table[slot] == key { continue }
                    guard palette.count < limit else { return true }
                    table[slot] = key
                    palette.append(RGBA(r: p[i], g: p[i + 1], b: p[i + 2]))
                }
                return false
            }
        }
        return overflowed ? nil : palette
    }

    /// Maps every pixel of `image` to a palette index: nearest colour, with `dither`;
    /// pixels with alpha below 128 to `transparentIndex` when there is one. `runSlack`
    /// (no dithering only) lets a pixel repeat its left neighbour's index at that much
    /// extra squared error. `originX` is the image's column in the picture it was cut
    /// from: ordered dithering fixes its pattern to that picture. A transparent index
    /// outside 0...255, or a slack outside 0...2^24, traps.
    public static func map(_ image: RGBAImage, mapper: ColorMapper, dither: Dither, transparentIndex: Int?,
                           runSlack: Int32 = 0, originX: Int = 0) -> [UInt8] {
        precondition((0...255).contains(transparentIndex ?? 0) && (0...1 << 24).contains(runSlack),
                     "Quantizer.map: transparent index \(transparentIndex.map(String.init) ?? "none") and run slack \(runSlack); "
                     + "an index is 0...255, a slack 0...2^24")
        return map(image, mapper: mapper, dither: dither, transparentIndex: transparentIndex, runSlack: runSlack,
            originX: originX, only: nil)
    }

    /// ``map(_:mapper:dither:transparentIndex:runSlack:originX:)``; with ordered dithering,
    /// `only` (one flag per pixel) limits the mapping to the flagged pixels, and the others
    /// get index 0 (every pixel's index depends on its own colour and place alone), and the
    /// pixels `undithered` flags (a ``DitherMask``) take their nearest entry. `plane`, when
    /// given, holds the Oklab points of a picture `image` was cut from at column `planeX`.
    static func map(_ image: RGBAImage, mapper: ColorMapper, dither: Dither, transparentIndex: Int?,
                    runSlack: Int32 = 0, originX: Int = 0, only: [Bool]?, undithered: [Bool]? = nil,
                    plane: OklabPlane? = nil, planeX: Int = 0) -> [UInt8] {
        switch dither {
        case .none: return mapNearest(image, mapper: mapper, transparentIndex: transparentIndex, runSlack: runSlack)
        case .ordered:
            return mapOrdered(image, columns: 0..<image.width, height: image.height, mapper: mapper,
                              transparentIndex: transparentIndex, originX: originX, only: only, undithered: undithered,
                              plane: plane, planeX: planeX)
        case .diffusion: return mapDiffused(image, mapper: mapper, transparentIndex: transparentIndex)
        }
    }

    /// ``map(_:mapper:dither:transparentIndex:runSlack:originX:only:undithered:plane:planeX:)`` of
    /// the top `height` rows of `columns` of `image`, a window of a larger picture (a moving
    /// frame's region of the layer): read where it lies when dithering in order, with the
    /// four entries of a mix laid out as `layout` says, cut out otherwise. `only`,
    /// `undithered` and the result are by pixel of the window; `plane`, when given, holds the
    /// Oklab points of `image`'s pixels; `runSlack` lets undithered pixels repeat their left
    /// neighbour's index (ordered dithering only; see
    /// ``mapOrdered(_:columns:height:mapper:transparentIndex:originX:only:undithered:plane:planeX:layout:runSlack:)``).
    static func map(_ image: RGBAImage, columns: Range<Int>, height: Int, mapper: ColorMapper, dither: Dither,
                    transparentIndex: Int?, originX: Int, only: [Bool]?, undithered: [Bool]?,
                    plane: OklabPlane? = nil, layout: OrderedLayout = .cells, runSlack: Int32 = 0) -> [UInt8] {
        guard dither == .ordered else {
            return map(image.cropped(x: columns.lowerBound, width: columns.count, height: height), mapper: mapper,
                       dither: dither, transparentIndex: transparentIndex, originX: originX, only: only,
                       undithered: undithered)
        }
        return mapOrdered(image, columns: columns, height: height, mapper: mapper, transparentIndex: transparentIndex,
                          originX: originX, only: only, undithered: undithered, plane: plane, planeX: columns.lowerBound,
                          layout: layout, runSlack: runSlack)
    }

    /// Where ordered dithering shows each of a colour's four entries (sorted by luma: 0 the
    /// darkest).
    enum OrderedLayout: Sendable {
        /// A 2x2 Bayer cell, [0 2; 3 1], indexed by the pixel's column in the strip and its
        /// row: the pattern of still pictures.
        case cells
        /// One entry a row, rows y with y mod 4 = 0, 1, 2, 3 showing entries 0, 2, 1, 3: a
        /// colour's pixels in a row all show one entry. The pattern of moving frames: a
        /// carousel moves sideways, so a row keeps its entry as the content slides along it,
        /// and LZW codes a row of one entry cheaply. A wide mix, whose entries lie far apart
        /// (``Quantizer/wideMixSpread``), shows the 2x2 cells instead: in rows it would stripe.
        /// Every mix of a rows mapping carries three quarters of its error (``carried``).
        case rows

        /// How much of the error the candidates so far leave a mix's next candidate makes up
        /// for, in eighths: all of it in cells, three quarters in rows (a wide mix of a rows
        /// mapping too, though it shows in cells).
        ///
        /// With all of it, a colour between entries far apart takes a candidate past the
        /// colour to pull the mix's mean onto it, and in rows that entry is a row of its own,
        /// a stripe as strong as the entries are far apart. With three quarters, a mix keeps
        /// to the entries nearest the colour, with its mean a little off it; more colours
        /// take one entry in all four rows, which LZW codes as runs. On the sample banners
        /// (`QUALITY_PROBE_FLIP=1 python3 bench/quality-probe.py samples`): 2,166,919 bytes at
        /// SSIMULACRA2 88.62 and FLIP 0.0236 with all of it, 2,097,799 at 88.78 and 0.0238
        /// with three quarters. docs/behaviour.md (*Moving mixes carry three quarters of the
        /// error*) has the shares measured and the other workloads.
        var carried: Int32 { self == .rows ? 6 : 8 }
    }

    /// Nearest-colour mapping. With `runSlack` > 0, a pixel repeats its left neighbour's
    /// index when that costs at most `runSlack` more squared error than the nearest
    /// entry: longer runs for LZW at a small, bounded cost in fidelity.
    private static func mapNearest(_ image: RGBAImage, mapper: ColorMapper, transparentIndex: Int?,
                                   runSlack: Int32) -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let transparent = UInt8(transparentIndex ?? 0)
        let palette = mapper.palette.map { (Int32($0.r), Int32($0.g), Int32($0.b)) }
        let width = image.width
        image.pixels.withUnsafeBufferPointer { p in
            indices.withUnsafeMutableBufferPointer { out in
                var lastKey: UInt32 = .max, lastIndex: UInt8 = 0
                for i in 0..<out.count {
                    let o = i * 4
                    if p[o + 3] < 128, transparentIndex != nil {
                        out[i] = transparent
                        continue
                    }
                    let key = UInt32(p[o]) << 16 | UInt32(p[o + 1]) << 8 | UInt32(p[o + 2])
                    if key != lastKey {
                        lastKey = key
                        lastIndex = mapper.nearest(Int32(p[o]), Int32(p[o + 1]), Int32(p[o + 2]))
                    }
                    var index = lastIndex
                    if runSlack > 0 && i % width != 0 && out[i - 1] != index && out[i - 1] != transparent {
                        let r = Int32(p[o]), g = Int32(p[o + 1]), b = Int32(p[o + 2])
                        let n = palette[Int(index)], l = palette[Int(out[i - 1])]
                        let nearestError = (n.0 - r) * (n.0 - r) + (n.1 - g) * (n.1 - g) + (n.2 - b) * (n.2 - b)
                        let leftError = (l.0 - r) * (l.0 - r) + (l.1 - g) * (l.1 - g) + (l.2 - b) * (l.2 - b)
                        if leftError <= nearestError + runSlack { index = out[i - 1] }
                    }
                    out[i] = index
                }
            }
        }
        return indices
    }

    /// Ordered dithering by mixing palette entries (Knoll's pattern dithering), with a 2x2
    /// Bayer pattern or in rows (`layout`), fixed to the content.
    ///
    /// For each colour, four candidate entries are chosen one after another, each the entry
    /// nearest to the colour plus the error the candidates so far leave (three quarters of
    /// it in rows: ``OrderedLayout/carried``), so their mean
    /// approximates the colour in all three channels (a mix of two entries along one line
    /// would leave blotches where the colour lies off that line). Colours, entries and the
    /// error are points of the mapper's space (``ColorMapper/space``): Oklab for the GIF
    /// encoder, which hands in the points of the layer's pixels as `plane` (the window's
    /// column x is the plane's `planeX` + x). The candidates are sorted by luma and a pixel
    /// shows the one its place selects (``OrderedLayout``). Colours the palette holds
    /// exactly stay clean (every candidate is that entry), so flat areas and solid shapes
    /// cost no noise. The pattern is indexed by (`originX` + x, y): with `originX` the
    /// image's position in a larger picture (the strip), the pattern travels with the
    /// content as it moves. Pixels `undithered` flags (a ``DitherMask``: edges and texture)
    /// take their nearest entry instead.
    ///
    /// The pixels mapped are the top `height` rows of `columns` of `image` (a window of a
    /// larger picture, read in place); `only` and `undithered` are by pixel of that window,
    /// and so is the result.
    ///
    /// With `runSlack` > 0, an undithered pixel repeats its left neighbour's index (the
    /// neighbour mapped here, not skipped by `only`) when that entry's squared distance to
    /// the pixel's colour, in the mapper's space, is at most `runSlack` more than its nearest
    /// entry's: longer runs for LZW where the picture masks the error. A pixel's index then
    /// depends on the pixels to its left in the window, which the window's place in the
    /// strip fixes, so a palette group mapped once shows the same indices in all its frames.
    private static func mapOrdered(_ image: RGBAImage, columns: Range<Int>, height h: Int, mapper: ColorMapper,
                                   transparentIndex: Int?, originX: Int, only: [Bool]?, undithered: [Bool]?,
                                   plane: OklabPlane? = nil, planeX: Int = 0, layout: OrderedLayout = .cells,
                                   runSlack: Int32 = 0) -> [UInt8] {
        precondition(columns.lowerBound >= 0 && columns.upperBound <= image.width && h >= 0 && h <= image.height,
                     "Quantizer.mapOrdered: the window is outside the image")
        let w = columns.count, stride = image.width, left = columns.lowerBound
        let only = only.flatMap { $0.count == w * h ? $0 : nil }
        let plainFlags = undithered.flatMap { $0.count == w * h ? $0 : nil } ?? []
        var indices = [UInt8](repeating: 0, count: w * h)
        let transparent = UInt8(transparentIndex ?? 0)
        let palette = mapper.palette.map { (Int32($0.r), Int32($0.g), Int32($0.b)) }
        let points = mapper.points
        // Each colour's entries, in a direct-mapped cache (images have far fewer colours than
        // pixels): a dithered pixel's four candidates, an undithered one's nearest entry four
        // times, so both read the same way. A slot holds the key in its high word (red, green and
        // blue, and 1 << 24 for an undithered pixel; the all-ones word is no colour), with
        // ``wideBit`` for a wide mix, and the four entries in its low word, so a lookup is one
        // load, a mask and one compare. A colour's slot is
        // the low 5 bits of its channels, so the close colours of neighbouring pixels in a
        // gradient take nearby slots, often in one cache line (a multiplicative hash scattered
        // them over the table: render instructions 3.21 / 6.53 / 20.01 G against 3.07 / 6.50 /
        // 19.86 G now); an undithered colour's slot has its top bit flipped. Every pixel looks
        // its colour up: skipping the lookup where a pixel repeats its left neighbour's colour
        // was a branch that dithered gradients mispredict (the sample banners' render took
        // 0.319 s of CPU against 0.333 s before, means of 20 alternating runs of
        // `bench/render-cpu.py`). A miss is worked out outside the loop
        // (``entry(_:ahead:aheadFlags:remaining:cache:byPoint:carried:mapper:palette:points:at:)``,
        // which also works out the next new colour a few pixels ahead beside it), which leaves
        // the loop's variables in registers; an undithered colour whose point the plane gives
        // goes to a smaller call,
        // ``plainEntry(_:point:mapper:)``. Against separate key and candidate
        // tables, a second cache for undithered pixels and the miss inlined, with the same bytes,
        // the render's CPU time (four alternating runs of `bench/render-cpu.py`) went from
        // 0.412–0.436 to 0.396–0.421 s on the sample banners and 2.691–2.766 to 2.672–2.737 s
        // on the gradients: the misses (a mix each, four serial searches) are most of the cost,
        // and nearly all of them are a colour's first sight in the call.
        let cacheSize = 1 << 15
        let cache = UnsafeMutablePointer<UInt64>.allocate(capacity: cacheSize)
        cache.initialize(repeating: .max, count: cacheSize)
        defer { cache.deallocate() }
        let hasTransparency = transparentIndex != nil
        let flags = only ?? []
        // The points of the window's pixels, where the caller made them (Oklab only).
        let usePlane = mapper.space == .oklab && plane.map { $0.width >= planeX + w && $0.bytes.count >= 4 * $0.width * h } == true
        // A dithered colour's mix depends on its point alone, and colours that differ by a level
        // often share a point: mixes by packed point, for the misses of `cache`
        // (``pointSlot(_:)``; the point above the mix, all ones for none).
        let byPoint = usePlane ? UnsafeMutablePointer<UInt64>.allocate(capacity: pointCacheSize) : nil
        byPoint?.initialize(repeating: .max, count: pointCacheSize)
        defer { byPoint?.deallocate() }
        let planeBytes = usePlane ? plane!.bytes : [], planeWidth = plane?.width ?? 0
        image.pixels.withUnsafeBytes { raw in planeBytes.withUnsafeBytes { planeRaw in
            let pixels = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            let planePoints = planeRaw.count > 0 ? planeRaw.baseAddress!.assumingMemoryBound(to: UInt32.self) : nil
            indices.withUnsafeMutableBufferPointer { out in
                palette.withUnsafeBufferPointer { palette in points.withUnsafeBufferPointer { points in
                flags.withUnsafeBytes { only in plainFlags.withUnsafeBytes { plain in
                    // Bool is one byte, 0 or 1.
                    let limited = only.count > 0, masked = plain.count > 0
                    let onlyFlags = only.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    let plainBytes = plain.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    let output = out.baseAddress!
                    // 1 where every pixel shows the cells' pattern.
                    let forceCells: UInt32 = layout == .cells ? 1 : 0
                    let carried = layout.carried
                    for y in 0..<h {
                        // The entry shown as a bit shift into the packed candidates: the 2x2 Bayer
                        // matrix [0 2; 3 1], for the row's columns x with x + originX even and odd
                        // (`cellEven`, `cellOdd`); or in rows entries 0, 2, 1, 3 (`rowShift`), but
                        // the cells' for a wide mix (``wideBit``).
                        let (cellEven, cellOdd): (UInt32, UInt32) = y & 1 == 0 ? (0, 16) : (24, 8)
                        let rowShift = Quantizer.rowShifts[y & 3]
                        let row = y &* w
                        let source = pixels + (y &* stride &+ left), target = output + row
                        let planeRow = planePoints.map { $0 + (y &* planeWidth &+ planeX) }
                        for x in 0..<w {
                            if limited && onlyFlags![row &+ x] == 0 { continue }
                            // Bytes r, g, b, a in memory order.
                            let pixel = UInt32(littleEndian: source[x])
                            if hasTransparency && pixel >> 24 < 128 {
                                target[x] = transparent
                                continue
                            }
                            let key = Quantizer.cacheKey(pixel, undithered: masked ? plainBytes![row &+ x] : 0)
                            let s = Quantizer.cacheSlot(key)
                            var entry = cache[s]
                            if UInt32(truncatingIfNeeded: entry >> 32) & ~Quantizer.wideBit != key {
                                entry = key >> 24 != 0 && planeRow != nil
                                    ? Quantizer.plainEntry(key, point: planeRow.unsafelyUnwrapped[x], mapper: mapper)
                                    : Quantizer.entry(key, ahead: source + (x &+ 1), aheadFlags: masked ? plainBytes! + (row &+ x &+ 1) : nil,
                                                        remaining: w &- x &- 1, cache: cache, byPoint: byPoint, carried: carried,
                                                        mapper: mapper, palette: palette, points: points, at: planeRow.map { $0 + x })
                                cache[s] = entry
                            }
                            let cells = forceCells | UInt32(truncatingIfNeeded: entry >> 57) & 1
                            let shift = cells != 0 ? ((x &+ originX) & 1 == 0 ? cellEven : cellOdd) : rowShift
                            target[x] = UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: entry) &>> shift)
                        }
                        if runSlack > 0 && masked {
                            Quantizer.repeatLeft(target, count: w, plain: plainBytes! + row, only: limited ? onlyFlags! + row : nil,
                                                 source: source, plane: planeRow, mapper: mapper, points: points, slack: runSlack)
                        }
                    }
                } } } }
            }
        } }
        return indices
    }

    /// The run slack of
    /// ``mapOrdered(_:columns:height:mapper:transparentIndex:originX:only:undithered:plane:planeX:layout:runSlack:)``
    /// over one mapped row of `count` pixels (`indices`), from left to right: an undithered
    /// pixel (`plain`) whose left neighbour was mapped (`only`, when given) takes that
    /// neighbour's index when its entry is at most `slack` further from the pixel's colour
    /// (a point of `plane`, or worked out from `source`, in the mapper's space) than the entry
    /// it has, its nearest. Run after the row is mapped, which leaves the mapping loop as it
    /// was; the outcome is a branch (medians of CPU time in `bench/render-cpu.py`, photos and
    /// gradients: 4% and 3% more than without the slack; 5% and 13% more with every pixel
    /// comparing and a select instead).
    private static func repeatLeft(_ indices: UnsafeMutablePointer<UInt8>, count: Int, plain: UnsafePointer<UInt8>,
                                   only: UnsafePointer<UInt8>?, source: UnsafePointer<UInt32>, plane: UnsafePointer<UInt32>?,
                                   mapper: ColorMapper, points: UnsafeBufferPointer<(Int32, Int32, Int32)>, slack: Int32) {
        guard count > 1, let base = points.baseAddress else { return }
        let entries = points.count
        // The pixel's point: from the plane, or worked out (when the caller made none).
        @inline(__always) func point(_ x: Int) -> (Int32, Int32, Int32) {
            if let plane { return OklabPlane.unpack(plane[x]) }
            let pixel = UInt32(littleEndian: source[x])
            return mapper.point(Int32(pixel & 0xFF), Int32(pixel >> 8 & 0xFF), Int32(pixel >> 16 & 0xFF))
        }
        // The index to the left, or `entries` when that pixel was not mapped (or is transparent).
        var left = only == nil || only![0] != 0 ? Int(indices[0]) : entries
        for x in 1..<count {
            if let only, only[x] == 0 {
                left = entries
                continue
            }
            let index = Int(indices[x])
            if plain[x] != 0 && index != left && left < entries && index < entries {
                let p = point(x)
                let metric = ChannelWeights.rgb
                if metric.distance(base[left], p) <= metric.distance(base[index], p) &+ slack {
                    indices[x] = UInt8(truncatingIfNeeded: left)
                    continue
                }
            }
            left = index
        }
    }

    /// The shifts of ``OrderedLayout/rows`` for rows y with y mod 4 = 0...3: entries 0, 2, 1, 3.
    private static let rowShifts: [UInt32] = [0, 16, 8, 24]

    /// The cache entry of ``mapOrdered(_:columns:height:mapper:transparentIndex:originX:only:undithered:plane:planeX:layout:runSlack:)``
    /// for `key`: the key above the four candidates of ``mix(_:carried:mapper:palette:points:)``, or above the
    /// nearest entry four times for an undithered colour (bit 24 of the key).
    ///
    /// With `byPoint` (the mixes by packed point, used only with `plane`), a dithered colour whose
    /// point has a mix there takes it at once, and every mix worked out goes there too. A mix
    /// depends on its point alone and a lookup there checks the point, so that table too changes
    /// the time taken, never an index (docs/behaviour.md, *Mixes by point*).
    ///
    /// Otherwise a miss is rarely alone: the first of the next few pixels (`ahead`, with their
    /// `aheadFlags`, `remaining` of them in the row) whose colour differs is looked up too, and
    /// when it misses and both colours are dithered, the two mixes are worked out side by side
    /// (``mixes(_:_:carried:mapper:palette:points:)``) and the other's entry goes into `cache` for when the
    /// loop gets there. A colour ahead whose point has a mix in `byPoint` takes it, and so does one
    /// whose point is this colour's (it takes the mix from there when the loop gets to it), and the
    /// search for a second colour goes on. Every entry depends on its key alone and every lookup
    /// checks the key, so what the cache holds changes the time taken, never an index.
    @inline(never)
    private static func entry(_ key: UInt32, ahead: UnsafePointer<UInt32>, aheadFlags: UnsafePointer<UInt8>?, remaining: Int,
                              cache: UnsafeMutablePointer<UInt64>, byPoint: UnsafeMutablePointer<UInt64>?, carried: Int32,
                              mapper: ColorMapper, palette: UnsafeBufferPointer<(Int32, Int32, Int32)>,
                              points: UnsafeBufferPointer<(Int32, Int32, Int32)>, at plane: UnsafePointer<UInt32>?) -> UInt64 {
        let r = Int32(key & 0xFF), g = Int32(key >> 8 & 0xFF), b = Int32(key >> 16 & 0xFF)
        let target = plane.map { OklabPlane.unpack($0[0]) } ?? mapper.point(r, g, b)
        guard key >> 24 == 0 else { return nearestFourTimes(key, target, mapper: mapper) }
        // The mixes by point, only where the points come from the plane.
        let byPoint = plane == nil ? nil : byPoint
        // The mix of the packed point `point` from `byPoint`, if it is there.
        @inline(__always) func known(_ point: UInt32) -> UInt32? {
            guard let byPoint else { return nil }
            let held = byPoint[pointSlot(point)]
            return UInt32(truncatingIfNeeded: held >> 32) == point ? UInt32(truncatingIfNeeded: held) : nil
        }
        @inline(__always) func remember(_ point: UInt32, _ mix: UInt32) {
            byPoint?[pointSlot(point)] = UInt64(point) << 32 | UInt64(mix)
        }
        let mine = plane.map { $0[0] } ?? 0
        if let mix = known(mine) { return packed(key, mix, points) }
        var j = 0
        while j < min(remaining, lookAhead) {
            let other = cacheKey(UInt32(littleEndian: ahead[j]), undithered: aheadFlags?[j] ?? 0)
            j &+= 1
            guard other != key else { continue }
            let s = cacheSlot(other)
            guard other >> 24 == 0, UInt32(truncatingIfNeeded: cache[s] >> 32) & ~Quantizer.wideBit != other else { break }
            // The other pixel is ahead[j - 1], the plane's point j past this one.
            let theirs = plane.map { $0[j] } ?? 0
            // A colour of this one's point takes this one's mix from `byPoint` when the loop gets there.
            if byPoint != nil && theirs == mine { continue }
            if let mix = known(theirs) {
                cache[s] = packed(other, mix, points)
                continue
            }
            let its = plane != nil ? OklabPlane.unpack(theirs)
                : mapper.point(Int32(other & 0xFF), Int32(other >> 8 & 0xFF), Int32(other >> 16 & 0xFF))
            let (mixed, theirMix) = mixes(target, its, carried: carried, mapper: mapper, palette: palette, points: points)
            cache[s] = packed(other, theirMix, points)
            remember(mine, mixed)
            remember(theirs, theirMix)
            return packed(key, mixed, points)
        }
        let mixed = mix(target, carried: carried, mapper: mapper, palette: palette, points: points)
        remember(mine, mixed)
        return packed(key, mixed, points)
    }

    /// The cache entry of an undithered colour `key` whose packed point (from the layer's Oklab
    /// plane) is `point`: its nearest entry four times, as
    /// ``entry(_:ahead:aheadFlags:remaining:cache:byPoint:carried:mapper:palette:points:at:)`` gives it.
    /// Most misses in a photograph are undithered colours (4.1 of the 4.5 million on the
    /// benchmark's photos), and this call takes three arguments where that one takes eleven, so
    /// it saves and restores fewer registers (docs/behaviour.md, *Fewer loads and branches to wait on*).
    @inline(never)
    private static func plainEntry(_ key: UInt32, point: UInt32, mapper: ColorMapper) -> UInt64 {
        nearestFourTimes(key, OklabPlane.unpack(point), mapper: mapper)
    }

    /// Bit 25 of a cache entry's key word (bit 57 of the entry): set where the mix is wide
    /// (``wideMixSpread``), so the pixel shows the 2x2 cells in ``OrderedLayout/rows`` too.
    /// Lookups compare the key word without it.
    static let wideBit: UInt32 = 1 << 25

    /// The squared distance in the mapper's points (Oklab for the ordered pattern:
    /// ``ChannelWeights/rgb`` on ``Oklab`` points, lightness 0...990) between a mix's darkest
    /// and brightest entries past which ``OrderedLayout/rows`` lays the mix out in 2x2 cells,
    /// as still pictures do: about 0.05 in Oklab's units, a step the eye sees. One entry a
    /// row shows such a mix as stripes wherever the colour changes along the row: the small
    /// colour wheel of `others`, entering fast with `--easing ease-out` (frame 141), whose
    /// magenta lay between entries 19 levels of red apart, scored 62.54 against
    /// `pngquant 256`'s 68.23. Measured with `bench/quality-probe.py WORKLOAD` (bytes,
    /// SSIMULACRA2 mean, the worst sampled frame; sample banners / photos / gradients /
    /// `others`) and that frame: rows everywhere (before) 2,166,848 / 8,577,755 / 14,887,355 /
    /// 11,307,048 bytes, 88.62 / 81.03 / 82.48 / 84.27, worst 84.81 / 75.58 / 65.20 / 47.03,
    /// frame 141 62.54; 1,600 gradients 15,167,104 bytes, 82.81, frame 141 63.75;
    /// **2,400** gradients 15,096,191, 82.72, worst 68.02, frame 141 63.66; 3,200 gradients
    /// 15,033,599, 82.65, frame 141 63.29; 6,400 frame 141 62.62; cells everywhere frame 141
    /// 63.92, its render 3.7% larger. docs/behaviour.md (*Wide mixes in cells*) has the rest.
    static let wideMixSpread: Int32 = 2400

    /// A dithered colour's cache entry: `key` above `mix`, with ``wideBit`` where the mix's
    /// darkest and brightest entries (its first and last byte, sorted by luma) lie more than
    /// ``wideMixSpread`` apart.
    @inline(__always)
    private static func packed(_ key: UInt32, _ mix: UInt32, _ points: UnsafeBufferPointer<(Int32, Int32, Int32)>) -> UInt64 {
        let darkest = points[Int(mix & 0xFF)], brightest = points[Int(mix >> 24)]
        let wide = ChannelWeights.rgb.distance(darkest, brightest) > wideMixSpread
        return UInt64(key | (wide ? wideBit : 0)) << 32 | UInt64(mix)
    }

    /// The cache entry of an undithered colour `key` at `point` (in the mapper's space): the key
    /// above its nearest entry four times.
    @inline(__always)
    private static func nearestFourTimes(_ key: UInt32, _ point: (Int32, Int32, Int32), mapper: ColorMapper) -> UInt64 {
        UInt64(key) << 32 | UInt64(UInt32(mapper.nearest(inRange: point)) &* 0x0101_0101)
    }

    /// The slots of the mixes by point in
    /// ``mapOrdered(_:columns:height:mapper:transparentIndex:originX:only:undithered:plane:planeX:layout:runSlack:)``.
    private static let pointCacheSize = 1 << 14

    /// A packed point's slot among them: the low 5 bits of a and b and the low 4 of lightness.
    @inline(__always)
    private static func pointSlot(_ point: UInt32) -> Int {
        Int((point & 0x1F) | (point >> 4 & 0x3E0) | (point >> 8 & 0x3C00))
    }

    /// How many pixels past a miss ``entry(_:ahead:aheadFlags:remaining:cache:byPoint:carried:mapper:palette:points:at:)``
    /// looks for a second colour to work out beside it.
    private static let lookAhead = 4

    /// A pixel's key in the mix cache of
    /// ``mapOrdered(_:columns:height:mapper:transparentIndex:originX:only:undithered:plane:planeX:layout:runSlack:)``: its red,
    /// green and blue (`pixel` holds bytes r, g, b, a from the lowest), and 1 << 24 when it is
    /// `undithered` (1; 0 otherwise).
    @inline(__always)
    private static func cacheKey(_ pixel: UInt32, undithered: UInt8) -> UInt32 {
        pixel & 0xFF_FFFF | UInt32(undithered) << 24
    }

    /// A key's slot in that cache: the low 5 bits of its channels, the top bit flipped for an
    /// undithered colour.
    @inline(__always)
    private static func cacheSlot(_ key: UInt32) -> Int {
        Int((key & 0x1F) | (key >> 3 & 0x3E0) | (key >> 6 & 0x7C00)) ^ Int((key >> 24) << 14)
    }

    /// One of a mix's four candidates: the entry nearest to `target` plus `carried` eighths of
    /// the error `error` the candidates so far leave (``OrderedLayout/carried``), as its luma
    /// above its index; `error` takes this one's on.
    /// `target`, `error` and `points` (the entries) are in the mapper's space: RGB, or Oklab,
    /// where the pattern's error is carried perceptually too; the luma is from `palette`.
    @inline(__always)
    private static func candidate(_ target: (Int32, Int32, Int32), _ error: inout (Int32, Int32, Int32), carried: Int32,
                                  mapper: ColorMapper, palette: UnsafeBufferPointer<(Int32, Int32, Int32)>,
                                  points: UnsafeBufferPointer<(Int32, Int32, Int32)>) -> Int32 {
        let top = mapper.limits
        // Eighths, truncated toward zero alike either side; all eight give the error itself.
        let shift = (error.0 &* carried / 8, error.1 &* carried / 8, error.2 &* carried / 8)
        let c = mapper.nearest(inRange: (min(top.0, max(0, target.0 &+ shift.0)), min(top.1, max(0, target.1 &+ shift.1)),
                                       min(top.2, max(0, target.2 &+ shift.2))))
        let p = points[Int(c)]
        error.0 &+= target.0 &- p.0
        error.1 &+= target.1 &- p.1
        error.2 &+= target.2 &- p.2
        let q = palette[Int(c)]
        // Luma (at most 255000) above the index: distinct keys, ordered by luma then index.
        return (q.0 &* 299 &+ q.1 &* 587 &+ q.2 &* 114) << 8 | Int32(c)
    }

    /// Four candidates' entries sorted by their keys (luma, then index), one per byte from the lowest.
    @inline(__always)
    private static func sorted(_ keys: (Int32, Int32, Int32, Int32)) -> UInt32 {
        var keys = keys
        // A sorting network for four.
        if keys.0 > keys.1 { swap(&keys.0, &keys.1) }
        if keys.2 > keys.3 { swap(&keys.2, &keys.3) }
        if keys.0 > keys.2 { swap(&keys.0, &keys.2) }
        if keys.1 > keys.3 { swap(&keys.1, &keys.3) }
        if keys.1 > keys.2 { swap(&keys.1, &keys.2) }
        return UInt32(keys.0 & 0xFF) | UInt32(keys.1 & 0xFF) << 8 | UInt32(keys.2 & 0xFF) << 16 | UInt32(keys.3 & 0xFF) << 24
    }

    /// Four entries whose mean approximates `target` (a point of the mapper's space), sorted by
    /// luma (then index), one per byte from the lowest: each candidate the entry nearest to the
    /// target plus `carried` eighths of the error the candidates before it leave.
    @inline(__always)
    private static func mix(_ target: (Int32, Int32, Int32), carried: Int32, mapper: ColorMapper,
                            palette: UnsafeBufferPointer<(Int32, Int32, Int32)>,
                            points: UnsafeBufferPointer<(Int32, Int32, Int32)>) -> UInt32 {
        var error: (Int32, Int32, Int32) = (0, 0, 0)
        let k0 = candidate(target, &error, carried: carried, mapper: mapper, palette: palette, points: points)
        let k1 = candidate(target, &error, carried: carried, mapper: mapper, palette: palette, points: points)
        let k2 = candidate(target, &error, carried: carried, mapper: mapper, palette: palette, points: points)
        let k3 = candidate(target, &error, carried: carried, mapper: mapper, palette: palette, points: points)
        return sorted((k0, k1, k2, k3))
    }

    /// ``mix(_:carried:mapper:palette:points:)`` of two targets, their candidates found in turn: each
    /// target's four searches depend on one another, the two targets' do not, so the
    /// processor overlaps them. With the same bytes, the mixes' share of a gradients render's
    /// CPU samples (`perf record -e cpu-clock`) went from 23.7% to 20.6%; docs/behaviour.md
    /// gives the render times.
    @inline(__always)
    private static func mixes(_ a: (Int32, Int32, Int32), _ b: (Int32, Int32, Int32), carried: Int32, mapper: ColorMapper,
                              palette: UnsafeBufferPointer<(Int32, Int32, Int32)>,
                              points: UnsafeBufferPointer<(Int32, Int32, Int32)>) -> (UInt32, UInt32) {
        var ea: (Int32, Int32, Int32) = (0, 0, 0), eb = ea
        let a0 = candidate(a, &ea, carried: carried, mapper: mapper, palette: palette, points: points)
        let b0 = candidate(b, &eb, carried: carried, mapper: mapper, palette: palette, points: points)
        let a1 = candidate(a, &ea, carried: carried, mapper: mapper, palette: palette, points: points)
        let b1 = candidate(b, &eb, carried: carried, mapper: mapper, palette: palette, points: points)
        let a2 = candidate(a, &ea, carried: carried, mapper: mapper, palette: palette, points: points)
        let b2 = candidate(b, &eb, carried: carried, mapper: mapper, palette: palette, points: points)
        let a3 = candidate(a, &ea, carried: carried, mapper: mapper, palette: palette, points: points)
        let b3 = candidate(b, &eb, carried: carried, mapper: mapper, palette: palette, points: points)
        return (sorted((a0, a1, a2, a3)), sorted((b0, b1, b2, b3)))
    }

    /// Floyd–Steinberg error diffusion with a serpentine scan; the carried error is
    /// damped to 7/8 so flat areas do not build up noise.
    private static func mapDiffused(_ image: RGBAImage, mapper: ColorMapper, transparentIndex: Int?) -> [UInt8] {
        let w = image.width, h = image.height
        var indices = [UInt8](repeating: 0, count: w * h)
        var current = [Int32](repeating: 0, count: (w + 2) * 3)
        var next = [Int32](repeating: 0, count: (w + 2) * 3)
        let p = image.pixels
        let palette = mapper.palette
        for y in 0..<h {
            let forward = y % 2 == 0
            for k in 0..<next.count { next[k] = 0 }
            for step in 0..<w {
                let x = forward ? step : w - 1 - step
                let i = y * w + x, o = i * 4, e = (x + 1) * 3
                if p[o + 3] < 128, let t = transparentIndex {
                    indices[i] = UInt8(t)
                    continue
                }
                let r = min(255, max(0, Int32(p[o]) + current[e] / 16))
                let g = min(255, max(0, Int32(p[o + 1]) + current[e + 1] / 16))
                let b = min(255, max(0, Int32(p[o + 2]) + current[e + 2] / 16))
                let index = mapper.nearest(r, g, b)
                indices[i] = index
                let c = palette[Int(index)]
                let er = (r - Int32(c.r)) * 7 / 8, eg = (g - Int32(c.g)) * 7 / 8, eb = (b - Int32(c.b)) * 7 / 8
                let ahead = forward ? e + 3 : e - 3, behind = forward ? e - 3 : e + 3
                current[ahead] += er * 7
                current[ahead + 1] += eg * 7
                current[ahead + 2] += eb * 7
                next[behind] += er * 3
                next[behind + 1] += eg * 3
                next[behind + 2] += eb * 3
                next[e] += er * 5
                next[e + 1] += eg * 5
                next[e + 2] += eb * 5
                next[ahead] += er
                next[ahead + 1] += eg
                next[ahead + 2] += eb
            }
            swap(&current, &next)
        }
        return indices
    }
}
