// The GIF's LZW compressor alone (Sources/Carousel/Encode/GIF/GIFLZW.swift), timed on the
// frames of GIFs: how many bytes of codes it writes and how long it takes, apart from the
// rest of a render. Built with swiftc beside the compressor's source:
//
//     swiftc -O -parse-as-library -import-objc-header bench/lzw-time.h bench/lzw-time.swift \
//         Sources/Carousel/Encode/GIF/GIFLZW.swift -lgif -o /tmp/lzw-time
//     /tmp/lzw-time [--passes N] GIF...
//
// Every image of every GIF is read with giflib (DGifSlurp) as indices and a code size
// (its colour table's bits, at least 2), compressed once to count the bytes (sub-blocks
// with their length bytes), then compressed N times (5 by default) in a row, each pass
// timed. To compare two compressors, build this once against each source (a changed copy
// of GIFLZW.swift in place of the original) and run both on the same GIFs: equal bytes
// mean the same codes were written.
import Foundation

struct Image {
    let indices: [UInt8]
    let codeSize: Int
}

func images(_ path: String) -> [Image] {
    // Control characters escaped, so an error stays one line.
    let name = path.unicodeScalars.contains { $0.value < 32 || $0.value == 127 } ? path.debugDescription : path
    var error: Int32 = 0
    guard let gif = DGifOpenFileName(path, &error) else {
        FileHandle.standardError.write("lzw-time: \(name): not readable as a GIF (giflib error \(error))\n".data(using: .utf8)!)
        exit(1)
    }
    defer { DGifCloseFile(gif, &error) }
    guard DGifSlurp(gif) == GIF_OK else {
        FileHandle.standardError.write("lzw-time: \(name): not a whole GIF (giflib error \(gif.pointee.Error))\n".data(using: .utf8)!)
        exit(1)
    }
    return (0..<Int(gif.pointee.ImageCount)).map { i in
        let image = gif.pointee.SavedImages[i]
        let count = Int(image.ImageDesc.Width) * Int(image.ImageDesc.Height)
        let bits = (image.ImageDesc.ColorMap ?? gif.pointee.SColorMap)?.pointee.BitsPerPixel ?? 8
        return Image(indices: Array(UnsafeBufferPointer(start: image.RasterBits, count: count)),
                     codeSize: max(2, Int(bits)))
    }
}

@main
struct LZWTime {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var passes = 5
        func usage(_ problem: String) -> Never {
            FileHandle.standardError.write("lzw-time: \(problem); usage: lzw-time [--passes N] GIF... (N from 1 to 1000)\n".data(using: .utf8)!)
            exit(64)
        }
        if arguments.first == "--passes" {
            guard arguments.count > 1, let n = Int(arguments[1]), (1...1000).contains(n) else {
                usage("--passes takes a whole number from 1 to 1000, got \(arguments.count > 1 ? arguments[1].debugDescription : "nothing")")
            }
            passes = n
            arguments.removeFirst(2)
        }
        guard !arguments.isEmpty else { usage("no GIF given") }
        let all = arguments.flatMap(images)
        let pixels = all.reduce(0) { $0 + $1.indices.count }
        let bytes = all.reduce(0) { total, image in
            total + image.indices.withUnsafeBufferPointer { GIFLZW.compress($0, minimumCodeSize: image.codeSize).count }
        }
        guard pixels > 0 else {
            FileHandle.standardError.write("lzw-time: the GIFs hold no pixels to compress\n".data(using: .utf8)!)
            exit(1)
        }
        print("\(all.count) images, \(pixels) pixels, \(bytes) bytes of LZW data")
        for pass in 1...passes {
            var written = 0
            let start = DispatchTime.now().uptimeNanoseconds
            for image in all {
                image.indices.withUnsafeBufferPointer { GIFLZW.compress($0, minimumCodeSize: image.codeSize) { written &+= $0.count } }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard written == bytes else {
                FileHandle.standardError.write("lzw-time: pass \(pass) wrote \(written) bytes, the first \(bytes)\n".data(using: .utf8)!)
                exit(1)
            }
            print(String(format: "pass %d: %.3f s, %.2f ns a pixel", pass, seconds, seconds * 1e9 / Double(pixels)))
        }
    }
}
