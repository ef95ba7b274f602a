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
    var error: Int32 = 0
    guard let gif = DGifOpenFileName(path, &error) else {
        FileHandle.standardError.write("lzw-time: \(path): not readable as a GIF (giflib error \(error))\n".data(using: .utf8)!)
        exit(1)
    }
    defer { DGifCloseFile(gif, &error) }
    guard DGifSlurp(gif) == GIF_OK else {
        FileHandle.standardError.write("lzw-time: \(path): not a whole GIF (giflib error \(gif.pointee.Error))\n".data(using: .utf8)!)
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
        if arguments.first == "--passes", arguments.count > 1, let n = Int(arguments[1]), n > 0 {
            passes = n
            arguments.removeFirst(2)
        }
        guard !arguments.isEmpty else {
            FileHandle.standardError.write("usage: lzw-time [--passes N] GIF...\n".data(using: .utf8)!)
            exit(64)
        }
        let all = arguments.flatMap(images)
        let pixels = all.reduce(0) { $0 + $1.indices.count }
        let bytes = all.reduce(0) { total, image in
            total + image.indices.withUnsafeBufferPointer { GIFLZW.compress($0, minimumCodeSize: image.codeSize).count }
        }
        print("\(all.count) images, \(pixels) pixels, \(bytes) bytes of LZW data")
        for pass in 1...passes {
            var written = 0
            let start = DispatchTime.now().uptimeNanoseconds
            for image in all {
                image.indices.withUnsafeBufferPointer { GIFLZW.compress($0, minimumCodeSize: image.codeSize) { written &+= $0.count } }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            precondition(written == bytes, "lzw-time: a pass wrote \(written) bytes, the first \(bytes)")
            print(String(format: "pass %d: %.3f s, %.2f ns a pixel", pass, seconds, seconds * 1e9 / Double(pixels)))
        }
    }
}
