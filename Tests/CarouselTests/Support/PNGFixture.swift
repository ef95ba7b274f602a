import Carousel
import CarouselTestSupport
import Foundation

/// Writes PNG files byte by byte (stored deflate blocks, Adam7 when asked), so the
/// decoder is tested on every colour type, bit depth and interlace method without
/// any image files in the repository.
struct PNGFixture: CustomStringConvertible {
    enum ColorType: UInt8 {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

        var channels: Int {
            switch self {
            case .gray, .palette: return 1
            case .grayAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    let colorType: ColorType
    let bitDepth: Int
    let interlaced: Bool
    let width: Int
    let height: Int
    /// With tRNS: a transparent sample value (gray/rgb) or palette alphas.
    let transparency: Bool

    var description: String {
        "\(colorType) \(bitDepth)-bit \(interlaced ? "Adam7" : "plain")\(transparency ? " tRNS" : "") \(width)x\(height)"
    }

    /// Every valid (colour type, bit depth) pair of the PNG specification.
    static let combinations: [(ColorType, Int)] = [
        (.gray, 1), (.gray, 2), (.gray, 4), (.gray, 8), (.gray, 16),
        (.rgb, 8), (.rgb, 16),
        (.palette, 1), (.palette, 2), (.palette, 4), (.palette, 8),
        (.grayAlpha, 8), (.grayAlpha, 16),
        (.rgba, 8), (.rgba, 16),
    ]

    /// Every combination, plain and interlaced, with and without tRNS where allowed.
    static var all: [PNGFixture] {
        var out: [PNGFixture] = []
        for (type, depth) in combinations {
            for interlaced in [false, true] {
                out.append(PNGFixture(colorType: type, bitDepth: depth, interlaced: interlaced, width: 13, height: 11, transparency: false))
                if type == .gray || type == .rgb || type == .palette {
                    out.append(PNGFixture(colorType: type, bitDepth: depth, interlaced: interlaced, width: 13, height: 11, transparency: true))
                }
            }
        }
        return out
    }

    var maxSample: Int { (1 << bitDepth) - 1 }

    /// Sample `c` of pixel (x, y): a pattern that uses the whole range of the bit depth.
    func sample(_ x: Int, _ y: Int, _ c: Int) -> Int {
        if colorType == .palette { return (x * 3 + y * 5) % min(256, maxSample + 1) }
        let v = (x * 37 + y * 101 + c * 53) * 2654435761 % 1_000_003
        return v % (maxSample + 1)
    }

    var paletteSize: Int { min(256, maxSample + 1) }

    func paletteEntry(_ i: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8((i * 47) % 256), UInt8((i * 91 + 30) % 256), UInt8((i * 13 + 200) % 256))
    }

    /// The alpha the tRNS chunk gives palette entry `i`.
    func paletteAlpha(_ i: Int) -> UInt8 { UInt8((i * 71) % 256) }

    /// The gray or RGB sample value tRNS marks transparent: the value of pixel (1, 0).
    var transparentKey: [Int] { (0..<colorType.channels).map { sample(1, 0, $0) } }

    /// The RGBA8 pixels a decoder must produce (16-bit samples as sRGB, rounded).
    var expected: RGBAImage {
        var image = RGBAImage(width: width, height: height)
        func to8(_ v: Int) -> UInt8 {
            bitDepth == 16 ? UInt8((v * 255 + 32767) / 65535) : UInt8(v * 255 / maxSample)
        }
        for y in 0..<height {
            for x in 0..<width {
                let s = (0..<colorType.channels).map { sample(x, y, $0) }
                switch colorType {
                case .gray:
                    let g = to8(s[0])
                    let a: UInt8 = transparency && s == transparentKey ? 0 : 255
                    image[x, y] = RGBA(r: g, g: g, b: g, a: a)
                case .rgb:
                    let a: UInt8 = transparency && s == transparentKey ? 0 : 255
                    image[x, y] = RGBA(r: to8(s[0]), g: to8(s[1]), b: to8(s[2]), a: a)
                case .palette:
                    let (r, g, b) = paletteEntry(s[0])
                    image[x, y] = RGBA(r: r, g: g, b: b, a: transparency ? paletteAlpha(s[0]) : 255)
                case .grayAlpha:
                    let g = to8(s[0])
                    image[x, y] = RGBA(r: g, g: g, b: g, a: to8(s[1]))
                case .rgba:
                    image[x, y] = RGBA(r: to8(s[0]), g: to8(s[1]), b: to8(s[2]), a: to8(s[3]))
                }
            }
        }
        return image
    }

    /// The PNG file.
    var data: Data {
        var ihdr = Data()
        ihdr.append(PNGBytes.be32(width))
        ihdr.append(PNGBytes.be32(height))
        ihdr.append(contentsOf: [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0])
        var chunks = [PNGBytes.chunk("IHDR", ihdr)]
        if colorType == .palette {
            var plte = Data()
            for i in 0..<paletteSize {
                let (r, g, b) = paletteEntry(i)
                plte.append(contentsOf: [r, g, b])
            }
            chunks.append(PNGBytes.chunk("PLTE", plte))
        }
        if transparency {
            var trns = Data()
            if colorType == .palette {
                trns.append(contentsOf: (0..<paletteSize).map(paletteAlpha))
            } else {
                for v in transparentKey { trns.append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xFF)]) }
            }
            chunks.append(PNGBytes.chunk("tRNS", trns))
        }
        chunks.append(PNGBytes.chunk("IDAT", PNGBytes.zlibStored(rawScanlines())))
        chunks.append(PNGBytes.chunk("IEND", Data()))
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        chunks.forEach { file.append($0) }
        return file
    }

    /// Filter-type-0 scanlines, one reduced image per Adam7 pass when interlaced.
    func rawScanlines() -> Data {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out = Data()
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                out.append(0)
                var bits = BitWriter()
                for x in xs {
                    for c in 0..<colorType.channels { bits.write(sample(x, y, c), bits: bitDepth) }
                }
                out.append(bits.finish())
            }
        }
        return out
    }
}

/// Packs samples most significant bit first, as PNG scanlines do.
struct BitWriter {
    private var bytes: [UInt8] = []
    private var current = 0
    private var used = 0

    mutating func write(_ value: Int, bits: Int) {
        if bits >= 8 {
            for shift in stride(from: bits - 8, through: 0, by: -8) { bytes.append(UInt8((value >> shift) & 0xFF)) }
            return
        }
        current = current << bits | value
        used += bits
        if used == 8 {
            bytes.append(UInt8(current))
            current = 0
            used = 0
        }
    }

    mutating func finish() -> Data {
        if used > 0 {
            bytes.append(UInt8(current << (8 - used)))
            current = 0
            used = 0
        }
        return Data(bytes)
    }
}
