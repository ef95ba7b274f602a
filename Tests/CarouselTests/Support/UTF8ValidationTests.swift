import Carousel
import CarouselTestSupport
import Testing

/// `String(utf8:)`, the UTF-8 check that stands in for `String(validating:as:)` (macOS 15 and
/// later only), gives that initializer's answer on every input. On an older macOS the test
/// is skipped, the initializer not there to compare with.
struct UTF8ValidationTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func agreesWithTheStandardLibrary() {
        var cases: [[UInt8]] = [
            [], Array("hello, é 漢 🎠".utf8), [0xFF], [0xFE, 0x2E, 0x70], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80],
            [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0xF0, 0x9F, 0x8E], [0x80], [0x61, 0x00, 0x62], [0xEF, 0xBF, 0xBD],
        ]
        var random = SeededRandom(seed: 7)
        for _ in 0..<5000 {
            cases.append((0..<(random.byte() % 9)).map { _ in random.byte() % 4 == 0 ? random.byte() : 0x80 | random.byte() % 0x50 })
        }
        for bytes in cases {
            #expect(String(utf8: bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }
}
