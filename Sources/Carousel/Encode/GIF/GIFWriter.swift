import CGifLib

/// A streaming GIF89a encoder over giflib: frames are written as they come, so memory
/// does not grow with the number of frames.
///
/// The giflib handle must be closed exactly once: ``close()`` consumes the writer,
/// and `deinit` closes it on early exits (an error thrown while writing frames).
public struct GIFWriter: ~Copyable {
    private let handle: UnsafeMutablePointer<GifFileType>
    private let box: Unmanaged<SinkBox>
    /// Canvas width.
    public let width: Int
    /// Canvas height.
    public let height: Int

    /// The output's name, as errors give it.
    var name: String { box.takeUnretainedValue().name }

    /// The most entries a GIF colour table holds.
    public static let maximumColors = 256

    /// The widest and tallest GIF: its logical screen's sizes are 16-bit.
    public static let maximumDimension = 65535

    /// Starts a GIF89a of `width x height` on `sink`, with a NETSCAPE2.0 block for `loop`.
    public init(sink: any ByteSink, name: String, width: Int, height: Int, loop: LoopMode) throws(CarouselError) {
        guard (1...GIFWriter.maximumDimension).contains(width), (1...GIFWriter.maximumDimension).contains(height) else {
            throw .output(name, "GIF dimensions must be 1...\(GIFWriter.maximumDimension), got \(width)x\(height)")
        }
        let box = Unmanaged.passRetained(SinkBox(sink: sink, name: name))
        var error: Int32 = 0
        guard let handle = EGifOpen(box.toOpaque(), gifWrite, &error) else {
            box.release()
            throw .output(name, GIFWriter.reason(error))
        }
        EGifSetGifVersion(handle, true)
        do throws(CarouselError) {
            try GIFWriter.writeHeader(handle, box: box, width: width, height: height, loop: loop)
        } catch {
            var ignored: Int32 = 0
            EGifCloseFile(handle, &ignored)
            box.release()
            throw error
        }
        self.handle = handle
        self.box = box
        self.width = width
        self.height = height
    }

    /// The screen descriptor and the NETSCAPE2.0 loop block.
    private static func writeHeader(_ handle: UnsafeMutablePointer<GifFileType>, box: Unmanaged<SinkBox>,
                                    width: Int, height: Int, loop: LoopMode) throws(CarouselError) {
        func check(_ status: Int32) throws(CarouselError) {
            try GIFWriter.check(status, handle: handle, box: box)
        }
        try check(EGifPutScreenDesc(handle, Int32(width), Int32(height), 8, 0, nil))
        if let count = loop.netscapeCount {
            let application: [UInt8] = Array("NETSCAPE2.0".utf8)
            let repeats: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
            try check(EGifPutExtensionLeader(handle, APPLICATION_EXT_FUNC_CODE))
            try check(application.withUnsafeBytes { EGifPutExtensionBlock(handle, 11, $0.baseAddress) })
            try check(repeats.withUnsafeBytes { EGifPutExtensionBlock(handle, 3, $0.baseAddress) })
            try check(EGifPutExtensionTrailer(handle))
        }
    }

