@testable import Carousel

extension FramePicture {
    /// The whole picture, row by row as the encoder reads it: what ``FramePlan/picture`` makes.
    var image: RGBAImage {
        withRows { rows in
            var pixels: [UInt8] = []
            pixels.reserveCapacity(width * height * 4)
            for y in 0..<height { pixels += UnsafeRawBufferPointer(start: rows(y), count: width * 4) }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }
}
