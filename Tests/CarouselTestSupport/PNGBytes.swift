import Foundation

/// Builds PNG files byte by byte for tests: chunks with CRCs, stored (uncompressed) zlib data.
public enum PNGBytes {
    /// A PNG file: the signature, then `chunks` in order.
    public static func file(_ chunks: [(String, Data)]) -> Data {
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for (type, body) in chunks { file.append(chunk(type, body)) }
        return file
    }

    /// A file whose IHDR claims `width x height` 8-bit RGB, with a token IDAT: for size-cap checks.
    public static func headerOnly(width: Int, height: Int) -> Data {
        var ihdr = be32(width)
        ihdr.append(be32(height))
        ihdr.append(contentsOf: [8, 2, 0, 0, 0])
        return file([("IHDR", ihdr), ("IDAT", zlibStored(Data([0, 0, 0, 0]))), ("IEND", Data())])
    }

    /// One chunk: length, type, body, CRC.
    public static func chunk(_ type: String, _ body: Data) -> Data {
        var typed = Data(type.utf8)
        typed.append(body)
        var out = be32(body.count)
        out.append(typed)
        out.append(be32(Int(crc32(typed))))
        return out
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    public static func zlibStored(_ raw: Data) -> Data {
        var out = Data([0x78, 0x01])
        let bytes = [UInt8](raw)
        var offset = 0
        repeat {
            let n = min(65535, bytes.count - offset)
            let last: UInt8 = offset + n == bytes.count ? 1 : 0
            out.append(contentsOf: [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)])
            out.append(contentsOf: bytes[offset..<(offset + n)])
            offset += n
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        out.append(be32(Int(b << 16 | a)))
        return out
    }

    /// The PNG CRC-32 of `data`.
    public static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `v` as four big-endian bytes.
    public static func be32(_ v: Int) -> Data {
        Data([UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)])
    }
}
