import Foundation

/// The five sample banners shipped with the package (640x360 PNGs, CC0), used when no images are given.
public enum SampleImages {
    /// The sample files in order, `banner-1.png` ... `banner-5.png`.
    ///
    /// They are a SwiftPM resource, found next to the built product whatever the working directory.
    public static var urls: [URL] {
        guard let folder = Bundle.module.url(forResource: "banners", withExtension: nil) else { return [] }
        return (1...5).map { folder.appendingPathComponent("banner-\($0).png") }
    }
}
