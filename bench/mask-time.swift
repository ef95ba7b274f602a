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
// STRIP.rgba is WIDTH x HEIGHT pixels, four bytes each (r, g, b, a), row by row: e.g. the sample
// banners side by side with a clone at each end, as the default render's strip lies,
//
//     python3 -c "import numpy as np, glob; from PIL import Image; i = [np.asarray(Image.open(p)
//         .convert('RGBA')) for p in sorted(glob.glob('SampleImages/banners/*.png'))];
//         open('/tmp/strip.rgba', 'wb').write(np.concatenate([i[-1]] + i + [i[0]], 1).tobytes())"
//
// (4480 x 360). It prints the best of PASSES passes (10 by default) in milliseconds and
// nanoseconds a pixel, and a checksum of the bits: to compare two versions of the mask, build
// this once against each and run both on the same strip; equal checksums mean the same bits.
import Foundation

@main
struct MaskTime {
    static func main() {
        let args = CommandLine.arguments
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write("mask-time: \(message)\n".data(using: .utf8)!)
            exit(64)
        }
        guard args.count == 4 || args.count == 5 else { fail("usage: mask-time STRIP.rgba WIDTH HEIGHT [PASSES]") }
        guard let width = Int(args[2]), width > 0, let height = Int(args[3]), height > 0 else {
            fail("WIDTH and HEIGHT are whole numbers above 0")
        }
        guard let passes = args.count == 5 ? Int(args[4]) : 10, passes > 0 else { fail("PASSES is a whole number above 0") }
        guard let data = FileManager.default.contents(atPath: args[1]) else { fail("\(args[1].debugDescription): not readable") }
        guard data.count == width * height * 4 else {
            fail("\(args[1].debugDescription) holds \(data.count) bytes, not \(width) x \(height) x 4")
        }
        let strip = RGBAImage(width: width, height: height, pixels: [UInt8](data))
        var best = Double.infinity, checksum = 0
        for _ in 0..<passes {
            let start = DispatchTime.now().uptimeNanoseconds
            let bits = DitherMask.bits(strip)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            checksum = 0
            for (i, b) in bits.enumerated() { checksum = checksum &* 31 &+ Int(b) &+ i & 0xFFFF }
        }
        print(String(format: "best of %d: %.2f ms, %.2f ns a pixel, checksum %d", passes, best,
                     best * 1e6 / Double(width * height), checksum))
    }
}
