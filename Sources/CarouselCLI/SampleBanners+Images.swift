import Carousel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SampleBanners {
    /// The banners decoded, in order: what `carousel` renders when given no images.
    static func images() throws(CarouselError) -> [RGBAImage] {
        try ImageInputs.decode(files)
    }

    /// The banners' PNG files, each named as in `SampleImages/banners`. Text that is not
    /// base64 (never written) becomes an empty file, which the decoder names as unreadable.
    static var files: [(name: String, data: Data)] {
        base64.enumerated().map { k, text in
            ("banner-\(k + 1).png", Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data())
        }
    }
}
