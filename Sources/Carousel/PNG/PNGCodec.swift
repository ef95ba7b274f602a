import CLibPNG
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads and writes PNG through libpng's simplified API (`png_image_*`).
///
/// The simplified API reports errors by return value and a message in the
/// `png_image`, so no `setjmp` is needed. Every colour type, bit depth and
/// interlace method libpng supports is decoded into ``RGBAImage``.
public enum PNGCodec {
    /// The largest image accepted, in pixels (64 Mi = 67,108,864, e.g. 8192 x 8192).
    ///
    /// The cap is checked from the header, before any pixel memory is allocated.
    public static let maximumPixels = 64 * 1024 * 1024

    /// The largest PNG file read, in bytes (1 GiB).
    public static let maximumFileSize = 1 << 30

    /// Decodes the PNG file at `url`.
    ///
    /// 16-bit images without gamma information are taken as sRGB-encoded, as
    /// image editors write them, and rounded to 8 bits.
    public static func decode(contentsOf url: URL, maximumPixels: Int = maximumPixels) throws(PNGError) -> RGBAImage {
        try decode(contents(of: url), name: url.relativePath, maximumPixels: maximumPixels)
    }

    /// The bytes of the file at `url`, refused as ``decode(contentsOf:maximumPixels:)``
    /// refuses a file it cannot read; errors name it as the user gave it (`poster3.png`).
    /// A URL that is not a file's (`https://…`) is refused as such: its path alone would name
    /// some local file.
    static func contents(of url: URL) throws(PNGError) -> Data {
        guard url.isFileURL else {
            throw .unreadable(file: url.absoluteString, reason: "not a file URL; give a file:// URL or a path")
        }
        do {
            return try InputFile.read(fileSystemPath(of: url), limit: maximumFileSize, as: "image",
                                      opening: .init(prefix: signature, kept: ForeignFormat.sniffedBytes))
        } catch {
            throw .unreadable(file: url.relativePath, reason: error.reason)
        }
    }

    /// The path the file system reads for file URL `url`, as `open` would resolve the path it
    /// was made from: a relative URL's path as given, after its base's folder (the base itself
    /// where it names a folder, as `URL(fileURLWithPath:isDirectory: true)` does, else the
    /// folder it is in, as URLs resolve). Foundation's `path` takes a `..` out with the name
    /// before it, as text, so `link/../x.png` was `./x.png`, where the kernel goes through
    /// `link`'s target to the `x.png` beside it.
    static func fileSystemPath(of url: URL) -> String {
        let relative = url.relativePath
        guard let base = url.baseURL, base.isFileURL, !relative.hasPrefix("/") else { return url.path }
        let folder = base.hasDirectoryPath ? base.path : base.deletingLastPathComponent().path
        let joined = Paths.join(folder, relative)
        // A path of PATH_MAX bytes or more is refused whole (`ENAMETOOLONG`), which a working
        // folder deeper than that makes of every path joined to it: relative to the working
        // folder, the path as given names the same file and is read so.
        if joined.utf8.count >= Int(PATH_MAX), folder == Paths.currentFolder() { return relative }
        return joined
    }

    /// The width and height the header of PNG `data` declares, checked as
    /// ``decode(_:name:maximumPixels:)`` checks them (a PNG libpng reads, within the size
    /// cap), without decoding a pixel.
    static func size(of data: Data, name: String, maximumPixels: Int = maximumPixels) throws(PNGError) -> (width: Int, height: Int) {
        try checkSignature(data, name: name)
        let result: Result<(width: Int, height: Int), PNGError> = data.withUnsafeBytes { raw in
            Result { () throws(PNGError) in try withHeader(raw, name: name, maximumPixels: maximumPixels) { _, width, height in (width, height) } }
        }
        return try result.get()
    }

    /// Decodes PNG `data`; `name` is used in errors.
    public static func decode(_ data: Data, name: String = "<memory>", maximumPixels: Int = maximumPixels) throws(PNGError) -> RGBAImage {
        try checkSignature(data, name: name)
        // libpng keeps `raw` from begin_read to finish_read: both happen inside this closure.
        // An interlaced 16-bit image is read whole too, for libpng's verdict on the file;
        // its pixels then come from the rewrite (the first result is freed before that).
        let result: Result<RGBAImage, PNGError> = data.withUnsafeBytes { raw in
            Result { () throws(PNGError) in try read(raw, name: name, maximumPixels: maximumPixels) }
        }
        let image = try result.get()
        return PNGCodec.isInterlaced16Bit(data) ? try decodeInterlaced16Bit(data, name: name) : image
    }

    /// The bytes a PNG file starts with, as far as they are checked before libpng reads it.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47]

    /// Refuses `data` that does not start as a PNG does, before libpng reads it, saying what
    /// it is when it starts as a common format does ("Not a PNG file but a JPEG image; …").
    private static func checkSignature(_ data: Data, name: String) throws(PNGError) {
        guard data.starts(with: signature) else {
            guard let format = ForeignFormat(data) else { throw .invalid(file: name, reason: "Not a PNG file") }
            throw .invalid(file: name, reason: "Not a PNG file but \(format.name); \(format.advice(for: name))")
        }
    }

