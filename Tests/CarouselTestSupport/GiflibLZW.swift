import CGifLib
import Foundation

/// The image data giflib's own compressor (`EGifPutLine`) writes for `indices`, a frame of
/// `width x height` with a colour table of `colors` entries (a power of two): its
/// sub-blocks, without the code size before them or the empty block after them.
public func giflibImageData(_ indices: [UInt8], width: Int, height: Int, colors: Int) -> [UInt8] {
    let sink = GiflibMemory()
    let user = Unmanaged.passRetained(sink)
    defer { user.release() }
    var error: Int32 = 0
    guard let handle = EGifOpen(user.toOpaque(), writeToMemory, &error) else { return [] }
    let palette = (0..<colors).map { GifColorType(Red: UInt8($0 % 256), Green: 0, Blue: 0) }
    let map = GifMakeMapObject(Int32(colors), palette)
    defer { GifFreeMapObject(map) }
    EGifPutScreenDesc(handle, Int32(width), Int32(height), 8, 0, nil)
    let start = sink.bytes.count
    EGifPutImageDesc(handle, 0, 0, Int32(width), Int32(height), false, map)
    var lines = indices
    lines.withUnsafeMutableBufferPointer { _ = EGifPutLine(handle, $0.baseAddress, Int32($0.count)) }
    EGifCloseFile(handle, &error)
    // Image descriptor (10), colour table, code size (1) ... empty block (1), trailer (1).
    let data = start + 10 + 3 * colors + 1
    return Array(sink.bytes[data..<(sink.bytes.count - 2)])
}

private final class GiflibMemory {
    var bytes: [UInt8] = []
}

private func writeToMemory(_ file: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?,
                           _ count: Int32) -> Int32 {
    guard let user = file?.pointee.UserData, let bytes else { return 0 }
    Unmanaged<GiflibMemory>.fromOpaque(user).takeUnretainedValue().bytes
        .append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
    return count
}
