import Carousel
import CarouselSamples

/// The home-screen banner of a demo app: the sample posters as peeking cards with page dots.
public enum DemoBanner {
    /// The banner's options, as the app's designers set them.
    public static var options: CarouselOptions {
        var options = CarouselOptions()
        options.size = PixelSize(width: 320, height: 180)
        options.itemWidth = 288
        options.spacing = 8
        options.background = RGBA(r: 0x10, g: 0x10, b: 0x14)
        options.dots.currentColor = RGBA(r: 0xFF, g: 0xFF, b: 0xFF)
        return options
    }

    /// The banner as the app shows it.
    public static func carousel() throws -> Carousel {
        try Carousel(contentsOf: SampleImages.urls, options: options)
    }
}
