// The dither mask alone (Sources/Carousel/Encode/Palette/DitherMask.swift): `DitherMask.bits`
// timed on a strip of raw RGBA pixels, apart from the rest of a render, on all cores as a render
// makes it. Built with swiftc beside the mask's source and the few it needs:
//
//     swiftc -O -parse-as-library -module-name Carousel bench/mask-time.swift \
//         Sources/Carousel/Encode/Palette/DitherMask.swift Sources/Carousel/Image/RGBAImage.swift \
//         Sources/Carousel/Image/RGBA.swift Sources/Carousel/Support/ParallelMap.swift \
//         Sources/Carousel/Support/POSIX.swift -o /tmp/mask-time
//     /tmp/mask-time STRIP.rgba WIDTH HEIGHT [PASSES]
//
// STRIP.rgba is WIDTH x HEIGHT pixels, four bytes each (r, g, b, a), row by row: a render's strip,
// as `carousel strip` writes it with the render's options (the sample banners' by default), made
// raw with Pillow, which prints WIDTH and HEIGHT:
//
//     carousel strip -o /tmp/strip.png [IMAGES] [OPTIONS]
//     python3 -c "from PIL import Image; i = Image.open('/tmp/strip.png').convert('RGBA'); open('/tmp/strip.rgba', 'wb').write(i.tobytes()); print(*i.size)"
//
// It prints the best of PASSES passes (10 by default) in milliseconds and nanoseconds a pixel,
// and a checksum of the bits: to compare two versions of the mask, build this once against
// each and run both on the same strip; equal checksums mean the same bits.
import Foundation

@main
struct MaskTime {
    static func main() {
        let args = CommandLine.arguments
        // 64 for arguments that cannot be run, 1 for a strip that cannot be read.
        func fail(_ message: String, status: Int32 = 64) -> Never {
            FileHandle.standardError.write("mask-time: \(message)\n".data(using: .utf8)!)
            exit(status)
        }
        guard args.count == 4 || args.count == 5 else { fail("usage: mask-time STRIP.rgba WIDTH HEIGHT [PASSES]") }
        guard let width = Int(args[2]), width > 0, let height = Int(args[3]), height > 0 else {
            fail("WIDTH and HEIGHT are whole numbers above 0")
        }
        guard let passes = args.count == 5 ? Int(args[4]) : 10, passes > 0 else { fail("PASSES is a whole number above 0") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= Int.max / 4 else { fail("WIDTH x HEIGHT is too many pixels") }
        guard let data = FileManager.default.contents(atPath: args[1]) else {
            fail("\(args[1].debugDescription): not readable", status: 1)
        }
        guard data.count == pixels * 4 else {
            fail("\(args[1].debugDescription) holds \(data.count) bytes, not \(width) x \(height) x 4", status: 1)
        }
        let strip = RGBAImage(width: width, height: height, pixels: [UInt8](data))
        var best = Double.infinity, bits: [UInt8] = []
        for _ in 0..<passes {
            let start = DispatchTime.now().uptimeNanoseconds
            bits = DitherMask.bits(strip)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        // A polynomial hash of the bits in order.
        let checksum = bits.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }
        print("best of \(passes): " + String(format: "%.2f ms, %.2f ns a pixel", best, best * 1e6 / Double(pixels))
              + ", checksum \(checksum)")
    }
}