    /// Starts libpng on `raw` and checks the size its header declares against the cap; `body`
    /// gets the reader and that size, and the reader is freed after it.
    private static func withHeader<T>(_ raw: UnsafeRawBufferPointer, name: String, maximumPixels: Int,
                                      _ body: (inout png_image, Int, Int) throws(PNGError) -> T) throws(PNGError) -> T {
        // libpng's simplified reader refuses a side past a million pixels (its default user
        // limit, which that interface cannot raise) as "Invalid IHDR data": such a header says
        // its size first, the cap's error past the cap, else that limit's.
        if let (width, height) = PNGChunks.headerSize(raw), width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
           max(width, height) > libpngSideLimit {
            guard width * height <= maximumPixels else {
                throw .tooLarge(file: name, width: width, height: height, limit: maximumPixels)
            }
            throw .invalid(file: name, reason: "image is \(width)x\(height); PNG input is read up to \(libpngSideLimit) pixels a side")
        }
        var image = png_image()
        image.version = carousel_png_image_version
        guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw .invalid(file: name, reason: reason == "" ? "not a PNG file" : reason)
        }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        guard width.multipliedReportingOverflow(by: height).partialValue <= maximumPixels,
              width <= maximumPixels, height <= maximumPixels else {
            throw .tooLarge(file: name, width: width, height: height, limit: maximumPixels)
        }
        return try body(&image, width, height)
    }

    /// Decodes `raw` (``withHeader(_:name:maximumPixels:_:)`` first).
    private static func read(_ raw: UnsafeRawBufferPointer, name: String, maximumPixels: Int) throws(PNGError) -> RGBAImage {
        try withHeader(raw, name: name, maximumPixels: maximumPixels) { (image, width, height) throws(PNGError) in
            // libpng has read the header; a damaged chunk anywhere else is refused before decoding,
            // the ancillary ones too (libpng drops those and decodes without them: a gamma or a
            // transparency lost, the pixels changed).
            if let defect = PNGChunks.defect(in: raw) { throw .invalid(file: name, reason: defect) }
            image.flags |= carousel_png_flag_16bit_srgb
            image.format = carousel_png_format_rgba
            guard POSIX.canAllocate(width * height * 4) else {
                throw .invalid(file: name, reason: "its \(width)x\(height) pixels take \(POSIX.mebibytes(width * height * 4)), "
                               + "more than this run can hold in memory")
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let finished = pixels.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
            }
            guard finished != 0 else {
                throw .invalid(file: name, reason: message(of: image))
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// Encodes `image` as an 8-bit RGBA PNG (sRGB) in memory; `fast` trades size for speed:
    /// every row Paeth-filtered and deflated at zlib level 1 with run-length matches only
    /// (`PNGWriter`, for `carousel frames`), where libpng otherwise chooses a filter for each
    /// row and deflates at zlib's default level. An image wider or taller than libpng's
    /// writer takes (a million pixels) is written the quick way: a
    /// `carousel strip` of a wide spacing (`--spacing 249500` over two pictures, 1,000,560
    /// pixels) was refused with libpng's `Invalid IHDR data`, though a PNG may be 2^31 - 1.
    public static func encode(_ image: RGBAImage, name: String = "<memory>", fast: Bool = false) throws(PNGError) -> Data {
        if fast || max(image.width, image.height) > libpngSideLimit { return try PNGWriter.encodeQuickly(image, name: name) }
        var png = png_image()
        png.version = carousel_png_image_version
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = carousel_png_format_rgba
        defer { png_image_free(&png) }
        // One pass into a buffer of libpng's worst-case size (asking for the size first would encode twice).
        var size = Int(carousel_png_size_max(png))
        var out = Data(count: size)
        let written = out.withUnsafeMutableBytes { dst in
            image.pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(&png, dst.baseAddress, &size, 0, raw.baseAddress, Int32(image.width * 4), nil)
            }
        }
        guard written != 0 else {
            throw .encodingFailed(file: name, reason: message(of: png))
        }
        return out.prefix(size)
    }

    /// The widest and tallest image libpng's simplified interface takes, to read or to write
    /// (its default user limit, `PNG_USER_WIDTH_MAX` and `PNG_USER_HEIGHT_MAX`, which that
    /// interface cannot raise): a wider or taller image is written the quick way, and refused
    /// as an input, saying so.
    static let libpngSideLimit = 1_000_000

    /// Whether the IHDR (which `png_image_begin_read` has validated) declares 16 bits and Adam7.
    static func isInterlaced16Bit(_ data: Data) -> Bool {
        data.count > 28 && data[data.startIndex + 24] == 16 && data[data.startIndex + 28] == 1
    }

    /// Decodes an interlaced 16-bit image exactly, through its non-interlaced rewrite.
    ///
    /// libpng 1.6's simplified reader scrambles rows when it reduces an interlaced
    /// 16-bit image to 8 bits; ``Deinterlacer`` rewrites the file without interlacing,
    /// streaming, and libpng then decodes it as it decodes any non-interlaced file.
    /// libpng has already read the original, so the verdict on its chunks is libpng's.
    private static func decodeInterlaced16Bit(_ data: Data, name: String) throws(PNGError) -> RGBAImage {
        let plain: Data
        do {
            plain = try Deinterlacer.rewrite(data)
        } catch {
            throw .invalid(file: name, reason: error.reason)
        }
        return try decode(plain, name: name, maximumPixels: maximumPixels)
    }

    private static func message(of image: png_image) -> String {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text == "read beyond end of data" ? "truncated file (read beyond end of data)" : text
    }
}