    /// Writes one frame at (`left`, `top`) with its own colour table and a delay in centiseconds,
    /// taken at the nearer end of 0...65535, the GIF's 16 bits (a negative delay was written as
    /// its low 16 bits: -1 as 655.35 s).
    ///
    /// The local colour table is padded with black to a power of two (at least 2). The
    /// indices are compressed by `GIFLZW`, which writes what giflib's `EGifPutLine` would.
    /// By default the frame stays when the next is drawn ("do not dispose"), so a later
    /// frame may cover only part of the canvas, its transparent pixels showing this one;
    /// `clearAfter` restores the canvas to transparent instead.
    public func write(_ frame: IndexedFrame, left: Int = 0, top: Int = 0, delay: Int,
                      clearAfter: Bool = false) throws(CarouselError) {
        // A GIF's image descriptor holds 16-bit places and sizes; a frame past the canvas is a broken file.
        guard left >= 0, top >= 0, frame.width >= 1, frame.height >= 1, left <= width - frame.width, top <= height - frame.height else {
            throw .output(box.takeUnretainedValue().name,
                          "a \(frame.width)x\(frame.height) frame at (\(left), \(top)) lies outside the \(width)x\(height) canvas")
        }
        var gcb = GraphicsControlBlock(DisposalMode: clearAfter ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT, UserInputFlag: false,
                                       DelayTime: Int32(max(0, min(delay, 65535))),
                                       TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&gcb, &extensionBytes)
        try check(EGifPutExtension(handle, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes))

        var size = 2
        while size < frame.palette.count { size *= 2 }
        var colors = frame.palette.map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
        colors += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - colors.count)
        guard let map = GifMakeMapObject(Int32(size), colors) else {
            throw .output(box.takeUnretainedValue().name, "cannot allocate a colour map")
        }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(handle, Int32(left), Int32(top), Int32(frame.width), Int32(frame.height), false, map))
        // giflib has written the code size (from the colour table, at least 2); the image data
        // goes in as raw code blocks, compressed as EGifPutLine would.
        let codeSize = max(2, size.trailingZeroBitCount)
        var first = true, status = GIF_OK
        frame.indices.withUnsafeBufferPointer { indices in
            GIFLZW.compress(indices, minimumCodeSize: codeSize) { block in
                guard status == GIF_OK, let base = block.baseAddress else { return }
                status = first ? EGifPutCode(handle, Int32(codeSize), base) : EGifPutCodeNext(handle, base)
                first = false
            }
        }
        try check(status)
        try check(EGifPutCodeNext(handle, nil))
    }

    /// Writes the trailer and releases giflib's handle.
    public consuming func close() throws(CarouselError) {
        let handle = self.handle, box = self.box
        discard self
        var error: Int32 = 0
        let status = EGifCloseFile(handle, &error)
        let sinkBox = box.takeRetainedValue()
        if let failure = sinkBox.failure { throw failure }
        if status != GIF_OK { throw .output(sinkBox.name, GIFWriter.reason(error)) }
    }

    deinit {
        var error: Int32 = 0
        EGifCloseFile(handle, &error)
        box.release()
    }

    private func check(_ status: Int32) throws(CarouselError) {
        try GIFWriter.check(status, handle: handle, box: box)
    }

    private static func check(_ status: Int32, handle: UnsafeMutablePointer<GifFileType>,
                              box: Unmanaged<SinkBox>) throws(CarouselError) {
        guard status == GIF_OK else {
            let sinkBox = box.takeUnretainedValue()
            if let failure = sinkBox.failure { throw failure }
            throw .output(sinkBox.name, GIFWriter.reason(handle.pointee.Error))
        }
    }

    static func reason(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "giflib error \(code)" }
        return String(cString: text)
    }
}

/// The sink giflib's write callback reaches through `UserData`, and the first failure it saw.
final class SinkBox {
    let sink: any ByteSink
    let name: String
    var failure: CarouselError?

    init(sink: any ByteSink, name: String) {
        self.sink = sink
        self.name = name
    }
}

/// giflib's output callback: forwards to the sink, returns 0 on failure so giflib reports a write error.
private func gifWrite(_ file: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?,
                      _ count: Int32) -> Int32 {
    guard let file, let user = file.pointee.UserData, let bytes else { return 0 }
    let box = Unmanaged<SinkBox>.fromOpaque(user).takeUnretainedValue()
    if box.failure != nil { return 0 }
    do {
        try box.sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
        return count
    } catch {
        box.failure = error
        return 0
    }
}

/// One frame already LZW-encoded: its graphics control block, image descriptor, colour
/// table and image data, ready to go into a GIF stream.
public struct EncodedFrame: Sendable {
    /// The bytes, from the graphics control extension to the image's block terminator.
    public let bytes: [UInt8]
}

extension GIFWriter {
    /// Encodes one frame on its own, so frames can be encoded in parallel and written in order.
    ///
    /// The frame goes through a separate giflib encoder (opened and closed once) writing to
    /// memory; the result is that stream less its header, screen descriptor and trailer.
    /// `clearAfter` restores the frame's rectangle to transparent once it has shown.
    public static func encode(_ frame: IndexedFrame, left: Int, top: Int, delay: Int,
                              canvasWidth: Int, canvasHeight: Int, clearAfter: Bool = false) throws(CarouselError) -> EncodedFrame {
        let memory = MemorySink()
        let writer = try GIFWriter(sink: memory, name: "<frame>", width: canvasWidth, height: canvasHeight, loop: .once)
        try writer.write(frame, left: left, top: top, delay: delay, clearAfter: clearAfter)
        try writer.close()
        let bytes = [UInt8](memory.data)
        // GIF89a header (6) + logical screen descriptor without a global table (7) ... trailer (1).
        return EncodedFrame(bytes: Array(bytes[13..<(bytes.count - 1)]))
    }

    /// Writes a frame encoded by ``encode(_:left:top:delay:canvasWidth:canvasHeight:clearAfter:)`` at this point of the stream.
    public func write(_ encoded: EncodedFrame) throws(CarouselError) {
        let sinkBox = box.takeUnretainedValue()
        try sinkBox.sink.write(encoded.bytes)
    }
}
